"""The Bidding phase's part of the views (:class:`rules.phase_spec.PhaseView`): the auction
as everyone sees it (never a card, never spice) and a faction's own side of it (the card on
offer for the Atreides, 2.01.05; the ally's commitment to its bids, 1.10.02.04)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.bidding.auction import support_for
from rules.bidding.model import bids
from rules.factions import Faction
from rules.phase_spec import PhaseView
from rules.position import Position

if TYPE_CHECKING:
    from rules.view import GameSecrets, GameView

NAME = "auction"


@dataclass(frozen=True, slots=True)
class AuctionView:
    """The Bidding phase's auction as everyone sees it: never a card, never spice."""

    number: int  # card ``number`` of ``of`` laid out is on offer
    of: int
    opener: Faction
    bidder: Faction  # whose turn it is
    high_bid: int
    high_bidder: Faction | None
    passed: tuple[Faction, ...]  # passed since the last bid


@dataclass(frozen=True, slots=True)
class AuctionSecrets:
    """A faction's own side of the auction."""

    card_on_offer: str | None = None  # the Atreides only: the card up for bid (2.01.05)
    bid_support: int = 0  # what its ally commits to its bids now (1.10.02.04)
    bid_support_given: int = 0  # what it commits to its ally's bids


def public(state: Position) -> AuctionView | None:
    auction = bids(state.whole).auction
    if auction is None:
        return None
    return AuctionView(
        number=auction.number,
        of=auction.of,
        opener=auction.opener,
        bidder=auction.bidder,
        high_bid=auction.high_bid,
        high_bidder=auction.high_bidder,
        passed=auction.passed,
    )


def secret(state: Position, faction: Faction) -> AuctionSecrets:
    game = state.whole
    auction = bids(game).auction
    seen = auction is not None and faction is Faction.ATREIDES and not auction.unseen
    return AuctionSecrets(
        card_on_offer=auction.cards[0] if auction is not None and seen else None,
        bid_support=support_for(state, faction),
        bid_support_given=bids(game).bid_support.get(faction, 0),
    )


VIEW = PhaseView(NAME, public, secret)


def auction_of(game: GameView) -> AuctionView | None:
    """The auction under way in ``game`` (None: none is)."""
    part = game.parts.get(NAME)
    return part if isinstance(part, AuctionView) else None


def auction_secrets(secrets: GameSecrets) -> AuctionSecrets:
    """A faction's own side of the auction, from its secrets."""
    part = secrets.parts.get(NAME)
    return part if isinstance(part, AuctionSecrets) else AuctionSecrets()
