"""Scripted Shipment & Movement phases for the store's tests and benchmark.

``random_phase(seed)`` plays a phase from a six-faction start position by picking random
legal-looking actions (ship, move, Hajr, Guild timing, pass) and keeps the accepted ones, so
the script replays exactly from :func:`start_position`. The same seed gives the same script.
"""

from __future__ import annotations

import random
from typing import Any

from rules.actions import Action, action_from_dict, action_to_dict
from rules.errors import RulesError
from rules.factions import Faction
from rules.game import GameState
from rules.scenario import load_scenario

SIX = ["atreides", "emperor", "harkonnen", "fremen", "spacing_guild", "bene_gesserit"]
BOARD = [
    {"faction": "atreides", "territory": "Arrakeen", "sector": 9, "forces": 10},
    {"faction": "harkonnen", "territory": "Carthag", "sector": 10, "forces": 10},
    {"faction": "fremen", "territory": "False Wall South", "sector": 4, "forces": 5},
    {"faction": "spacing_guild", "territory": "Tuek's Sietch", "sector": 4, "forces": 5},
    {"faction": "bene_gesserit", "territory": "Polar Sink", "forces": 1, "advisors": True},
]


def scenario(actions: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A ``dune-scenario/1`` file: six factions, each with Hajr and spice to ship."""
    return {
        "format": "dune-scenario/1",
        "storm_sector": 18,
        "seats": SIX,
        "factions": {
            f: {
                "spice": 15,
                "reserves": 10,
                "special_reserves": 2 if f in ("emperor", "fremen") else 0,  # the starred ones
                "cards": ["Hajr"],
            }
            for f in SIX
        },
        "board": BOARD,
        "actions": actions or [],
    }


def start_position() -> GameState:
    return load_scenario(scenario()).initial_state()


def random_phase(seed: int, max_actions: int = 200) -> list[dict[str, Any]]:
    """The accepted actions of one randomly played phase (scenario-format dicts)."""
    rng = random.Random(seed)
    state = start_position()
    script: list[dict[str, Any]] = []
    while not state.is_complete and len(script) < max_actions:
        action = _accepted(state, rng)
        script.append(action_to_dict(action))
    return script


def _accepted(state: GameState, rng: random.Random) -> Action:
    """Apply and return a random action the engine accepts (falls back to pass)."""
    for candidate in (*_candidates(state, rng), *_passes(state)):
        try:
            state.apply(candidate)
        except RulesError:
            continue
        return candidate
    raise AssertionError(f"no action is accepted in {state.to_dict()}")


def _candidates(state: GameState, rng: random.Random) -> list[Action]:
    faction = state.to_act()
    if faction is None:
        return []
    names = list(state.legal_actions(faction).kinds())
    tries = [_try(state, faction, name, rng) for name in rng.sample(names, len(names))]
    return [a for a in tries if a is not None and rng.random() < 0.8]


def _passes(state: GameState) -> list[Action]:
    declines = [
        _parse(f, "decline", prompt=p.kind.value)
        for p in state.open_prompts()
        for f in p.waiting_on()
    ]
    faction = state.to_act()
    return [*declines, *([_parse(faction, "pass")] if faction is not None else [])]


def _try(state: GameState, faction: Faction, name: str, rng: random.Random) -> Action | None:
    if name == "ship":
        return _ship(state, faction, rng)
    if name == "move":
        return _move(state, faction, rng)
    if name in ("hajr", "guild_now", "guild_delay"):
        return _parse(faction, name)
    return None


def _ship(state: GameState, faction: Faction, rng: random.Random) -> Action | None:
    reserves = state.factions[faction].reserves
    if reserves == 0:
        return None
    forces = rng.randint(1, min(reserves, 3))
    places = [d for d in state.legal_ship_destinations(faction, forces) if d.affordable]
    if not places:
        return None
    place = rng.choice(places)
    sector = rng.choice(place.sectors)
    return _parse(faction, "ship", to=place.territory, sector=sector, forces=forces)


def _move(state: GameState, faction: Faction, rng: random.Random) -> Action | None:
    groups = [(t, s, st) for (f, t, s), st in state.stacks.items() if f == faction and st.forces]
    if not groups:
        return None
    territory, sector, stack = rng.choice(sorted(groups, key=lambda g: (g[0], g[1] or 0)))
    try:
        places = state.legal_move_destinations(faction, territory, sector)
    except RulesError:
        return None
    if not places:
        return None
    place = rng.choice(places)
    return _parse(
        faction,
        "move",
        **{"from": territory, "from_sector": sector},
        to=place.territory,
        sector=rng.choice(place.sectors),
        forces=rng.randint(1, stack.forces),
    )


def _parse(faction: Faction, name: str, **fields: Any) -> Action:
    return action_from_dict({"faction": faction.value, "action": name, **fields})
