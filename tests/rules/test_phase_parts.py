"""A phase's own part of the game's state and of the views: declared once by the phase,
kept under its name, stored where the game kept it before it had parts."""

from __future__ import annotations

import pytest

from rules.bidding.model import PART, Bids, bids
from rules.bidding.view import AuctionSecrets, AuctionView, auction_of, auction_secrets
from rules.factions import Faction
from rules.game_model import STATE_PARTS, TurnState, state_part
from rules.phases import REGISTRY
from rules.view import GameSecrets
from tests.rules.game_helpers import DECK, game_at

F = Faction


def at_auction() -> TurnState:
    state = game_at("bidding", seats=["harkonnen", "atreides", "emperor"], treachery_deck=DECK)
    return state.whole


def test_a_part_is_declared_once() -> None:
    assert STATE_PARTS["bidding"] is PART
    with pytest.raises(ValueError, match="part 'bidding' already"):
        state_part("bidding", Bids(), lambda b: {}, lambda d: Bids())
    assert STATE_PARTS["bidding"] is PART


def test_the_auction_is_kept_under_its_part_and_stored_as_before() -> None:
    game = at_auction()
    auction = bids(game).auction
    assert auction is not None and set(game.parts) == {"bidding"}
    stored = game.to_dict()
    assert stored["auction"] == auction.to_dict() and stored["bid_support"] == {}
    assert "bidding" not in stored and "parts" not in stored
    assert TurnState.from_dict(stored) == game


def test_an_empty_part_is_absent_and_reads_back_absent() -> None:
    """A game outside the auction keeps no part: equal to its stored form read back."""
    game = TurnState.from_dict(at_auction().to_dict())
    done = TurnState.from_dict({**game.to_dict(), "auction": None, "give_back": None})
    assert done.parts == {} and bids(done) == Bids()
    assert done.to_dict()["auction"] is None and TurnState.from_dict(done.to_dict()) == done


def test_the_views_keep_each_phases_part_and_store_it_flat() -> None:
    state = game_at("bidding", seats=["harkonnen", "atreides", "emperor"], treachery_deck=DECK)
    public = state.public_view()
    shown = auction_of(public.game)
    assert isinstance(shown, AuctionView) and shown.number == 1
    assert public.to_dict()["game"]["auction"]["number"] == 1
    assert "parts" not in public.to_dict()["game"]
    mine = state.view_for(F.ATREIDES)
    assert mine.secrets is not None
    assert auction_secrets(mine.secrets).card_on_offer == "Lasgun"
    assert mine.to_dict()["secrets"]["card_on_offer"] == "Lasgun"
    assert "parts" not in mine.to_dict()["secrets"]


def test_a_secret_part_missing_reads_as_nothing_seen() -> None:
    secrets = GameSecrets((), (), None, None, None)
    assert auction_secrets(secrets) == AuctionSecrets()


def test_every_view_part_is_named_once() -> None:
    names = [spec.view.name for spec in REGISTRY.values() if spec.view is not None]
    assert len(names) == len(set(names)) and "auction" in names
