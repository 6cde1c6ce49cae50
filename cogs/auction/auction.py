"""The Bidding phase's commands: ``/bid``, ``/support-bids``, ``/give-spice``,
``/give-back``, the bidding's standing order (``/orders bidding``, a subcommand of the
orders cog's group: :mod:`cogs.groups`) and the Karama card's uses in this phase
(``/karama buy``, ``take-hand``: :mod:`cogs.auction.karama`).

Thin glue, as :mod:`cogs.turn.turn`: each command finds the channel's game and the faction
the caller acts for (its seated player, or a current moderator naming it with
``faction:``), builds the engine's action and submits it through the game's session; the
engine's refusal (citing its rule) or the session's comes back as an ephemeral answer
through :mod:`cogs.errors`. Every answer is ephemeral (the command tree deferred it):
a bid and a faction's spice are told only to the one who acted; the table hears the bid
itself from the session.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.orders import saved
from bot.words.bidding import bid_status
from cogs.auction import autocomplete as ac
from cogs.auction.karama import KARAMA, SUBCOMMANDS
from cogs.common import FactionName, act_for, acting_faction, app_of, game_of, key_of, session_of
from cogs.errors import reply
from cogs.groups import Subcommand, contribute, withdraw
from cogs.orders.orders import GROUP
from cogs.play.views import prompt_view
from rules.actions import GiveSpice
from rules.bidding.actions import Bid, GiveBackCards, SupportBids
from rules.bidding.orders import given

Amount = app_commands.Range[int, 0, 999]
BIDDING_ORDERS = [
    Choice(name="Pass on every card of this Bidding phase", value="pass"),
    Choice(name="Bid up to a limit on the card on offer (raise by 1 each turn)", value="up_to"),
    Choice(name="Ask me each time (withdraws the order)", value="ask"),
]
Forces = app_commands.Range[int, 0, 20]
Leader = app_commands.Range[str, 1, 100]


@app_commands.describe(
    order="Pass on every card this phase, bid up to a limit on the card on offer, or ask.",
    up_to="For “bid up to”: the most you would bid on the card on offer (0: pass on it).",
)
@app_commands.choices(order=BIDDING_ORDERS)
async def orders_bidding(
    interaction: discord.Interaction,
    order: str,
    up_to: app_commands.Range[int, 0, 999] | None = None,
    faction: FactionName | None = None,
) -> None:
    game_id = game_of(interaction)
    who = await acting_faction(interaction, game_id, faction)
    session = session_of(interaction, game_id)
    if session.state is None:
        await reply(interaction, "Refused: this game has not started.")
        return
    value = given(session.state, order, up_to)
    await app_of(interaction).set_standing_order(game_id, who, "bidding", value)
    await reply(interaction, saved("bidding", value))


ORDER_COMMANDS = (
    Subcommand("bidding", "Bid or pass in advance (only you see it).", orders_bidding),
)
"""The auction's subcommand of ``/orders``."""


class Auction(commands.Cog):
    """Bidding (1.04), as the engine runs it."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        contribute(self.bot.tree, KARAMA, *SUBCOMMANDS)  # /karama buy, take-hand
        contribute(self.bot.tree, GROUP, *ORDER_COMMANDS)  # /orders bidding

    async def cog_unload(self) -> None:
        withdraw(self.bot.tree, KARAMA, *SUBCOMMANDS)
        withdraw(self.bot.tree, GROUP, *ORDER_COMMANDS)

    _act = staticmethod(act_for)

    # -- bidding ----------------------------------------------------------------------

    @app_commands.command(
        name="bid", description="Bidding: bid on the card on offer (no amount: see the bidding)."
    )
    @app_commands.describe(
        amount="Your whole bid, more than the high bid. Leave it out to see the bidding.",
        karama="Bid beyond your spice with a Karama card (3.01.11.04).",
    )
    async def bid(
        self,
        interaction: discord.Interaction,
        amount: app_commands.Range[int, 1, 999] | None = None,
        karama: bool = False,
        faction: FactionName | None = None,
    ) -> None:
        game_id = game_of(interaction)
        who = await acting_faction(interaction, game_id, faction)
        session = session_of(interaction, game_id)
        if amount is None:
            asked = session.prompt_now(who)
            view = prompt_view(game_id, asked) if asked is not None else None
            if asked is not None and view is not None:
                await reply(interaction, asked.text, view=view)
                return
            state = session.state
            text = bid_status(state, who) if state is not None else "This game has not started."
            await reply(interaction, text)
            return
        await app_of(interaction).submit(
            game_id, Bid(who, amount, karama), actor=interaction.user.id, key=key_of(interaction)
        )
        how = " with a Karama card" if karama else ""
        await reply(interaction, f"Done: you bid {amount}{how}.")

    @app_commands.command(
        name="support-bids",
        description="Commit up to this much of your spice to your ally's bids this phase.",
    )
    @app_commands.describe(amount="At most this much of your spice (0 withdraws it).")
    async def support_bids(
        self, interaction: discord.Interaction, amount: Amount, faction: FactionName | None = None
    ) -> None:
        await self._act(interaction, faction, SupportBids, amount)
        if amount == 0:
            await reply(interaction, "Done: you no longer commit spice to your ally's bids.")
            return
        await reply(
            interaction,
            f"Done: your ally may use up to {amount} of your spice in its bids this phase. "
            "The table hears that you support its bids, never how much.",
        )

    @app_commands.command(
        name="give-spice", description="Emperor: give spice to your ally (at any time, 2.03.06)."
    )
    @app_commands.describe(amount="The spice you give (it becomes your ally's; kept secret).")
    async def give_spice(
        self,
        interaction: discord.Interaction,
        amount: app_commands.Range[int, 1, 999],
        faction: FactionName | None = None,
    ) -> None:
        await self._act(interaction, faction, GiveSpice, amount)
        secret = "The table never hears how much."
        await reply(interaction, f"Done: you give {amount} spice to your ally. {secret}")

    @app_commands.command(
        name="give-back", description="Harkonnen: give back as many cards as you took (1.14.04)."
    )
    @app_commands.describe(cards="The cards, by name, separated by commas.")
    @app_commands.autocomplete(cards=ac.give_back)
    async def give_back(
        self,
        interaction: discord.Interaction,
        cards: app_commands.Range[str, 1, 400],
        faction: FactionName | None = None,
    ) -> None:
        action, result = await self._act(interaction, faction, GiveBackCards, cards)
        hand = ", ".join(result.state.factions[action.faction].cards) or "no cards"
        await reply(interaction, f"Done: the cards are given back. Your hand now: {hand}.")
