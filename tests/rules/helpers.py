"""Build positions for tests from the scenario format (compact and readable)."""

from __future__ import annotations

from typing import Any

from rules.actions import Action, action_from_dict
from rules.events import Event
from rules.game import GameState
from rules.scenario import load_scenario

ALL_SIX = ["atreides", "emperor", "harkonnen", "fremen", "spacing_guild", "bene_gesserit"]


def position(
    *,
    storm: int = 18,
    seats: list[str | None] | None = None,
    factions: dict[str, dict[str, Any]] | None = None,
    board: list[dict[str, Any]] | None = None,
    alliances: list[list[str]] | None = None,
    advanced: bool = True,
    variants: dict[str, Any] | None = None,
) -> GameState:
    """A phase-start position. Factions default to 20 spice and 10 reserves each."""
    seats = seats if seats is not None else ALL_SIX
    setup = {f: {"spice": 20, "reserves": 10} for f in seats if f}
    for name, fields in (factions or {}).items():
        setup[name] = {**setup.get(name, {}), **fields}
    data = {
        "format": "dune-scenario/1",
        "advanced": advanced,
        "variants": variants or {},
        "storm_sector": storm,
        "seats": seats,
        "alliances": alliances or [],
        "factions": setup,
        "board": board or [],
    }
    return load_scenario(data).initial_state()


def act(state: GameState, faction: str, action: str, **fields: Any) -> list[Event]:
    """Apply one action written as in a scenario file."""
    return state.apply(parse(faction, action, **fields))


def parse(faction: str, action: str, **fields: Any) -> Action:
    data = {"faction": faction, "action": action}
    for key, value in fields.items():
        data[key[:-1] if key.endswith("_") else key] = value
    return action_from_dict(data)


def forces(state: GameState, faction: str, territory: str) -> int:
    """Fighters (regular + starred) of ``faction`` in every sector of ``territory``."""
    return sum(
        s.fighters for (f, t, _), s in state.stacks.items() if f == faction and t == territory
    )


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def stack(state: GameState, faction: str, territory: str, sector: int | None) -> tuple[int, ...]:
    from rules.factions import Faction

    s = state.stack(Faction(faction), territory, sector)
    return (s.forces, s.special, s.advisors)
