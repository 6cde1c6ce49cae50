"""A phase's own part of the game's state and of the views: declared once by the phase,
kept under its name, stored where the game kept it before it had parts."""

from __future__ import annotations

from dataclasses import fields

import pytest

from rules.battle.model import BATTLE
from rules.battle.traitors import TRAITORS
from rules.battle.view import BattleSecrets
from rules.bidding.model import AUCTION, GIVE_BACK, SUPPORT
from rules.bidding.view import AuctionSecrets, AuctionView, auction_of, auction_secrets
from rules.factions import Faction
from rules.game_model import STATE_PARTS, TurnState, state_part
from rules.phases import REGISTRY
from rules.revival.model import Revivals, revivals
from rules.storm.model import StormTurn, storm_turn
from rules.storm.view import StormSecrets, storm_card_held, storm_secrets
from rules.view import GameSecrets, GameView
from tests.rules.battle_helpers import duel, plan
from tests.rules.game_helpers import DECK, game_at

F = Faction


def at_auction() -> TurnState:
    state = game_at("bidding", seats=["harkonnen", "atreides", "emperor"], treachery_deck=DECK)
    return state.whole


def test_a_part_is_declared_once() -> None:
    assert STATE_PARTS["auction"] is AUCTION
    with pytest.raises(ValueError, match="part 'auction' already"):
        state_part("auction", None, lambda a: {}, lambda d: None)
    assert STATE_PARTS["auction"] is AUCTION


def test_the_auction_is_kept_under_its_part_and_stored_as_before() -> None:
    game = at_auction()
    auction = AUCTION.of(game)
    assert auction is not None and game.parts["auction"] is auction
    stored = game.to_dict()
    assert stored["auction"] == auction.to_dict() and stored["bid_support"] == {}
    assert "parts" not in stored
    assert TurnState.from_dict(stored) == game


def test_every_game_holds_every_part_empty_until_its_phase_sets_it() -> None:
    """A game made anew and one read back from its stored form are equal, parts too."""
    game = TurnState.from_dict(at_auction().to_dict())
    done = TurnState.from_dict({**game.to_dict(), "auction": None, "give_back": None})
    assert set(done.parts) == set(STATE_PARTS)
    assert AUCTION.of(done) is None and GIVE_BACK.of(done) is None and SUPPORT.of(done) == {}
    assert done.to_dict()["auction"] is None and TurnState.from_dict(done.to_dict()) == done
    fresh = TurnState(chance=done.chance)
    assert fresh.parts == done.parts and TurnState.from_dict(fresh.to_dict()) == fresh


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
    secrets = GameSecrets(None, None)
    assert auction_secrets(secrets) == AuctionSecrets()


def test_every_view_part_is_named_once() -> None:
    names = [view.name for spec in REGISTRY.values() for view in spec.views]
    assert len(names) == len(set(names)) and "auction" in names


def test_the_phases_secrets_never_share_a_stored_key() -> None:
    """A view's stored form puts each phase's secrets beside the faction's others: no two
    may share a key (one would hide the other)."""
    keys = [
        f.name
        for cls in (GameSecrets, AuctionSecrets, BattleSecrets, StormSecrets)
        for f in fields(cls)
    ]
    assert len(keys) == len(set(keys)), keys
    public = [view.name for spec in REGISTRY.values() for view in spec.views]
    assert not set(public) & {f.name for f in fields(GameView)}


def test_the_battle_s_and_the_revival_s_parts_keep_their_stored_keys() -> None:
    """A game stored before the phases had parts reads back into them, and is stored the
    same way again: the battle under way, the leaders that fought, the traitors, the
    turn's revivals."""
    state = duel()
    plan(state, "harkonnen", "Feyd Rautha", 4)
    game = state.whole
    stored = game.to_dict()
    fight = BATTLE.of(game)
    assert fight is not None and stored["battle"] == fight.to_dict()
    assert stored["traitors"] == {f.value: list(t) for f, t in sorted(TRAITORS.of(game).items())}
    assert {"leaders_fought", "traitor_offers", "revived", "ally_revival_room"} <= set(stored)
    assert TurnState.from_dict(stored) == game
    older = {**stored, "revived": ["fremen", "atreides"], "starred_revived": ["fremen"]}
    older |= {"ally_revival_room": 2, "ally_revival_paid": False}
    read = revivals(TurnState.from_dict(older))
    assert read == Revivals(frozenset({F.FREMEN, F.ATREIDES}), frozenset({F.FREMEN}), 2, False)
    assert TurnState.from_dict(older).to_dict()["revived"] == ["atreides", "fremen"]


def test_the_storm_s_part_and_view_keep_their_stored_keys() -> None:
    """The Fremen's storm card and this turn's known move: a game stored before the Storm
    phase had its part reads back into it and is stored the same way; the views keep the
    flag and the Fremen's own card where they were."""
    state = game_at("storm", turn=2, storm=2, advanced=True, storm_turn=StormTurn(next=4))
    game = state.whole
    stored = game.to_dict()
    assert {"storm_next", "storm_move", "storm_card_hidden"} <= set(stored)
    assert TurnState.from_dict(stored) == game
    older = {**stored, "storm_next": 5, "storm_move": 2, "storm_card_hidden": True}
    read = TurnState.from_dict(older)
    assert storm_turn(read) == StormTurn(next=5, hidden=True, move=2)
    assert read.to_dict() == older
    fremen = state.view_for(F.FREMEN).to_dict()
    assert fremen["public"]["game"]["storm_card_held"] is True
    assert (
        fremen["secrets"]["storm_next"]
        == storm_secrets(state.view_for(F.FREMEN).secrets).storm_next
    )
    assert state.view_for(F.ATREIDES).to_dict()["secrets"]["storm_next"] is None
    assert not storm_card_held(game_at("storm", turn=1).public_view().game)
