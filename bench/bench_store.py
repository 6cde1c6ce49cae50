"""Store benchmark: latency of appending one action, and start-up load of many games.

Run ``.venv/bin/python bench/bench_store.py [--games 1000] [--actions 60] [--backend both]``.
``--backend`` is ``sqlite`` (a file in a temporary folder), ``postgres`` (a throw-away local
server started for the run with fsync on, ``tests/pg_server.py``) or ``both`` (the default:
the two in the same run; PostgreSQL is left out, with the reason, when it is not installed).
Progress goes to stderr; the last line of stdout is one JSON object, the figures of each
backend under its name:

- ``append_ms_p50`` / ``append_ms_p99``: one ``Ledger.submit`` (rules check, log row, a snapshot
  every ``snapshot_every`` actions, commit with ``synchronous=FULL``), sequential.
- ``load_1000_games_s``: ``Ledger.open_active()`` of a fresh store after the writer was stopped
  without its closing checkpoint (as after a crash: up to ``snapshot_every - 1`` actions to
  replay per game). ``load_1000_games_after_clean_shutdown_s``: the same after a clean close
  (``Ledger.checkpoint_all``, then ``Store.close``).

Each game holds ``--actions`` accepted actions: random phases of the six factions chained with
``start_phase``, and one undo and redo by a moderator.

Targets (issue 14): ``append_ms_p99 <= 10`` and ``load_1000_games_s <= 2`` on each backend.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.ledger import Ledger  # noqa: E402
from bot.store import DEFAULT_SNAPSHOT_EVERY, Store  # noqa: E402
from rules.actions import action_from_dict  # noqa: E402
from tests.bot.phase_script import random_phase, start_position  # noqa: E402
from tests.pg_server import PostgresServer, UnavailableError  # noqa: E402

MODERATOR = 1
PLAYER = 2
PHASES = 12  # distinct random phases the games are built from
WRITERS = 16  # games populated concurrently
TARGET_APPEND_P99_MS = 10.0
TARGET_LOAD_S = 2.0


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


async def fill_game(game: Ledger, phases: list[list[dict[str, Any]]], n: int) -> None:
    """Submit ``n`` actions to ``game``, starting a new phase whenever one runs out."""
    done = 0
    for index, phase in enumerate(phases):
        if index:
            await game.start_phase(MODERATOR, start_position(), f"phase{index}")
        for action in phase[: n - done]:
            await game.submit(action_from_dict(action), actor=PLAYER, key=f"a{done}")
            done += 1
        if done == n:
            break
    await game.undo(MODERATOR, "undo")
    await game.redo(MODERATOR, "redo")


def phases_for(game: int, pool: list[list[dict[str, Any]]], n: int) -> list[list[dict[str, Any]]]:
    """Enough phases from the pool to hold ``n`` actions."""
    chosen: list[list[dict[str, Any]]] = []
    while sum(len(p) for p in chosen) < n:
        chosen.append(pool[(game + len(chosen)) % len(pool)])
    return chosen


async def bench_append(
    path: Path | str, pool: list[list[dict[str, Any]]], count: int
) -> list[float]:
    """Milliseconds per submit, sequential, over games of the pool's phases."""
    times: list[float] = []
    async with await Store.open(path) as store:
        while len(times) < count:
            game_id = await store.create_game(1, start_position(), moderators=[MODERATOR])
            game = await Ledger.open(store, game_id)
            for i, raw in enumerate(pool[game_id % len(pool)]):
                action = action_from_dict(raw)
                started = time.perf_counter()
                await game.submit(action, actor=PLAYER, key=f"k{i}")
                times.append((time.perf_counter() - started) * 1000)
    return times


async def populate(path: Path | str, pool: list[list[dict[str, Any]]], games: int, n: int) -> None:
    store = await Store.open(path)
    try:
        queue = list(range(games))

        async def writer() -> None:
            while queue:
                index = queue.pop()
                game_id = await store.create_game(index % 50, start_position(), moderators=[1])
                await fill_game(await Ledger.open(store, game_id), phases_for(index, pool, n), n)

        await asyncio.gather(*(writer() for _ in range(WRITERS)))
    finally:
        await store.close()  # as if killed: no closing snapshots


async def bench_load(path: Path | str, *, checkpoint: bool) -> tuple[float, int]:
    store = await Store.open(path)
    loaded: list[Ledger] = []
    try:
        started = time.perf_counter()
        loaded = await Ledger.open_active(store)
        return time.perf_counter() - started, len(loaded)
    finally:
        if checkpoint:
            await Ledger.checkpoint_all(store, loaded)
        await store.close()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def bench_backend(
    where: Places, pool: list[list[dict[str, Any]]], games: int, actions: int, appends: int
) -> dict[str, Any]:
    progress(f"{where.name}: append: {appends} sequential submits")
    times = await bench_append(await where.database("append"), pool, appends)
    load = await where.database("load")
    progress(f"{where.name}: populate: {games} games x {actions} actions")
    started = time.perf_counter()
    await populate(load, pool, games, actions)
    progress(f"{where.name}: populated in {time.perf_counter() - started:.1f} s; loading")
    crash_s, loaded = await bench_load(load, checkpoint=True)
    clean_s, _ = await bench_load(load, checkpoint=False)
    size_mb = await where.size_mb(load)
    assert loaded == games, f"loaded {loaded} of {games} games"
    p99, load_s = percentile(times, 0.99), crash_s * 1000 / games
    return {
        "append_ms_p50": round(percentile(times, 0.50), 3),
        "append_ms_p99": round(p99, 3),
        "append_ms_max": round(max(times), 3),
        "appends": len(times),
        "games": games,
        "actions_per_game": actions,
        "snapshot_every": DEFAULT_SNAPSHOT_EVERY,
        "db_mb": round(size_mb, 1),
        "load_1000_games_s": round(load_s, 3),
        "load_1000_games_after_clean_shutdown_s": round(clean_s * 1000 / games, 3),
        "targets_met": p99 <= TARGET_APPEND_P99_MS and load_s <= TARGET_LOAD_S,
    }


class Places:
    """Where one backend's databases go: files in a folder, or databases on a server."""

    def __init__(self, name: str, folder: Path, server: PostgresServer | None) -> None:
        self.name = name
        self.folder = folder
        self.server = server

    async def database(self, label: str) -> Path | str:
        if self.server is None:
            return self.folder / f"{label}.db"
        return await self.server.create_database(label)

    async def size_mb(self, database: Path | str) -> float:
        if isinstance(database, Path):
            return sum(f.stat().st_size for f in self.folder.glob(f"{database.name}*")) / 1e6
        db = await asyncpg.connect(database)
        try:
            size: int = await db.fetchval("SELECT pg_database_size(current_database())")
        finally:
            await db.close()
        return size / 1e6


async def main(games: int, actions: int, appends: int, backend: str) -> dict[str, Any]:
    pool = [random_phase(seed) for seed in range(PHASES)]
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="mentat-bench-") as tmp:
        if backend in ("sqlite", "both"):
            where = Places("sqlite", Path(tmp), None)
            results["sqlite"] = await bench_backend(where, pool, games, actions, appends)
        if backend in ("postgres", "both"):
            try:
                server = PostgresServer.start(durable=True)
            except UnavailableError as error:
                if backend == "postgres":
                    raise
                results["postgres"] = f"left out: {error}"
                return results
            try:
                where = Places("postgres", Path(tmp), server)
                results["postgres"] = await bench_backend(where, pool, games, actions, appends)
            finally:
                server.stop()
    return results


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--actions", type=int, default=60)
    parser.add_argument("--appends", type=int, default=3000)
    parser.add_argument("--backend", choices=("sqlite", "postgres", "both"), default="both")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(main(args.games, args.actions, args.appends, args.backend))))
