"""The ``/orders`` group of standing orders (a player's own answers given in advance, only
they see them): ``/orders only-pass`` and ``show``. A phase whose order has a command of
its own adds it to the group from its cog (:mod:`cogs.groups`: ``/orders bidding`` from the
auction's, ``storm``, ``charity`` and ``revival`` from theirs), saving it through
:func:`give_order`.

Thin glue, as :mod:`cogs.turn.turn`: each command finds the channel's game and the faction
the caller acts for (its seated player, or a current moderator naming it with
``faction:``); the app keeps the order and the answer is ephemeral.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.orders import saved
from cogs.common import FactionName, acting_faction, app_of, game_of, session_of
from cogs.errors import reply

ONLY_PASS_ORDERS = [
    Choice(name="Pass at once whenever a pass is all I can do", value="pass"),
    Choice(name="Ask me each time (withdraws the order)", value="ask"),
]
GROUP = ("orders",)
"""The group the phases' cogs add their orders to."""


async def give_order(
    interaction: discord.Interaction, name: str, value: str, faction: str | None
) -> None:
    """Keep the order ``name`` = ``value`` for the faction the caller acts for, and say so."""
    game_id = game_of(interaction)
    who = await acting_faction(interaction, game_id, faction)
    await app_of(interaction).set_standing_order(game_id, who, name, value)
    await reply(interaction, saved(name, value))


class Orders(commands.Cog):
    """The standing orders of the whole turn."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    orders = app_commands.Group(
        name="orders",
        description="Standing orders for the whole turn's choices (only you see them).",
    )

    @orders.command(
        name="only-pass", description="Pass at once when you can only pass (only you see it)."
    )
    @app_commands.describe(
        order="Asked like everyone (bid, storm card, charity, revival): pass when you cannot act."
    )
    @app_commands.choices(order=ONLY_PASS_ORDERS)
    async def orders_only_pass(
        self, interaction: discord.Interaction, order: str, faction: FactionName | None = None
    ) -> None:
        await give_order(interaction, "only_pass", order, faction)

    @orders.command(name="show", description="Your standing orders (only you see them).")
    async def orders_show(
        self, interaction: discord.Interaction, faction: FactionName | None = None
    ) -> None:
        game_id = game_of(interaction)
        who = await acting_faction(interaction, game_id, faction)
        given = session_of(interaction, game_id).orders.get(who)
        lines = given.lines() if given is not None else []
        if not lines:
            await reply(interaction, "Standing orders: none (you are asked every time).")
            return
        await reply(interaction, "\n".join(["Your standing orders:", *(f"- {x}" for x in lines)]))
