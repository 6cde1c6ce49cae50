"""The Bidding phase's standing order (1.04): a faction's own answer to the auction, given
in advance. Pure, like the rest of the engine; the bot finds it by the phase's name
(``rules.<phase>.orders`` exporting ``ORDER``) and never names it.

An order is tied to what it was given for: "pass:T" to the Bidding phase of turn T,
"up_to:N:T:K" to card K on offer in turn T (the order raises by the minimum when the
faction's turn to bid comes, never beyond N, and passes once it cannot). What a player
reads of the order they gave is the phase's words' (:mod:`bot.words.bidding`).
"""

from __future__ import annotations

import re
from typing import Final

from rules.actions import FactionAction, Pass
from rules.bidding import auction as bidding
from rules.bidding.actions import Bid, KaramaTakeHand, SupportBids
from rules.bidding.view import auction_of
from rules.errors import MentatError, quote
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import TURN_PHASES, GamePhase
from rules.view import game_view

PATTERN = re.compile(
    r"^(?:pass:(?P<turn>\d{1,3})|up_to:(?P<n>\d{1,3}):(?P<t>\d{1,3}):(?P<card>\d{1,2}))$"
)
"""A bidding order: "pass:T" (every card of turn T), "up_to:N:T:K" (card K of turn T)."""


class BiddingOrderError(MentatError, ValueError):
    """A bidding order that cannot be given now (no card on offer, no limit...)."""


class BiddingOrder:
    """The Bidding phase's order kind: its name, its values and the answer it gives (its
    words are the phase's: :mod:`bot.words.bidding`)."""

    name: Final = "bidding"
    side_actions: Final[tuple[type[FactionAction], ...]] = (SupportBids, KaramaTakeHand)
    """Not answers to the auction's question (an ally's commitment, taking a hand)."""

    def valid(self, value: str) -> bool:
        return PATTERN.match(value) is not None

    def answer(self, state: GameState, faction: Faction, value: str) -> FactionAction | None:
        """The order's answer to the auction now: a pass, or the minimum raise while it
        stays within the order's limit (a pass beyond); None when the order is not for the
        card on offer (or the turn), or no card is on offer."""
        found = PATTERN.match(value)
        if found is None or state.whole.phase is not GamePhase.BIDDING:
            return None
        auction = auction_of(game_view(state))
        if auction is None or not bidding.auction_open(state.whole):
            return None
        if found["turn"] is not None:
            return Pass(faction) if int(found["turn"]) == state.whole.turn else None
        turn, card = int(found["t"]), int(found["card"])
        if (turn, card) != (state.whole.turn, auction.number):
            return None
        raise_to = auction.high_bid + 1
        if raise_to <= int(found["n"]) and state.is_legal(Bid(faction, raise_to)):
            return Bid(faction, raise_to)
        return Pass(faction)

    def as_a_pass(self, state: GameState, faction: Faction) -> tuple[FactionAction, ...]:
        """None: a bid is an answer."""
        del state, faction
        return ()


ORDER = BiddingOrder()
"""The Bidding phase's order kind, as the bot's standing orders look it up."""


def given(state: GameState, kind: str, limit: int | None = None) -> str:
    """The stored value of a bidding order given now: "pass" (every card of this turn's
    Bidding phase, or the next one's once it is over) or "up_to" (``limit`` on the card on
    offer now); "ask" withdraws. BiddingOrderError when it cannot be given now."""
    if kind == "ask":
        return "ask"
    game = state.game
    if game.stop_after is not None:
        raise BiddingOrderError("there is no Bidding phase in a game of one phase")
    if kind == "pass":
        phase = TURN_PHASES.index(GamePhase.BIDDING)
        later = game.phase in TURN_PHASES and TURN_PHASES.index(game.phase) > phase
        return f"pass:{game.turn + 1 if later else game.turn}"
    if kind != "up_to":
        raise BiddingOrderError(
            f"there is no bidding order {quote(kind, 40)}; orders: pass, up_to, ask"
        )
    auction = auction_of(game_view(state))
    if game.phase is not GamePhase.BIDDING or auction is None:
        raise BiddingOrderError(
            "no card is on offer now: a “bid up to” order is for the card on offer"
        )
    if limit is None or not 0 <= limit <= 999:
        raise BiddingOrderError("a “bid up to” order needs the most you would bid, from 0 to 999")
    return f"up_to:{limit}:{game.turn}:{auction.number}"
