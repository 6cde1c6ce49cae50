"""Crash test: a scripted phase in a subprocess, killed (SIGKILL) at random points.

For each seed a chain of runs shares one database: every run starts a worker that replays the
whole script (steps already logged must come back as duplicates) and is killed at a random
point (a random delay after its k-th acknowledgement, k beyond the steps already logged), until
a run gets to the end. After every kill the parent reopens the database and checks
that the log is a prefix of the crash-free log (nothing doubled, nothing out of order), that
every step the worker acknowledged is in it (nothing lost) and that the loaded position equals
a clean replay of the committed log. After the last run the log equals the crash-free log.
"""

from __future__ import annotations

import asyncio
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.ledger import Ledger
from bot.store import LogEntry, Store
from rules.actions import action_from_dict
from rules.game import GameState
from tests.bot import crash_worker
from tests.bot.phase_script import start_position

ROOT = Path(__file__).resolve().parents[2]
KILLS_WANTED = 50
LANES = 2  # workers running at once (one per core)


@dataclass(slots=True)
class Tally:
    kills: int = 0
    runs: int = 0
    seeds: list[int] = field(default_factory=list)


async def test_killed_workers_lose_and_double_nothing(tmp_path: Path) -> None:
    rng = random.Random(20_26)
    tally = Tally()
    seeds = iter(range(1_000))
    await asyncio.gather(*(_lane(tmp_path, rng, seeds, tally) for _ in range(LANES)))
    assert tally.kills >= KILLS_WANTED, tally


async def _lane(tmp: Path, rng: random.Random, seeds: Any, tally: Tally) -> None:
    while tally.kills < KILLS_WANTED:
        seed = next(seeds)
        tally.seeds.append(seed)
        await _chain(tmp / f"seed{seed}", seed, rng, tally)


async def _chain(folder: Path, seed: int, rng: random.Random, tally: Tally) -> None:
    """Runs on one database until one completes; checks after every run."""
    folder.mkdir()
    script, script_file = crash_worker.steps(seed), folder / "steps.json"
    crash_worker.save_steps(script_file, script)
    reference = await _reference(folder / "reference.db", script)
    db = folder / "crash.db"
    async with await Store.open(db) as store:
        await store.create_game(1, start_position(), moderators=[crash_worker.MODERATOR])
    logged: set[str] = set()
    while True:
        # Kill somewhere after the steps already logged (they come back quickly as duplicates).
        done = sum(step.key in logged for step in script)
        kill_after = rng.randint(done, len(script) + 2)
        killed, acked = await _run_worker(db, script_file, kill_after, rng.uniform(0, 0.003))
        tally.runs += 1
        tally.kills += killed
        log = await _check_after_restart(db, acked, reference)
        logged = {entry.key for entry in log}
        if not killed:
            assert _shape(log) == _shape(reference)
            return


async def _reference(path: Path, script: list[crash_worker.Step]) -> list[LogEntry]:
    """The crash-free log of ``script``."""
    async with await Store.open(path, snapshot_every=crash_worker.SNAPSHOT_EVERY) as store:
        await store.create_game(1, start_position(), moderators=[crash_worker.MODERATOR])
        await crash_worker.run_steps(store, script)
        return await store.log(crash_worker.GAME)


async def _run_worker(
    db: Path, script: Path, kill_after: int, delay: float
) -> tuple[bool, set[str]]:
    """Run a worker and kill it ``delay`` s after its ``kill_after``-th acknowledgement.

    Returns whether it was killed and the keys it acknowledged.
    """
    worker = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "tests.bot.crash_worker", str(db), str(script)),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert worker.stdout is not None
    lines = [await asyncio.wait_for(worker.stdout.readline(), timeout=60)]
    while lines[-1].startswith((b"ready", b"ack")) and len(lines) <= kill_after:
        lines.append(await worker.stdout.readline())
    await asyncio.sleep(delay)
    killed = lines[-1] != b"done\n" and worker.returncode is None
    if killed:
        worker.kill()
    rest, stderr = await worker.communicate()
    lines += rest.splitlines()
    if killed and worker.returncode == 0 and b"done" in lines:
        killed = False  # under load it finished the script before the kill landed
    assert worker.returncode == (-9 if killed else 0), stderr.decode()
    acked = {line.split()[1].decode() for line in lines if line.startswith(b"ack ")}
    return killed, acked


async def _check_after_restart(
    db: Path, acked: set[str], reference: list[LogEntry]
) -> list[LogEntry]:
    async with await Store.open(db, snapshot_every=crash_worker.SNAPSHOT_EVERY) as store:
        loaded = await Ledger.open(store, crash_worker.GAME)
        log = await store.log(crash_worker.GAME)
    assert _shape(log) == _shape(reference[: len(log)]), "the log is not a prefix of the script"
    assert acked <= {entry.key for entry in log}, "an acknowledged step is not in the log"
    assert loaded.state == clean_replay(log)
    assert loaded.seq == len(log)
    return log


def _shape(log: list[LogEntry]) -> list[tuple[Any, ...]]:
    return [(e.seq, e.kind, e.key, e.body, e.target, e.events) for e in log]


def clean_replay(log: list[LogEntry]) -> GameState:
    """The position of a log, computed here independently of the store's own bookkeeping."""
    effective: list[LogEntry] = []
    undone: list[LogEntry] = []
    start: dict[str, Any] = {}
    for entry in log:
        if entry.kind == "start":
            start, effective, undone = entry.body, [], []
        elif entry.kind == "action":
            effective.append(entry)
            undone.clear()
        elif entry.kind == "undo":
            assert effective[-1].seq == entry.target
            undone.append(effective.pop())
        else:
            assert undone[-1].seq == entry.target
            effective.append(undone.pop())
    state = GameState.from_dict(start)
    for entry in effective:
        state.apply(action_from_dict(entry.body))
    return state
