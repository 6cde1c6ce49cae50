"""The Storm phase's commands (1.01): the subcommand this cog adds to the orders cog's group
(:mod:`cogs.groups`): ``/orders storm`` (the standing order: never play a storm card).

Thin glue, as :mod:`cogs.turn.turn`: each command finds the channel's game and the faction
the caller acts for (its seated player, or a current moderator naming it with
``faction:``); the answer is ephemeral.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from cogs.common import FactionName
from cogs.groups import Subcommand, contribute, withdraw
from cogs.orders.orders import GROUP, give_order

STORM_ORDERS = [
    Choice(name="Never play a storm card: pass at once when asked", value="pass"),
    Choice(name="Ask me each time (withdraws the order)", value="ask"),
]


# -- guests of other cogs' groups ---------------------------------------------------------


@app_commands.describe(order="Never play Weather Control or Family Atomics, or be asked.")
@app_commands.choices(order=STORM_ORDERS)
async def orders_storm(
    interaction: discord.Interaction, order: str, faction: FactionName | None = None
) -> None:
    await give_order(interaction, "storm", order, faction)


GUESTS: tuple[tuple[tuple[str, ...], Subcommand], ...] = (
    (GROUP, Subcommand("storm", "Storm cards in advance (only you see it).", orders_storm)),
)
"""The Storm cog's subcommands of other cogs' groups, each with its group."""


class Storm(commands.Cog):
    """The Storm phase (1.01), as the engine runs it."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        for path, subcommand in GUESTS:
            contribute(self.bot.tree, path, subcommand)

    async def cog_unload(self) -> None:
        for path, subcommand in GUESTS:
            withdraw(self.bot.tree, path, subcommand)
