"""The defaults a choice gets when its deadline passes (docs/whole-turn-readings.md)."""

from __future__ import annotations

from rules.actions import Pass, PlaceAdvisor, PlaceFremen, PlaceWorm, Predict
from rules.battle.actions import KeepTraitor
from rules.battle.traitors import OFFERS
from rules.choam_charity.actions import ClaimCharity
from rules.components import leaders
from rules.defaults import default_action
from rules.factions import Faction
from rules.game import GameState
from rules.storm.actions import Dial, FremenStormLosses
from rules.storm.model import StormTurn
from tests.rules.game_helpers import game_at

F = Faction
SIX = (F.HARKONNEN, F.SPACING_GUILD, F.ATREIDES, F.FREMEN, F.EMPEROR, F.BENE_GESSERIT)


def test_set_up_defaults_are_legal_and_named_in_the_readings() -> None:
    state = GameState.new_game(SIX, seed=11)
    for faction in (F.SPACING_GUILD, F.ATREIDES, F.EMPEROR):
        kept = default_action(state, faction)
        assert isinstance(kept, KeepTraitor) and state.is_legal(kept)
        offered = OFFERS.of(state.whole)[faction]
        own = [name for name in offered if name not in leaders(faction)]
        assert kept.leader == (own or list(offered))[0]
    assert default_action(state, F.HARKONNEN) is None  # keeps all four: nothing awaited
    state.apply(default_action(state, F.FREMEN))  # type: ignore[arg-type]
    assert default_action(state, F.FREMEN) == PlaceFremen(F.FREMEN, 4, 3, 3)
    state.apply(default_action(state, F.BENE_GESSERIT))  # type: ignore[arg-type]
    assert default_action(state, F.BENE_GESSERIT) == Predict(F.BENE_GESSERIT, "harkonnen", 10)
    state.apply(default_action(state, F.BENE_GESSERIT))  # type: ignore[arg-type]
    state.apply(PlaceFremen(F.FREMEN, 4, 3, 3))
    assert default_action(state, F.BENE_GESSERIT) == PlaceAdvisor(F.BENE_GESSERIT, "Polar Sink")


def test_a_dial_defaults_to_the_lowest_allowed() -> None:
    state = game_at("storm", turn=1)
    dialers = state.waiting_on()
    assert dialers and {default_action(state, f) for f in dialers} == {Dial(f, 0) for f in dialers}
    later = game_at("storm", turn=2)  # basic game: dials 1 to 3
    assert {default_action(later, f) for f in later.waiting_on()} == {
        Dial(f, 1) for f in later.waiting_on()
    }


def test_charity_is_claimed_and_a_recorded_phase_has_no_default() -> None:
    state = game_at("choam_charity", factions={"atreides": {"spice": 1}})
    assert default_action(state, F.ATREIDES) == ClaimCharity(F.ATREIDES)
    assert default_action(state, F.EMPEROR) == Pass(F.EMPEROR)  # asked alike; it may not claim
    recorded = game_at("bidding")
    assert default_action(recorded, F.ATREIDES) is None  # the moderators record it


def test_the_fremen_lose_as_few_fedaykin_as_allowed() -> None:
    state = game_at(
        "storm",
        turn=2,
        storm=2,
        advanced=True,
        storm_turn=StormTurn(next=1),
        board=[("fremen", "Cielago East", 3, 3)],
        special=[("fremen", "Cielago East", 3, 2)],
    )
    chosen = default_action(state, F.FREMEN)
    assert isinstance(chosen, FremenStormLosses) and chosen.special == 0


def test_a_later_worm_is_placed_where_it_devours_nothing() -> None:
    state = game_at(
        "spice_blow",
        advanced=True,
        board=[("harkonnen", "Imperial Basin", 10, 2), ("fremen", "Imperial Basin", 9, 2)],
        spice_deck=("Shai-Hulud", "Shai-Hulud", "Red Chasm", "South Mesa"),
        spice_discard=("Old Gap",),
    )
    assert state.whole.step == "worm_a"
    chosen = default_action(state, F.FREMEN)
    assert isinstance(chosen, PlaceWorm) and state.is_legal(chosen)
    assert not state.stacks_in(chosen.territory)
    assert not any(n for (t, _), n in state.board_spice.items() if t == chosen.territory)
    assert default_action(state, F.ATREIDES) is None
