"""Whole-game speed: random games of six factions played by random legal actions.

Each game starts from a seed, runs set-up to the end of the last turn, every
choice drawn from the engine's legal actions (the Revival phase too: paid forces,
leaders, the Emperor's payment and Karama, Ghola; the phases the moderator still
records get random records), and is then replayed from its seed and action log.
Prints one JSON object on its last line: games_per_s, action_ms_median,
action_ms_p99, replay_ms_median, log_bytes_median.
Targets (issue 13): action_ms_median <= 0.2, replay_ms_median <= 50.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the random player in tests/

from rules.actions import Action, action_from_dict, action_to_dict
from rules.game import GameState
from rules.model import RuleSet
from tests.rules.random_play import SIX, choose

GAMES = 30


def play_one(seed: int) -> tuple[list[float], list[Action], float]:
    """Play a game; the apply times (ms), the log and the whole game's wall time (s)."""
    rules = RuleSet(advanced=bool(seed % 2))
    started = time.perf_counter()
    state = GameState.new_game(SIX, seed=seed, rules=rules)
    rng = random.Random(seed)
    times: list[float] = []
    log: list[Action] = []
    while (action := choose(state, rng)) is not None:
        t0 = time.perf_counter()
        state.apply(action)
        times.append((time.perf_counter() - t0) * 1000)
        log.append(action)
    return times, log, time.perf_counter() - started


def replay_ms(seed: int, stored: str) -> float:
    rules = RuleSet(advanced=bool(seed % 2))
    t0 = time.perf_counter()
    state = GameState.new_game(SIX, seed=seed, rules=rules)
    for data in json.loads(stored):
        state.apply(action_from_dict(data))
    return (time.perf_counter() - t0) * 1000


def main() -> None:
    applies: list[float] = []
    replays: list[float] = []
    sizes: list[int] = []
    wall = 0.0
    for seed in range(GAMES):
        times, log, seconds = play_one(seed)
        applies += times
        wall += seconds
        stored = json.dumps([action_to_dict(a) for a in log])
        sizes.append(len(stored.encode()))
        replays.append(replay_ms(seed, stored))
    result = {
        "games": GAMES,
        "games_per_s": round(GAMES / wall, 2),
        "actions": len(applies),
        "action_ms_median": round(statistics.median(applies), 4),
        "action_ms_p99": round(sorted(applies)[int(len(applies) * 0.99)], 4),
        "replay_ms_median": round(statistics.median(replays), 2),
        "log_bytes_median": int(statistics.median(sizes)),
    }
    print(f"apply: median {result['action_ms_median']} ms (target <= 0.2)")
    print(f"replay: median {result['replay_ms_median']} ms per game (target <= 50)")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
