"""A game replays the same in any process: a restarted bot (or another shard) replays the
action log in a new interpreter, whose string hashing (and so the order of any set of
names) differs. Two processes with different hash seeds must play the same random games to
the same actions and the same final state."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PLAY = """
import hashlib, json, random
from rules.actions import action_to_dict
from rules.game import GameState
from tests.rules.random_play import choose, random_rules, random_seats

for seed in range(6):
    rng = random.Random(seed)
    state = GameState.new_game(random_seats(rng), seed=seed, rules=random_rules(rng))
    log = []
    while len(log) < 3000 and (action := choose(state, rng)) is not None:
        state.apply(action)
        log.append(action_to_dict(action))
    played = json.dumps([log, state.to_dict()], sort_keys=True, default=str)
    print(seed, len(log), hashlib.sha256(played.encode()).hexdigest())
"""


def played(hash_seed: str) -> list[str]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", PLAY], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.splitlines()


def test_random_games_play_the_same_whatever_the_hash_seed() -> None:
    first, second = played("1"), played("2")
    assert len(first) == 6 and all(int(line.split()[1]) > 0 for line in first)
    assert first == second
