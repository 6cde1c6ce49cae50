"""Whole-game speed: random games of six factions played by random legal actions.

Each game starts from a seed, runs set-up to the end of the last turn, every
choice drawn from the engine's legal actions (the Revival phase too: paid forces,
leaders, the Emperor's payment and Karama, Ghola; the battles: plans, traitors,
cards kept, captures), and is then replayed from its seed and action log.
Prints one JSON object on its last line: games_per_s, action_ms_median,
action_ms_p99, replay_ms_median, log_bytes_median, battle_ms_median (one battle,
from its plans to its losses: the applies of its plans and traitor answers) and
battles_per_game_median; and the memory a finished game's position holds
(``game_kb_median``, as the bot keeps it: no engine undo, ``limit_undo(0)``;
``game_with_undo_kb_median``, with the engine's default undo history), on 3 games.
Targets (issue 13): action_ms_median <= 0.2, replay_ms_median <= 50; (issue 17)
battle_ms_median <= 1.
"""

from __future__ import annotations

import gc
import json
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the random player in tests/

from rules.actions import Action, Pass, action_from_dict, action_to_dict
from rules.battle.actions import BattlePlan, CallTraitor
from rules.game import GameState
from rules.model import RuleSet
from tests.rules.random_play import SIX, choose

GAMES = 30
MEMORY_GAMES = 3


RESOLVED = frozenset({"battle_won", "lasgun_shield", "forces_lost"})


def play_one(seed: int) -> tuple[list[float], list[Action], float, list[float]]:
    """Play a game; the apply times (ms), the log, the whole game's wall time (s) and each
    battle's time (ms) from its plans to its losses."""
    rules = RuleSet(advanced=bool(seed % 2))
    started = time.perf_counter()
    state = GameState.new_game(SIX, seed=seed, rules=rules)
    rng = random.Random(seed)
    times: list[float] = []
    log: list[Action] = []
    battles: list[float] = []
    battle = 0.0
    while (action := choose(state, rng)) is not None:
        in_battle = isinstance(action, BattlePlan | CallTraitor) or (
            isinstance(action, Pass) and state.whole.step == "traitor_calls"
        )
        t0 = time.perf_counter()
        events = state.apply(action)
        elapsed = (time.perf_counter() - t0) * 1000
        times.append(elapsed)
        log.append(action)
        if in_battle:
            battle += elapsed
            if any(e.kind in RESOLVED for e in events):
                battles.append(battle)
                battle = 0.0
    return times, log, time.perf_counter() - started, battles


def replay_ms(seed: int, stored: str) -> float:
    rules = RuleSet(advanced=bool(seed % 2))
    t0 = time.perf_counter()
    state = GameState.new_game(SIX, seed=seed, rules=rules)
    for data in json.loads(stored):
        state.apply(action_from_dict(data))
    return (time.perf_counter() - t0) * 1000


def game_kb(seed: int, stored: str, *, undo: bool) -> float:
    """The memory (KB, tracemalloc) a game's position holds once replayed from ``stored``."""
    gc.collect()
    tracemalloc.start()
    state = GameState.new_game(SIX, seed=seed, rules=RuleSet(advanced=bool(seed % 2)))
    if not undo:
        state.limit_undo(0)
    for data in json.loads(stored):
        state.apply(action_from_dict(data))
    gc.collect()
    held, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del state
    return held / 1024


def main() -> None:
    applies: list[float] = []
    replays: list[float] = []
    sizes: list[int] = []
    wall = 0.0
    battles: list[float] = []
    per_game: list[int] = []
    memory: list[tuple[float, float]] = []
    for seed in range(GAMES):
        times, log, seconds, fought = play_one(seed)
        battles += fought
        per_game.append(len(fought))
        applies += times
        wall += seconds
        stored = json.dumps([action_to_dict(a) for a in log])
        sizes.append(len(stored.encode()))
        replays.append(replay_ms(seed, stored))
        if seed < MEMORY_GAMES:
            memory.append((game_kb(seed, stored, undo=False), game_kb(seed, stored, undo=True)))
    result = {
        "games": GAMES,
        "games_per_s": round(GAMES / wall, 2),
        "actions": len(applies),
        "action_ms_median": round(statistics.median(applies), 4),
        "action_ms_p99": round(sorted(applies)[int(len(applies) * 0.99)], 4),
        "replay_ms_median": round(statistics.median(replays), 2),
        "log_bytes_median": int(statistics.median(sizes)),
        "battle_ms_median": round(statistics.median(battles), 4) if battles else None,
        "battles_per_game_median": statistics.median(per_game),
        "battles": len(battles),
        "game_kb_median": round(statistics.median(kb for kb, _ in memory), 1),
        "game_with_undo_kb_median": round(statistics.median(kb for _, kb in memory), 1),
    }
    print(f"apply: median {result['action_ms_median']} ms (target <= 0.2)")
    print(f"replay: median {result['replay_ms_median']} ms per game (target <= 50)")
    print(f"battle: median {result['battle_ms_median']} ms, plans to losses (target <= 1)")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
