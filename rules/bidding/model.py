"""The Bidding phase's state (1.04): the auction under way, as a frozen value.

The phase's own parts of the game's state (``TurnState.parts``, each declared once here):
the auction (:data:`AUCTION`), the allies' commitments to bids (:data:`SUPPORT`) and a
hand the Harkonnen took (:data:`GIVE_BACK`). The cards laid out and whether the high bid
was made with a Karama are secret; :mod:`rules.bidding.view` shows the rest.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from rules.factions import Faction
from rules.game_model import StatePart, TurnState, state_part


@dataclass(frozen=True, slots=True)
class Auction:
    """The cards laid out and not yet sold (``cards[0]`` is on offer), and the bidding on it."""

    cards: tuple[str, ...]  # secret: laid out, in order, the one on offer first
    number: int  # the card on offer is card ``number`` of ``of`` laid out (from 1)
    of: int
    opener: Faction  # who opened the bidding on this card (1.04.07 rotates it)
    bidder: Faction  # whose turn it is to bid or pass
    high_bid: int = 0
    high_bidder: Faction | None = None
    karama: bool = False  # secret: the high bid was made with a Karama (3.01.11.04)
    passed: tuple[Faction, ...] = ()  # passed since the last bid (or on this card, pass final)
    unseen: bool = False  # a Karama stopped the Atreides' look at this card (2.01.05)

    def to_dict(self) -> dict[str, Any]:
        return {
            "cards": list(self.cards),
            "number": self.number,
            "of": self.of,
            "opener": self.opener.value,
            "bidder": self.bidder.value,
            "high_bid": self.high_bid,
            "high_bidder": self.high_bidder.value if self.high_bidder else None,
            "karama": self.karama,
            "passed": [f.value for f in self.passed],
            "unseen": self.unseen,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Auction:
        high = data.get("high_bidder")
        return cls(
            cards=tuple(str(c) for c in data["cards"]),
            number=int(data["number"]),
            of=int(data["of"]),
            opener=Faction(data["opener"]),
            bidder=Faction(data["bidder"]),
            high_bid=int(data.get("high_bid", 0)),
            high_bidder=Faction(high) if high else None,
            karama=bool(data.get("karama", False)),
            passed=tuple(Faction(f) for f in data.get("passed", ())),
            unseen=bool(data.get("unseen", False)),
        )


def auction_from(data: Mapping[str, Any] | None) -> Auction | None:
    return Auction.from_dict(data) if data else None


def give_back_from(data: Mapping[str, Any] | None) -> tuple[Faction, int] | None:
    """The Harkonnen's hand taken (1.14.04): whose, and how many cards to give back."""
    return (Faction(data["target"]), int(data["count"])) if data else None


def give_back_to(value: tuple[Faction, int] | None) -> dict[str, Any] | None:
    return {"target": value[0].value, "count": value[1]} if value else None


AUCTION: StatePart[Auction | None] = state_part(
    "auction",
    None,
    lambda a: {"auction": a.to_dict() if a else None},
    lambda data: auction_from(data.get("auction")),
)
"""The card on offer and the bidding on it (1.04.05)."""
SUPPORT: StatePart[Mapping[Faction, int]] = state_part(
    "bid_support",
    MappingProxyType({}),
    lambda support: {"bid_support": {f.value: n for f, n in sorted(support.items())}},
    lambda data: {Faction(f): int(n) for f, n in data.get("bid_support", {}).items()},
)
"""What each ally commits to its ally's bids, by supporter (1.10.02.04)."""
GIVE_BACK: StatePart[tuple[Faction, int] | None] = state_part(
    "give_back",
    None,
    lambda taken: {"give_back": give_back_to(taken)},
    lambda data: give_back_from(data.get("give_back")),
)
"""The Harkonnen took this faction's hand of n cards, to give as many back (1.14.04)."""


class _Same(enum.Enum):
    SAME = "same"


SAME = _Same.SAME


def bids_changed(
    game: TurnState,
    *,
    auction: Auction | _Same | None = SAME,
    bid_support: Mapping[Faction, int] | _Same = SAME,
    give_back: tuple[Faction, int] | _Same | None = SAME,
) -> Mapping[str, object]:
    """``game``'s parts with the Bidding phase's given ones changed (for
    ``set_game(parts=...)``); the others stay the same."""
    parts = dict(game.parts)
    if auction is not SAME:
        parts[AUCTION.name] = auction
    if bid_support is not SAME:
        parts[SUPPORT.name] = bid_support
    if give_back is not SAME:
        parts[GIVE_BACK.name] = give_back
    return parts
