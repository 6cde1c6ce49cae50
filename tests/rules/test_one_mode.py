"""One mode: a Shipment & Movement phase played alone is a whole game that starts at that
phase (turn 1, its turns under way) and stops once the phase is done."""

from __future__ import annotations

from rules.actions import Bribe, Pass
from rules.events import PhaseBegan, PhaseComplete
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from rules.shipment_movement import ShipmentMovementStep
from tests.rules.helpers import position

SEATS = ["atreides", "fremen", None, None, None, None]


def test_a_phase_alone_is_turn_one_of_a_game_that_stops_after_it() -> None:
    state = position(seats=SEATS)
    game = state.whole
    assert (game.turn, game.phase, game.step) == (1, GamePhase.SHIPMENT_MOVEMENT, "running")
    assert game.stop_after is GamePhase.SHIPMENT_MOVEMENT and not game.stopped
    assert state.public_view().game.alone and state.public_view().game.turn == 1
    assert game.leaders[Faction.FREMEN][0] == "Stilgar"  # each faction's leaders in its pool
    events: list[object] = []
    while not state.is_complete:
        faction = state.to_act()
        assert faction is not None
        events += state.apply(Pass(faction))
    assert any(isinstance(e, PhaseComplete) for e in events)
    assert not any(isinstance(e, PhaseBegan) for e in events)  # no Battle phase follows
    assert state.whole.stopped and state.whole.step == "done"
    assert state.waiting_on() == ()


def test_a_game_from_set_up_never_stops_after_a_phase() -> None:
    state = GameState.new_game([Faction.ATREIDES, Faction.FREMEN], seed=1)
    assert state.whole.stop_after is None and not state.whole.stopped
    assert not state.public_view().game.alone


def test_the_whole_games_any_time_actions_are_open_in_a_phase_alone() -> None:
    """As in a whole game's Shipment & Movement phase: a bribe (1.12) any time."""
    state = position(seats=SEATS)
    assert Bribe(Faction.FREMEN, "atreides", 2) in state.legal_actions(Faction.FREMEN)
    state.apply(Bribe(Faction.FREMEN, "atreides", 2))
    assert state.whole.bribes == {Faction.ATREIDES: 2}


def test_a_position_written_before_one_mode_is_read_as_a_phase_alone() -> None:
    state = position(seats=SEATS)
    data = state.to_dict()
    assert data["game"]["stop_after"] == "shipment_movement"
    old = {k: v for k, v in data.items() if k != "game"}  # as stored before one mode
    again = GameState.from_dict(old)
    assert again == state and again.to_dict() == data
    assert GameState.from_dict(data).to_dict() == data


def test_the_step_of_a_phase_alone_is_its_phase_modules() -> None:
    assert position(seats=SEATS).whole.step == ShipmentMovementStep.RUNNING
