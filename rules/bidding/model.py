"""The Bidding phase's state (1.04): the auction under way, as a frozen value.

The phase's own part of the game's state (:class:`Bids`, ``TurnState.parts``, declared
once here as :data:`PART`): the auction, the allies' commitments to bids and a hand the
Harkonnen took. The cards laid out and whether the high bid was made with a Karama are
secret; :mod:`rules.bidding.view` shows the rest.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from rules.factions import Faction
from rules.game_model import TurnState, state_part


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


@dataclass(frozen=True, slots=True)
class Bids:
    """The Bidding phase's part of the game's state."""

    auction: Auction | None = None  # the card on offer and the bidding on it (1.04.05)
    bid_support: Mapping[Faction, int] = field(default_factory=dict)  # by supporter (1.10.02.04)
    give_back: tuple[Faction, int] | None = None  # Harkonnen took this hand of n cards (1.14.04)


def _write(bids: Bids) -> dict[str, Any]:
    return {
        "auction": bids.auction.to_dict() if bids.auction else None,
        "bid_support": {f.value: n for f, n in sorted(bids.bid_support.items())},
        "give_back": give_back_to(bids.give_back),
    }


def _read(data: Mapping[str, Any]) -> Bids:
    return Bids(
        auction=auction_from(data.get("auction")),
        bid_support={Faction(f): int(n) for f, n in data.get("bid_support", {}).items()},
        give_back=give_back_from(data.get("give_back")),
    )


PART = state_part("bidding", Bids(), _write, _read)


def bids(game: TurnState) -> Bids:
    """The Bidding phase's state in ``game``."""
    return PART.of(game)


def bids_changed(game: TurnState, **changes: Any) -> Mapping[str, object]:
    """``game``'s parts with the Bidding phase's changed (for ``set_game(parts=...)``)."""
    return PART.changed(game, replace(PART.of(game), **changes))
