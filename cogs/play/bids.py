"""The bidder's raise buttons: "Bid 4 (+1)", each bound to the turn to bid it was made for.

A raise button names the whole bid (not the raise), the faction and the token of the
turn to bid (the card on offer, the high bid and the bidder: :mod:`bot.waits`). Once that
turn is over (a bid, a pass, the deadline), a click is refused and the message says how it
closed. Its custom id carries everything, so it works after a restart too.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs.errors import reply
from cogs.play.clicks import submit_click
from rules.actions import Bid
from rules.factions import Faction

MAX_BID = 999  # a button never carries more (the engine refuses what a faction cannot pay)


class BidButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"mentat-bid:(?P<game>\d{1,19}):(?P<faction>[a-z_]{1,20}):(?P<amount>\d{1,3})"
    r":(?P<token>\d{1,19})",
):
    """One raise: a bid of ``amount`` on the card on offer, bound to the turn to bid."""

    def __init__(
        self, game_id: int, faction: Faction, amount: int, token: str, raised: int = 0
    ) -> None:
        self.game_id, self.faction, self.amount, self.token = game_id, faction, amount, token
        label = f"Bid {amount} (+{raised})" if raised else f"Bid {amount}"
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.primary,
                custom_id=f"mentat-bid:{game_id}:{faction.value}:{amount}:{token}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> BidButton:
        faction = Faction(match["faction"])
        return cls(int(match["game"]), faction, int(match["amount"]), match["token"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bid = Bid(self.faction, min(self.amount, MAX_BID))
        result = await submit_click(
            interaction, self.game_id, self.faction, self.token, lambda _: bid
        )
        if result is not None:
            await reply(interaction, f"Done: you bid {self.amount}.")


def bid_buttons(
    game_id: int, faction: Faction, raises: tuple[int, ...], token: str
) -> list[BidButton]:
    """The raise buttons of a bidder's prompt (the first raise is by 1 over the high bid)."""
    if not raises:
        return []
    high = raises[0] - 1
    return [BidButton(game_id, faction, n, token, n - high) for n in raises[:3]]
