"""The CHOAM Charity phase's commands (1.03): ``/charity`` (a claim) and ``/orders charity``
(the standing order), a subcommand this cog adds to the orders cog's ``/orders`` group
(:mod:`cogs.groups`). A pass is ``/pass``.

Thin glue, as :mod:`cogs.turn.turn`: the command finds the channel's game and the faction
the caller acts for, builds the engine's action and submits it through the game's session;
a refusal comes back as an ephemeral answer through :mod:`cogs.errors`.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from cogs.common import FactionName, act_for
from cogs.errors import reply
from cogs.groups import Subcommand, contribute, withdraw
from cogs.orders.orders import GROUP, give_order
from rules.choam_charity.actions import ClaimCharity
from rules.choam_charity.events import CharityPaid

CHARITY_ORDERS = [
    Choice(name="Always claim it when I may (else decline it)", value="claim"),
    Choice(name="Never claim it", value="pass"),
    Choice(name="Ask me each time (withdraws the order)", value="ask"),
]
"""The group ``/orders charity`` is a subcommand of."""


@app_commands.describe(order="Claim it whenever you may, never claim it, or be asked.")
@app_commands.choices(order=CHARITY_ORDERS)
async def orders_charity(
    interaction: discord.Interaction, order: str, faction: FactionName | None = None
) -> None:
    await give_order(interaction, "charity", order, faction)


ORDER_COMMANDS = (
    Subcommand("charity", "CHOAM Charity in advance (only you see it).", orders_charity),
)
"""The charity's subcommands of ``/orders``."""


class Charity(commands.Cog):
    """CHOAM Charity (1.03), as the engine runs it."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        contribute(self.bot.tree, GROUP, *ORDER_COMMANDS)

    async def cog_unload(self) -> None:
        withdraw(self.bot.tree, GROUP, *ORDER_COMMANDS)

    @app_commands.command(
        name="charity", description="CHOAM Charity: claim it (with 0 or 1 spice)."
    )
    async def charity(
        self, interaction: discord.Interaction, faction: FactionName | None = None
    ) -> None:
        _, result = await act_for(interaction, faction, ClaimCharity)
        paid = sum(e.amount for e in result.events if isinstance(e, CharityPaid))
        await reply(interaction, f"Done: CHOAM Charity claimed: you receive {paid} spice.")
