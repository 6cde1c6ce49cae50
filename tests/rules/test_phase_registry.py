"""The registry of the phases: each phase declared once, completely, and each action
type handled by exactly one table, its handler taking that very action."""

from __future__ import annotations

import inspect
import typing
from enum import StrEnum

import pytest

from rules import actions, corrections, machine
from rules.actions import Action, Bribe, KaramaPrevent, Pass, PhaseDone
from rules.bidding.actions import Bid
from rules.errors import NotYourTurnError
from rules.factions import Faction
from rules.game_model import TURN_PHASES, GamePhase, PhaseStep
from rules.phase_spec import Entry, Runs
from rules.phases import REGISTRY, register, rule_of
from tests.rules.game_helpers import game_at

SLOTS = {Pass: "pass_", PhaseDone: "phase_done"}
"""Actions a phase takes through a slot of its own rather than its handlers."""


def concrete_actions() -> list[type[Action]]:
    """Every action class of rules/actions.py that a log can hold."""
    return sorted(set(actions.ACTION_TYPES.values()), key=lambda kind: kind.__name__)


def tables() -> dict[str, typing.Mapping[type[Action], Runs]]:
    found: dict[str, typing.Mapping[type[Action], Runs]] = {
        f"the {phase.value} phase": spec.handlers for phase, spec in REGISTRY.items()
    }
    found["the any-time table"] = machine.ANY_TIME_HANDLERS
    found["the corrections"] = corrections.HANDLERS
    return found


def test_every_phase_but_the_end_has_one_spec_of_its_own() -> None:
    assert set(REGISTRY) == set(GamePhase) - {GamePhase.OVER}
    for phase, spec in REGISTRY.items():
        assert spec.phase is phase
        assert issubclass(spec.steps, StrEnum)
        assert spec.rule == rule_of(phase)
    assert rule_of(GamePhase.OVER) == "1.09"


def test_the_registry_lists_the_phases_in_the_order_of_play() -> None:
    """The machine moves on in the registry's order: set-up, then each turn's phases."""
    assert tuple(REGISTRY) == (GamePhase.SETUP, *TURN_PHASES)


def test_a_phase_registered_twice_is_refused() -> None:
    storm = REGISTRY[GamePhase.STORM]
    with pytest.raises(ValueError, match="storm phase is registered twice"):
        register(storm, REGISTRY[GamePhase.BIDDING], storm)


def test_no_phase_step_is_named_twice_or_clashes_with_the_common_ones() -> None:
    """A phase's own steps are its own: none is "" or "done" (common to every phase)."""
    common = {step.value for step in PhaseStep}
    for spec in REGISTRY.values():
        values = [step.value for step in spec.steps]
        assert not common & set(values), spec.phase
        assert len(values) == len(set(values)), spec.phase


def test_a_phase_declines_only_steps_of_its_own_and_never_a_factions_turn() -> None:
    """A scenario declines the choices asked of several (storm cards, a Nexus, a battle's
    Voice...), never a turn to bid or to ship and move (docs/SCENARIO-FORMAT-2.md)."""
    for spec in REGISTRY.values():
        assert spec.declinable <= {step.value for step in spec.steps}, spec.phase
    assert not REGISTRY[GamePhase.BIDDING].declinable
    assert not REGISTRY[GamePhase.SHIPMENT_MOVEMENT].declinable


def test_every_action_type_is_handled_by_exactly_one_table() -> None:
    """A pass and "phase done" go to the slot of the phase that takes them; a Karama
    against an ability is the Shipment & Movement phase's, or, against a whole turn's ✷
    ability, the any-time table's (the machine tells them apart by the ability)."""
    for kind in concrete_actions():
        holders = [name for name, table in tables().items() if kind in table]
        if kind is KaramaPrevent:
            assert holders == ["the shipment_movement phase", "the any-time table"]
        elif kind is PhaseDone:
            assert holders == []
        else:
            assert len(holders) == 1, f"{kind.__name__}: {holders}"


def test_a_pass_and_phase_done_reach_the_phases_that_take_them() -> None:
    takes_pass = {p for p, s in REGISTRY.items() if s.pass_ is not None or Pass in s.handlers}
    takes_done = {p for p, s in REGISTRY.items() if s.phase_done is not None}
    assert takes_pass == {
        GamePhase.STORM,
        GamePhase.SPICE_BLOW,
        GamePhase.CHOAM_CHARITY,
        GamePhase.BIDDING,
        GamePhase.REVIVAL,
        GamePhase.SHIPMENT_MOVEMENT,
        GamePhase.BATTLE,
    }
    assert takes_done == {GamePhase.BIDDING, GamePhase.REVIVAL, GamePhase.BATTLE}
    for spec in REGISTRY.values():
        for kind, slot in SLOTS.items():
            taken = spec.handler(_sample(kind)) is not None
            assert taken == (getattr(spec, slot) is not None or kind in spec.handlers)


def _sample(kind: type[Action]) -> Action:
    return actions.action_from_dict({"action": kind.name, **_sample_fields(kind)})


def _sample_fields(kind: type[Action]) -> dict[str, object]:
    return {"faction": "atreides"} if issubclass(kind, actions.FactionAction) else {}


def test_each_handler_takes_the_action_it_is_registered_for() -> None:
    """The typed map: each entry's key is its action type, and its handler's second
    parameter is annotated with that very type."""
    for name, table in tables().items():
        for kind, entry in table.items():
            assert isinstance(entry, Entry), name
            assert entry.kind is kind, name
            handler = entry.handler
            target = inspect.unwrap(handler)
            hints = typing.get_type_hints(target)
            second = list(inspect.signature(target).parameters)[1]
            assert hints[second] is kind, f"{name}: {kind.__name__} -> {target.__qualname__}"


def test_an_entry_refuses_an_action_of_another_type() -> None:
    entry = machine.ANY_TIME_HANDLERS[Bribe]
    with pytest.raises(TypeError, match="pass is not a Bribe"):
        entry.run(game_at("storm"), Pass(Faction.ATREIDES))


def test_a_phase_refuses_an_action_of_another_phase_citing_its_own_rule() -> None:
    """Through the engine: the phase's spec says what it takes, its rule is cited."""
    state = game_at("choam_charity")
    assert state.whole.waiting  # the charity asks everyone alike
    before = state.to_dict()
    with pytest.raises(NotYourTurnError) as refused:
        state.apply(Bid(Faction.ATREIDES, 1))
    assert refused.value.rule == "1.03"
    assert "bid is not an action of the CHOAM charity phase (turn 2)" in str(refused.value)
    assert state.to_dict() == before


def test_a_phases_any_time_actions_reach_the_machine_and_the_legal_actions() -> None:
    """The Tleilaxu Ghola is the Revival phase's, played in any phase: its spec declares
    it, the machine's any-time table runs it and the legal actions offer it, neither
    naming the phase; a Karama against an alliance asks every phase what it stops."""
    from rules.actions import PlayGhola

    declared = {kind: phase for phase, spec in REGISTRY.items() for kind in spec.any_time}
    assert declared == {PlayGhola: GamePhase.REVIVAL}
    assert machine.ANY_TIME_HANDLERS[PlayGhola] is REGISTRY[GamePhase.REVIVAL].any_time[PlayGhola]
    assert [p for p, spec in REGISTRY.items() if spec.prevented is not None] == [GamePhase.REVIVAL]
    state = game_at(
        "shipment_movement",
        factions={"atreides": {"cards": ["Tleilaxu Ghola"], "tanks": 4}},
    )
    offered = REGISTRY[GamePhase.REVIVAL].any_time_offers(state, Faction.ATREIDES)
    assert PlayGhola(Faction.ATREIDES, 4, 0) in offered
    assert PlayGhola(Faction.ATREIDES, 4, 0) in state.legal_actions(Faction.ATREIDES)
