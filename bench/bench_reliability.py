"""Reliability benchmark: ``/profile`` of a player who sat in every one of 1,000 games.

Run ``.venv/bin/python bench/bench_reliability.py [--games 1000] [--actions 400]
[--backend both]``. Each finished game has six seats (the measured player holds one, and
is re-seated away in every tenth game) and ``--actions`` log entries: each faction's
actions in turn, one in twenty the bot's default at a deadline. The rows are written in
bulk (the figures measure reading, not writing). Progress goes to stderr; the last line of
stdout is one JSON object, each backend's figures under its name:

- ``profile_s``: ``bot.seats.reliability.reliability`` (two queries and one pass in Python), the
  best of three.
- ``entries``: the log entries read.

Target (issue 25): ``profile_s <= 2`` on each backend, within Discord's deferred answer.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.seats.reliability import reliability  # noqa: E402
from bot.store import Store  # noqa: E402
from rules.factions import Faction  # noqa: E402
from tests.bot.phase_script import start_position  # noqa: E402
from tests.pg_server import PostgresServer, UnavailableError  # noqa: E402

GUILD = 77
PLAYER = 1000
TARGET_S = 2.0
T0 = datetime.now(UTC) + timedelta(hours=1)  # the games are played after their seating


def rows(game_id: int, actions: int) -> list[tuple[Any, ...]]:
    """The action_log rows of one game after its start entry."""
    out = []
    factions = list(Faction)
    for n in range(actions):
        faction = factions[n % 6]
        deadline = n % 20 == 19
        actor = 0 if deadline else PLAYER + (n % 6)
        key = f"{game_id}:deadline:{n + 1}" if deadline else f"discord:{game_id}:{n}"
        body = json.dumps({"action": "pass", "faction": faction.value})
        out.append((game_id, n + 2, "action", None, actor, body, "[]", key, when(game_id, n)))
    return out


def when(game_id: int, n: int) -> str:
    return (T0 + timedelta(minutes=game_id * 10_000 + n * 7)).isoformat()


def abandons(ids: list[int], actions: int) -> list[tuple[Any, ...]]:
    """Every tenth game, the measured player's seat passes to another mid-game."""
    return [
        (g, Faction.ATREIDES.value, PLAYER + 99, when(g, actions // 2))
        for n, g in enumerate(ids)
        if n % 10 == 9
    ]


HISTORY = "INSERT INTO seat_history (game_id, faction, user_id, since) VALUES ({})"


async def populate(store: Store, games: int) -> list[int]:
    """Create the games (through the store) and seat the players; returns their ids."""
    ids = []
    start = start_position()
    for n in range(games):
        game_id = await store.create_game(GUILD, start)
        for k, faction in enumerate(Faction):
            await store.seat(game_id, PLAYER + k, faction)
        await store.finish_game(game_id)
        ids.append(game_id)
        if n % 100 == 99:
            print(f"  {n + 1} games", file=sys.stderr)
    return ids


INSERT = (
    "INSERT INTO action_log (game_id, seq, kind, target, actor, body, events, idem_key,"
    " created_at) VALUES ({})"
)


async def measure(store: Store) -> dict[str, Any]:
    best = float("inf")
    for _ in range(3):
        began = time.perf_counter()
        record = await reliability(store, GUILD, PLAYER)
        best = min(best, time.perf_counter() - began)
    return {
        "profile_s": round(best, 3),
        "games_played": record.played,
        "abandoned": record.abandoned,
        "own_entries": record.answered + record.missed,
    }


async def bench_sqlite(folder: Path, games: int, actions: int) -> dict[str, Any]:
    path = folder / "reliability.db"
    store = await Store.open(path)
    ids = await populate(store, games)
    await store.close()
    with sqlite3.connect(path) as db:
        db.executemany(
            INSERT.format(", ".join("?" * 9)), [r for g in ids for r in rows(g, actions)]
        )
        db.executemany(HISTORY.format("?, ?, ?, ?"), abandons(ids, actions))
    db.close()
    store = await Store.open(path)
    try:
        return await measure(store)
    finally:
        await store.close()


async def bench_postgres(server: PostgresServer, games: int, actions: int) -> dict[str, Any]:
    url = await server.create_database()
    store = await Store.open(url)
    try:
        ids = await populate(store, games)
        connection = await asyncpg.connect(url)
        marks = ", ".join(f"${n}" for n in range(1, 10))
        await connection.executemany(
            INSERT.format(marks), [r for g in ids for r in rows(g, actions)]
        )
        await connection.executemany(HISTORY.format("$1, $2, $3, $4"), abandons(ids, actions))
        await connection.close()
        return await measure(store)
    finally:
        await store.close()
        await server.drop_database(url)


async def main(games: int, actions: int, backend: str) -> dict[str, Any]:
    results: dict[str, Any] = {"target_profile_s": TARGET_S, "games": games, "actions": actions}
    with tempfile.TemporaryDirectory(prefix="mentat-bench-") as tmp:
        if backend in ("sqlite", "both"):
            print("sqlite:", file=sys.stderr)
            results["sqlite"] = await bench_sqlite(Path(tmp), games, actions)
        if backend in ("postgres", "both"):
            try:
                server = PostgresServer.start()
            except UnavailableError as error:
                results["postgres"] = f"left out: {error}"
                return results
            try:
                print("postgres:", file=sys.stderr)
                results["postgres"] = await bench_postgres(server, games, actions)
            finally:
                server.stop()
    return results


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--actions", type=int, default=400)
    parser.add_argument("--backend", choices=("sqlite", "postgres", "both"), default="both")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(main(args.games, args.actions, args.backend))))
