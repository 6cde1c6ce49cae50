"""Rules engine speed: validate+apply per action, and legal move destinations.

Runs with the storm in every sector. Prints one JSON object on its last line:
apply_ms_median, apply_ms_p99, destinations_ms_median, destinations_ms_p99.
Targets (issue 2): apply <= 0.2 ms, destinations <= 1 ms.
"""

from __future__ import annotations

import contextlib
import json
import statistics
import time

from rules.actions import Action, Move, Pass, Ship
from rules.errors import RulesError
from rules.factions import Faction
from rules.game import GameState
from rules.scenario import load_scenario

SEATS = ["atreides", "emperor", "harkonnen", "fremen", "spacing_guild", "bene_gesserit"]
BOARD = [
    ("atreides", "Arrakeen", 9, 6),
    ("atreides", "Imperial Basin", 8, 3),
    ("atreides", "South Mesa", 4, 2),
    ("emperor", "Tsimpo", 11, 4),
    ("emperor", "Plastic Basin", 12, 3),
    ("harkonnen", "Carthag", 10, 8),
    ("harkonnen", "Cielago North", 2, 3),
    ("harkonnen", "Old Gap", 9, 2),
    ("fremen", "Sietch Tabr", 13, 6),
    ("fremen", "False Wall West", 16, 3),
    ("fremen", "Wind Pass", 15, 2),
    ("spacing_guild", "Tuek's Sietch", 4, 5),
    ("spacing_guild", "Pasty Mesa", 6, 2),
    ("bene_gesserit", "Polar Sink", None, 3),
    ("bene_gesserit", "Habbanya Ridge Flat", 17, 2),
]

# 10 in reserve, or fewer where the board holds more than 10 of the faction's 20 forces.
RESERVES = {f: min(10, 20 - sum(n for g, _, _, n in BOARD if g == f)) for f in SEATS}


def busy_position(storm: int) -> GameState:
    data = {
        "format": "dune-scenario/1",
        "storm_sector": storm,
        "seats": SEATS,
        "factions": {f: {"spice": 30, "reserves": RESERVES[f], "cards": ["Hajr"]} for f in SEATS},
        "board": [
            {"faction": f, "territory": t, "sector": s, "forces": n}
            for f, t, s, n in BOARD
            if s != storm
        ],
    }
    return load_scenario(data).initial_state()


def candidate_actions(state: GameState) -> list[Action]:
    faction = state.to_act()
    assert faction is not None
    actions: list[Action] = [Pass(faction)]
    for dest in state.legal_ship_destinations(faction, 2)[:6]:
        actions.append(Ship(faction, dest.territory, dest.sectors[0], 2))
    for (f, t, s), stack in list(state.stacks.items()):
        if f is faction and stack.fighters:
            for dest in state.legal_move_destinations(faction, t, s)[:4]:
                actions.append(Move(faction, t, s, dest.territory, dest.sectors[0], 1))
    return actions


def time_applies() -> list[float]:
    samples = []
    for storm in range(1, 19):
        state = busy_position(storm)
        for action in candidate_actions(state):
            for _ in range(20):
                start = time.perf_counter()
                try:
                    state.apply(action)
                    accepted = True
                except RulesError:
                    accepted = False
                samples.append((time.perf_counter() - start) * 1000)
                if accepted:
                    state.undo()
    return samples


def time_destinations() -> list[float]:
    samples = []
    for storm in range(1, 19):
        state = busy_position(storm)
        for (faction, territory, sector), _ in list(state.stacks.items()):
            for _ in range(10):
                start = time.perf_counter()
                with contextlib.suppress(RulesError):
                    state.legal_move_destinations(faction, territory, sector)
                samples.append((time.perf_counter() - start) * 1000)
    return samples


def p99(samples: list[float]) -> float:
    return sorted(samples)[int(len(samples) * 0.99)]


def main() -> None:
    applies = time_applies()
    destinations = time_destinations()
    result = {
        "apply_ms_median": round(statistics.median(applies), 4),
        "apply_ms_p99": round(p99(applies), 4),
        "apply_samples": len(applies),
        "destinations_ms_median": round(statistics.median(destinations), 4),
        "destinations_ms_p99": round(p99(destinations), 4),
        "destinations_samples": len(destinations),
        "storm_sectors": 18,
        "factions": len(Faction),
    }
    print(f"validate+apply: median {result['apply_ms_median']} ms (target <= 0.2)")
    print(f"move destinations: median {result['destinations_ms_median']} ms (target <= 1)")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
