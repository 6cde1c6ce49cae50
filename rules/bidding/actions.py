"""The Bidding phase's actions (1.04): a bid, a Karama buy, an ally's support of bids, and
the Harkonnen's Karama on a hand with the cards given back (1.14.04)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.actions import FactionAction


@dataclass(frozen=True, slots=True)
class Bid(FactionAction):
    """Bidding: raise the bid on the card on offer to ``amount`` (1.04.06); with
    ``karama``, beyond the spice the faction holds (3.01.11.04, reading D11)."""

    name: ClassVar[str] = "bid"
    amount: int
    karama: bool = False


@dataclass(frozen=True, slots=True)
class KaramaBuy(FactionAction):
    """Bidding: take the card on offer with a Karama, paying nothing (3.01.11.04)."""

    name: ClassVar[str] = "karama_buy"


@dataclass(frozen=True, slots=True)
class SupportBids(FactionAction):
    """Bidding: the faction commits up to ``amount`` of its spice to its ally's bids this
    phase (1.10.02.04); 0 withdraws the commitment."""

    name: ClassVar[str] = "support_bids"
    amount: int


@dataclass(frozen=True, slots=True)
class KaramaTakeHand(FactionAction):
    """Harkonnen, advanced, once a game, in the Bidding phase: take ``target``'s whole hand
    with a Karama (1.14.04); the Harkonnen then give back as many cards."""

    name: ClassVar[str] = "karama_take_hand"
    target: str


@dataclass(frozen=True, slots=True)
class GiveBackCards(FactionAction):
    """Harkonnen, after taking a hand (1.14.04): the cards given back, as many as taken,
    named and separated by commas."""

    name: ClassVar[str] = "give_back_cards"
    cards: str
