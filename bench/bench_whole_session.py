"""Whole games through the bot's session (issue 13): every action committed to SQLite.

Run ``.venv/bin/python bench/bench_whole_session.py [--games 3]``.

Each game is created by the application (``Mentat``, a real SQLite file, a fake clock, a
recording publisher, no maps), then played from its set-up to its end by random legal
actions (``tests/rules/random_play.py``): the factions' through ``PhaseSession.submit``, the
moderators' records through ``Mentat.record``. Then the application is restarted and the game
reloaded by replay of its log.

Measured: ``action_ms_median`` and ``action_ms_p99`` (a submit's call to its return: engine,
store commit, announcement built and delivered to the recording publisher), ``actions`` per
game, and ``reload_ms_median`` (a restart's start-up reading and replaying the finished game;
finished games are not loaded, so it is measured on the game one action before its end).
The last line of stdout is one JSON object. Targets: ``action_ms_median <= 20``,
``reload_ms_median <= 500``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the random player in tests/

from bot.app import Mentat, whole_game_start
from bot.clock import FakeClock
from bot.publisher import RecordingPublisher
from bot.settings import GameSettings
from bot.store import Store
from bot.words.refusals import SessionError
from rules.actions import Action, FactionAction, PhaseDone, Record
from rules.game import GameState
from rules.game_model import GamePhase
from tests.rules.random_play import SIX, choose

MODERATOR = 99
WINDOW_S = GameSettings().timing.window.total_seconds() + 1
CHANNELS = {"table": 1, "spectators": 2, "moderators": 3}


async def play_one(path: Path, seed: int, turns: int) -> tuple[list[float], float]:
    """One game to its last action but one, then a restart; (action times ms, reload ms)."""
    store = await Store.open(path)
    clock = FakeClock()
    app = Mentat(store, RecordingPublisher(), clock)
    await app.start()
    start = whole_game_start(SIX, seed=seed, last_turn=turns)
    session = await app.create_game(
        1, start, channels=CHANNELS, settings=GameSettings(maps="never"), moderators=(MODERATOR,)
    )
    rng = random.Random(seed)
    times: list[float] = []
    for n in range(20_000):
        state = session.state
        assert state is not None
        action = _session_choice(state, rng)
        if action is None:
            break
        battle_closed = isinstance(action, PhaseDone) and state.game_phase is GamePhase.BATTLE
        if battle_closed and _last(state, action):  # only then can the game end
            break  # keep the game open, to measure its reload
        began = time.perf_counter()
        if isinstance(action, Record | PhaseDone):
            await app.record(session.game_id, MODERATOR, action, key=f"b{n}")
        else:
            assert isinstance(action, FactionAction)
            try:
                await session.submit(action.faction, action, actor=1, key=f"b{n}")
            except SessionError:  # it has answered the secret window: the window runs its time
                await clock.advance(WINDOW_S, settle=session.next_idle)
                continue
        times.append((time.perf_counter() - began) * 1000)
    await app.stop()
    await store.close()
    began = time.perf_counter()
    store = await Store.open(path)
    again = Mentat(store, RecordingPublisher(), FakeClock())
    await again.start()
    reload_ms = (time.perf_counter() - began) * 1000
    await again.stop()
    await store.close()
    return times, reload_ms


def _session_choice(state: GameState, rng: random.Random) -> Action | None:
    """As a session's players act: while prompts are open, only their answers."""
    if state.game_phase is GamePhase.SHIPMENT_MOVEMENT and state.open_prompts():
        prompt = state.open_prompts()[0]
        faction = rng.choice(list(prompt.waiting_on()))
        return rng.choice(list(state.legal_actions(faction, open_stage_only=True)))
    return choose(state, rng)


def _last(state: object, action: object) -> bool:
    """Would ``action`` end the game? (Tried on a copy.)"""
    assert isinstance(state, GameState)
    trial = GameState.from_dict(state.to_dict())
    trial.apply(action)  # type: ignore[arg-type]
    return trial.game_phase is GamePhase.OVER


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--turns", type=int, default=10, help="the games' last turn")
    args = parser.parse_args()
    games, turns = args.games, args.turns
    all_times: list[float] = []
    reloads: list[float] = []
    counts: list[int] = []
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(games):
            times, reload_ms = await play_one(Path(folder) / f"g{seed}.db", seed, turns)
            all_times += times
            reloads.append(reload_ms)
            counts.append(len(times))
            print(f"game {seed}: {len(times)} actions, reload {reload_ms:.0f} ms", file=sys.stderr)
    all_times.sort()
    result = {
        "games": games,
        "turns": turns,
        "actions_median": statistics.median(counts),
        "action_ms_median": round(statistics.median(all_times), 2),
        "action_ms_p99": round(all_times[int(len(all_times) * 0.99) - 1], 2),
        "reload_ms_median": round(statistics.median(reloads), 1),
    }
    result["targets_met"] = result["action_ms_median"] <= 20 and result["reload_ms_median"] <= 500
    print(json.dumps(result))


if __name__ == "__main__":
    asyncio.run(main())
