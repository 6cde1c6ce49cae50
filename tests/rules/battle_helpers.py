"""Battles for tests: a position at the start of the Battle phase, and plans played out."""

from __future__ import annotations

from typing import Any

from rules.battle.model import BATTLE
from rules.events import Event
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from tests.rules.game_helpers import game_at
from tests.rules.helpers import act

F = Faction
DUEL_SEATS = ["harkonnen", None, None, None, "emperor", None]


def at_battle(**fields: Any) -> GameState:
    """A game at the start of turn 2's Battle phase that stops before Spice Collection."""
    fields.setdefault("halt", (fields.get("turn", 2), GamePhase.SPICE_COLLECTION))
    return game_at("battle", **fields)


def duel(
    harkonnen: dict[str, Any] | None = None,
    emperor: dict[str, Any] | None = None,
    *,
    forces: tuple[int, int] = (5, 3),
    **fields: Any,
) -> GameState:
    """Harkonnen (aggressor, first in storm order) against the Emperor in Carthag."""
    return at_battle(
        seats=fields.pop("seats", DUEL_SEATS),
        factions={"harkonnen": harkonnen or {}, "emperor": emperor or {}},
        board=[
            ("harkonnen", "Carthag", 10, forces[0]),
            ("emperor", "Carthag", 10, forces[1]),
            *fields.pop("board", []),
        ],
        **fields,
    )


def plan(
    state: GameState, faction: str, leader: str | None, number: float, **fields: Any
) -> list[Event]:
    territory = BATTLE.of(state.whole).territory if BATTLE.of(state.whole) else "Carthag"
    return act(
        state, faction, "battle_plan", territory=territory, leader=leader, number=number, **fields
    )


def no_calls(state: GameState, *calling: str) -> list[Event]:
    """Answer the traitor question: ``calling`` call, everyone else asked passes."""
    events: list[Event] = []
    if state.whole.step != "traitor_calls":
        return events
    for faction in list(state.whole.waiting):
        name = faction.value
        events += act(state, name, "call_traitor" if name in calling else "pass")
    return events


def fight(
    state: GameState,
    first: tuple[str, str | None, float, dict[str, Any]],
    second: tuple[str, str | None, float, dict[str, Any]],
    *calling: str,
) -> list[Event]:
    """Both plans, then the traitor question answered (``calling`` call)."""
    events = plan(state, first[0], first[1], first[2], **first[3])
    events += plan(state, second[0], second[1], second[2], **second[3])
    return events + no_calls(state, *calling)


def of(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [e.to_dict() for e in events if e.kind == kind]


def tanks(state: GameState, faction: str) -> tuple[str, ...]:
    return state.whole.leaders_tanks.get(F(faction), ())
