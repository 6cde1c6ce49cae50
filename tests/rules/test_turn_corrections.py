"""Main's corrections meet the whole-turn engine: a correction mid-turn runs no steps,
and the set-up and phase events keep kinds of their own."""

from __future__ import annotations

from rules.actions import SetStorm
from rules.events import EVENT_TYPES, ForcesPlaced, ForcesSetUp, PhaseBegan, StormSet
from rules.factions import Faction
from rules.game_model import GamePhase
from rules.model import Snapshot
from tests.rules.game_helpers import game_at

F = Faction


def test_a_correction_mid_turn_changes_the_storm_and_nothing_else() -> None:
    state = game_at("choam_charity", factions={"atreides": {"spice": 0}})
    waiting = set(state.waiting_on())
    assert state.apply(SetStorm(7)) == [StormSet(7)]
    assert state.game_phase is GamePhase.CHOAM_CHARITY
    assert set(state.waiting_on()) == waiting == set(F)  # charity asks everyone alike


def test_a_whole_turn_snapshot_keeps_the_storm_through_its_stored_form() -> None:
    state = game_at("choam_charity", factions={"atreides": {"spice": 0}})
    state.apply(SetStorm(11))
    snap = state.snapshot()
    assert Snapshot.from_dict(snap.to_dict()).storm_sector == 11


def test_set_up_placements_and_phase_starts_have_kinds_of_their_own() -> None:
    assert EVENT_TYPES["forces_placed"] is ForcesPlaced
    assert EVENT_TYPES["forces_set_up"] is ForcesSetUp
    assert EVENT_TYPES["phase_began"] is PhaseBegan
    assert "phase_started" not in EVENT_TYPES  # the store's log event (bot.store.events)
