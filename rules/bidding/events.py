"""The Bidding phase's events (1.04): hands declared, cards laid out, each auction opened,
the bids, the supports of an ally's bids, and the Harkonnen's Karama on a hand (1.14.04)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.events import Event
from rules.factions import Faction


@dataclass(frozen=True, slots=True)
class HandDeclared(Event):
    """A faction's hand count, announced as the Bidding phase begins (1.04.01)."""

    kind: ClassVar[str] = "hand_declared"
    faction: Faction
    cards: int


@dataclass(frozen=True, slots=True)
class CardsLaidOut(Event):
    """Cards laid out face down for the auction (1.04.04); 0: no auction."""

    kind: ClassVar[str] = "cards_laid_out"
    count: int


@dataclass(frozen=True, slots=True)
class AuctionOpened(Event):
    """Card ``number`` of ``of`` is on offer; ``opener`` bids first (1.04.05, 1.04.07)."""

    kind: ClassVar[str] = "auction_opened"
    number: int
    of: int
    opener: Faction


@dataclass(frozen=True, slots=True)
class BidMade(Event):
    """A bid on the card on offer (a Karama bid looks like any bid)."""

    kind: ClassVar[str] = "bid_made"
    faction: Faction
    amount: int


@dataclass(frozen=True, slots=True)
class CardsReturned(Event):
    """Everyone passed: the cards not sold go back on top of the deck in order (1.04.09)."""

    kind: ClassVar[str] = "cards_returned"
    count: int


@dataclass(frozen=True, slots=True)
class BidsSupported(Event):
    """A faction set or withdrew what it commits to its ally's bids (amount secret)."""

    kind: ClassVar[str] = "bids_supported"
    faction: Faction


@dataclass(frozen=True, slots=True)
class HandTaken(Event):
    """The Harkonnen took ``target``'s whole hand with a Karama (1.14.04)."""

    kind: ClassVar[str] = "hand_taken"
    faction: Faction
    target: Faction
    count: int


@dataclass(frozen=True, slots=True)
class CardsGivenBack(Event):
    """The Harkonnen gave back as many cards as they took (1.14.04)."""

    kind: ClassVar[str] = "cards_given_back"
    faction: Faction
    target: Faction
    count: int
