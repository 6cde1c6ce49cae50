"""The SQLite backend: every game in one file, over one aiosqlite connection.

The only module of the store that speaks SQL. WAL mode, ``synchronous=FULL``; the pending
migrations are applied in one transaction at :meth:`SQLiteBackend.open`. Requests of all
games share the connection, so reads and transactions take turns on one lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

import aiosqlite

from bot.settings import COLUMNS
from bot.store.backend import (
    AnswerRow,
    EntryRow,
    GameRow,
    Header,
    PingMarkRow,
    PingPrefsRow,
    SnapshotRow,
    TenureRow,
)
from bot.store.errors import SchemaError, StoreError, log_conflict
from bot.store.migrations import Migration, pending
from bot.store.shield import completes

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5_000

_GAMES = (
    "SELECT g.id, g.guild_id, g.channels, g.variants, g.status, g.created_at, "
    + ", ".join(f"s.{c}" for c in COLUMNS)
    + " FROM games AS g JOIN game_settings AS s ON s.game_id = g.id"
)
_ENTRIES = (
    "SELECT seq, kind, actor, idem_key, body, target, events, created_at FROM action_log"
    " WHERE game_id = ?"
)
_SET_SETTINGS = (
    "UPDATE game_settings SET " + ", ".join(f"{c} = ?" for c in COLUMNS) + " WHERE game_id = ?"
)
_INSERT_SETTINGS = (
    f"INSERT INTO game_settings (game_id, {', '.join(COLUMNS)})"
    f" VALUES (?, {', '.join('?' * len(COLUMNS))})"
)
_SET_VOLUNTEERS = (
    "INSERT INTO servers (guild_id, volunteers_channel) VALUES ({p1}, {p2})"
    " ON CONFLICT (guild_id) DO UPDATE SET volunteers_channel = excluded.volunteers_channel"
)
_PING_PREFS = (
    "SELECT user_id, quiet_start, quiet_end, quiet_zone, interval_minutes, before_me, digest,"
    " dm_closed FROM ping_prefs WHERE guild_id = {p1} ORDER BY user_id"
)
_SET_PING_PREFS = (
    "INSERT INTO ping_prefs (guild_id, user_id, quiet_start, quiet_end, quiet_zone,"
    " interval_minutes, before_me, digest, dm_closed)"
    " VALUES ({p1}, {p2}, {p3}, {p4}, {p5}, {p6}, {p7}, {p8}, {p9})"
    " ON CONFLICT (guild_id, user_id) DO UPDATE SET quiet_start = excluded.quiet_start,"
    " quiet_end = excluded.quiet_end, quiet_zone = excluded.quiet_zone,"
    " interval_minutes = excluded.interval_minutes, before_me = excluded.before_me,"
    " digest = excluded.digest, dm_closed = excluded.dm_closed"
)
_PING_MARKS = "SELECT user_id, kind, key, at FROM ping_marks WHERE game_id = {p1} ORDER BY user_id"
_SET_PING_MARK = (
    "INSERT INTO ping_marks (game_id, user_id, kind, key, at) VALUES ({p1}, {p2}, {p3}, {p4}, {p5})"
    " ON CONFLICT (game_id, user_id, kind) DO UPDATE SET key = excluded.key, at = excluded.at"
)
_TENURES = (
    "SELECT h.game_id, h.faction, h.user_id, h.since, h.turn FROM seat_history AS h"
    " JOIN games AS g ON g.id = h.game_id"
    " WHERE h.game_id IN (SELECT game_id FROM seat_history WHERE user_id = {p1})"
    " AND g.guild_id = {p2} ORDER BY h.game_id, h.faction, h.id"
)
_ANSWERS = (
    "SELECT game_id, seq, actor, idem_key, json_extract(body, '$.faction'), created_at, previous"
    " FROM (SELECT game_id, seq, kind, actor, idem_key, created_at,"
    " CASE WHEN kind = 'action' THEN body END AS body,"
    " LAG(created_at) OVER (PARTITION BY game_id ORDER BY seq) AS previous"
    " FROM action_log WHERE game_id IN ({ids}))"
    " WHERE kind = 'action' AND (actor = ? OR (actor = 0 AND idem_key LIKE '%:deadline:%'))"
    " ORDER BY game_id, seq"
)
_FIRST_ACTIONS = (
    "SELECT game_id, created_at FROM action_log AS a WHERE game_id IN ({ids}) AND seq ="
    " (SELECT min(seq) FROM action_log AS b WHERE b.game_id = a.game_id AND b.kind = 'action')"
)
_INSERT_SNAPSHOT = (
    "INSERT OR IGNORE INTO snapshots (game_id, head_seq, state, state_hash, created_at)"
    " VALUES (?, ?, ?, ?, ?)"
)


class SQLiteBackend:
    """See :class:`bot.store.backend.Backend`."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        self._lock = asyncio.Lock()
        self._closed = False

    @classmethod
    async def open(
        cls, path: str | os.PathLike[str], migrations: Sequence[Migration]
    ) -> SQLiteBackend:
        """Open (creating if needed) the file and apply the pending ``migrations``."""
        db = await aiosqlite.connect(os.fspath(path), isolation_level=None)
        try:
            await _configure(db)
            await _migrate(db, migrations)
        except BaseException:
            await db.close()
            raise
        return cls(db)

    async def close(self) -> None:
        """Close the connection (idempotent)."""
        if not self._closed:
            self._closed = True
            await self._db.close()

    # -- games ----------------------------------------------------------------------

    @completes
    async def create_game(
        self, game: GameRow, start: EntryRow, snapshot: SnapshotRow, moderators: Sequence[int]
    ) -> int:
        async with self._transaction() as db:
            cursor = await db.execute(
                "INSERT INTO games (guild_id, channels, variants, status, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (game.guild_id, game.channels, game.variants, game.status, game.created_at),
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            await db.execute(_INSERT_SETTINGS, (game_id, *game.settings))
            await _insert_entry(db, game_id, start)
            await db.execute(_INSERT_SNAPSHOT, (game_id, *_snapshot_values(snapshot)))
            await db.executemany(
                "INSERT OR IGNORE INTO moderators (game_id, user_id) VALUES (?, ?)",
                [(game_id, user) for user in moderators],
            )
        return game_id

    async def game(self, game_id: int) -> GameRow | None:
        rows = await self._read(f"{_GAMES} WHERE g.id = ?", (game_id,))
        return _game_row(rows[0]) if rows else None

    async def games(self, guild_id: int | None, active_only: bool) -> list[GameRow]:
        sql, params = f"{_GAMES} WHERE 1", []
        if guild_id is not None:
            sql, params = f"{sql} AND g.guild_id = ?", [guild_id]
        if active_only:
            sql += " AND g.status = 'active'"
        return [_game_row(row) for row in await self._read(f"{sql} ORDER BY g.id", params)]

    @completes
    async def set_settings(self, game_id: int, values: tuple[Any, ...]) -> bool:
        return await self._write(_SET_SETTINGS, (*values, game_id)) == 1

    @completes
    async def set_status(self, game_id: int, status: str) -> bool:
        return await self._write("UPDATE games SET status = ? WHERE id = ?", (status, game_id)) == 1

    @completes
    async def set_channels(self, game_id: int, channels: str) -> bool:
        return (
            await self._write("UPDATE games SET channels = ? WHERE id = ?", (channels, game_id))
            == 1
        )

    @completes
    async def keep_undelivered(self, game_id: int, payloads: Sequence[str]) -> None:
        async with self._transaction() as db:
            await db.execute("DELETE FROM undelivered WHERE game_id = ?", (game_id,))
            await db.executemany(
                "INSERT INTO undelivered (game_id, seq, payload_json) VALUES (?, ?, ?)",
                [(game_id, seq, payload) for seq, payload in enumerate(payloads)],
            )

    @completes
    async def take_undelivered(self, game_id: int) -> list[str]:
        async with self._transaction() as db:
            rows = await db.execute_fetchall(
                "SELECT payload_json FROM undelivered WHERE game_id = ? ORDER BY seq", (game_id,)
            )
            await db.execute("DELETE FROM undelivered WHERE game_id = ?", (game_id,))
        return [payload for (payload,) in rows]

    # -- seats and moderators ---------------------------------------------------------

    @completes
    async def set_seat(
        self, game_id: int, faction: str, user_id: int, since: str, turn: int | None
    ) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO seats (game_id, faction, user_id) VALUES (?, ?, ?)"
                " ON CONFLICT (game_id, faction) DO UPDATE SET user_id = excluded.user_id",
                (game_id, faction, user_id),
            )
            await db.execute(
                "INSERT INTO seat_history (game_id, faction, user_id, since, turn)"
                " VALUES (?, ?, ?, ?, ?)",
                (game_id, faction, user_id, since, turn),
            )

    async def tenures(self, guild_id: int, user_id: int) -> list[TenureRow]:
        rows = await self._read(_TENURES.format(p1="?", p2="?"), (user_id, guild_id))
        return [tuple(row) for row in rows]

    async def answers(self, game_ids: Sequence[int], user_id: int) -> list[AnswerRow]:
        rows: list[Any] = []
        for chunk in _chunks(game_ids, 500):
            sql = _ANSWERS.format(ids=", ".join("?" * len(chunk)))
            rows += await self._read(sql, [*chunk, user_id])
        return [tuple(row) for row in rows]

    async def first_actions(self, game_ids: Sequence[int]) -> dict[int, str]:
        found = await self._read_grouped(_FIRST_ACTIONS, game_ids)
        return {game: rows[0][0] for game, rows in found.items()}

    async def seats(self, game_id: int) -> list[tuple[str, int]]:
        rows = await self._read(
            "SELECT faction, user_id FROM seats WHERE game_id = ? ORDER BY faction", (game_id,)
        )
        return [(faction, user) for faction, user in rows]

    @completes
    async def add_moderator(self, game_id: int, user_id: int) -> None:
        await self._write(
            "INSERT OR IGNORE INTO moderators (game_id, user_id) VALUES (?, ?)", (game_id, user_id)
        )

    @completes
    async def remove_moderator(self, game_id: int, user_id: int) -> None:
        await self._write(
            "DELETE FROM moderators WHERE game_id = ? AND user_id = ?", (game_id, user_id)
        )

    async def moderators(self, game_id: int) -> list[int]:
        rows = await self._read("SELECT user_id FROM moderators WHERE game_id = ?", (game_id,))
        return [user for (user,) in rows]

    async def volunteers_channel(self, guild_id: int) -> int | None:
        rows = await self._read(
            "SELECT volunteers_channel FROM servers WHERE guild_id = ?", (guild_id,)
        )
        return rows[0][0] if rows else None

    @completes
    async def set_volunteers_channel(self, guild_id: int, channel_id: int | None) -> None:
        await self._write(_SET_VOLUNTEERS.format(p1="?", p2="?"), (guild_id, channel_id))

    # -- pings --------------------------------------------------------------------------

    async def ping_prefs(self, guild_id: int) -> list[PingPrefsRow]:
        rows = await self._read(_PING_PREFS.format(p1="?"), (guild_id,))
        return [tuple(row) for row in rows]

    @completes
    async def set_ping_prefs(self, guild_id: int, row: PingPrefsRow) -> None:
        await self._write(_SET_PING_PREFS.format(**_marks(9)), (guild_id, *row))

    async def ping_marks(self, game_id: int) -> list[PingMarkRow]:
        rows = await self._read(_PING_MARKS.format(p1="?"), (game_id,))
        return [tuple(row) for row in rows]

    @completes
    async def set_ping_marks(self, game_id: int, rows: Sequence[PingMarkRow]) -> None:
        async with self._transaction() as db:
            await db.executemany(
                _SET_PING_MARK.format(**_marks(5)), [(game_id, *row) for row in rows]
            )

    # -- the log ------------------------------------------------------------------------

    async def append(self, game_id: int, entry: EntryRow, snapshot: SnapshotRow | None) -> None:
        try:
            if snapshot is None:
                async with self._lock:  # one statement: a transaction of its own
                    await _insert_entry(self._db, game_id, entry)
            else:
                await self._append_with_snapshot(game_id, entry, snapshot)
        except sqlite3.IntegrityError as error:
            if "UNIQUE" not in str(error):
                raise
            raise log_conflict(game_id, entry.seq, entry.key, error) from error

    @completes
    async def _append_with_snapshot(
        self, game_id: int, entry: EntryRow, snapshot: SnapshotRow
    ) -> None:
        async with self._transaction() as db:
            await _insert_entry(db, game_id, entry)
            await db.execute(_INSERT_SNAPSHOT, (game_id, *_snapshot_values(snapshot)))

    async def entry_with_key(self, game_id: int, key: str) -> EntryRow | None:
        rows = await self._read(f"{_ENTRIES} AND idem_key = ?", (game_id, key))
        return EntryRow(*rows[0]) if rows else None

    async def entry_at(self, game_id: int, seq: int) -> EntryRow | None:
        rows = await self._read(f"{_ENTRIES} AND seq = ?", (game_id, seq))
        return EntryRow(*rows[0]) if rows else None

    async def entries(self, game_id: int) -> list[EntryRow]:
        return [EntryRow(*row) for row in await self._read(f"{_ENTRIES} ORDER BY seq", (game_id,))]

    async def headers(self, game_ids: Sequence[int]) -> dict[int, list[Header]]:
        return await self._read_grouped(
            "SELECT game_id, seq, kind, target, idem_key FROM action_log"
            " WHERE game_id IN ({ids}) ORDER BY game_id, seq",
            game_ids,
        )

    async def snapshot_heads(self, game_ids: Sequence[int]) -> dict[int, set[int]]:
        rows = await self._read_grouped(
            "SELECT game_id, head_seq FROM snapshots WHERE game_id IN ({ids})", game_ids
        )
        return {game_id: {head for (head,) in heads} for game_id, heads in rows.items()}

    async def snapshots(self, wanted: Sequence[tuple[int, int]]) -> list[SnapshotRow]:
        rows = await self._read_pairs(
            "WITH wanted (game_id, head_seq) AS (VALUES {values})"
            " SELECT game_id, head_seq, state, state_hash FROM snapshots JOIN wanted"
            " USING (game_id, head_seq)",
            wanted,
        )
        return [SnapshotRow(*row) for row in rows]

    async def action_bodies_after(
        self, bases: Sequence[tuple[int, int]]
    ) -> list[tuple[int, int, str]]:
        rows = await self._read_pairs(
            "WITH base (game_id, seq) AS (VALUES {values})"
            " SELECT a.game_id, a.seq, a.body FROM base AS b CROSS JOIN action_log AS a"
            " ON a.game_id = b.game_id AND a.seq > b.seq WHERE a.kind = 'action'",
            bases,
        )
        return [(game_id, seq, body) for game_id, seq, body in rows]

    @completes
    async def add_snapshots(self, snapshots: Sequence[SnapshotRow]) -> None:
        async with self._transaction() as db:
            await db.executemany(
                _INSERT_SNAPSHOT, [(s.game_id, *_snapshot_values(s)) for s in snapshots]
            )

    # -- internals -------------------------------------------------------------------------

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with self._lock:
            return list(await self._db.execute_fetchall(sql, params))

    async def _write(self, sql: str, params: Sequence[Any]) -> int:
        """One statement (a transaction of its own); returns how many rows it changed."""
        async with self._lock:
            cursor = await self._db.execute(sql, params)
            return cursor.rowcount

    async def _read_grouped(self, sql: str, ids: Sequence[int]) -> dict[int, list[Any]]:
        """Rows of ``sql`` (its ``{ids}`` a list of game ids) grouped by their first column."""
        out: dict[int, list[Any]] = {}
        for chunk in _chunks(ids, 500):
            rows = await self._read(sql.format(ids=", ".join("?" * len(chunk))), chunk)
            for game_id, *rest in rows:
                out.setdefault(game_id, []).append(tuple(rest))
        return out

    async def _read_pairs(self, sql: str, pairs: Sequence[tuple[int, int]]) -> list[Any]:
        """Rows of ``sql`` whose ``{values}`` is a VALUES list of the integer pairs."""
        rows: list[Any] = []
        for chunk in _chunks(pairs, 250):
            values = ", ".join(["(?, ?)"] * len(chunk))
            rows += await self._read(sql.format(values=values), [n for p in chunk for n in p])
        return rows

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                await self._db.execute("COMMIT")
            except BaseException:
                await _rollback(self._db)
                raise


async def _insert_entry(db: aiosqlite.Connection, game_id: int, entry: EntryRow) -> None:
    await db.execute(
        "INSERT INTO action_log"
        " (game_id, seq, kind, target, actor, body, events, idem_key, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            game_id,
            entry.seq,
            entry.kind,
            entry.target,
            entry.actor,
            entry.body,
            entry.events,
            entry.key,
            entry.created_at,
        ),
    )


def _snapshot_values(snapshot: SnapshotRow) -> tuple[Any, ...]:
    return (snapshot.head, snapshot.text, snapshot.digest, _now())


def _game_row(row: Sequence[Any]) -> GameRow:
    game_id, guild_id, channels, variants, status, created_at, *settings = row
    return GameRow(game_id, guild_id, channels, variants, status, created_at, tuple(settings))


async def _rollback(db: aiosqlite.Connection) -> None:
    """Roll back whatever transaction is open (statements run in order on the connection's
    thread, so a BEGIN still queued is rolled back too)."""
    try:
        await db.execute("ROLLBACK")
    except sqlite3.OperationalError as error:  # no transaction was open after all
        log.debug("rollback: %s", error)


def _chunks(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


# -- connection set-up and migrations ------------------------------------------------------


async def _configure(db: aiosqlite.Connection) -> None:
    await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    ((mode,),) = await db.execute_fetchall("PRAGMA journal_mode = WAL")
    if mode != "wal":
        raise StoreError(f"the database cannot use WAL mode (journal mode is {mode!r})")
    await db.execute("PRAGMA synchronous = FULL")
    await db.execute("PRAGMA foreign_keys = ON")


async def _migrate(db: aiosqlite.Connection, migrations: Sequence[Migration]) -> None:
    """Apply the pending migrations in one transaction, recording each in schema_migrations."""
    await db.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations"
        " (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    await db.execute("BEGIN IMMEDIATE")
    try:
        applied = [v for (v,) in await db.execute_fetchall("SELECT version FROM schema_migrations")]
        for migration in pending(applied, migrations):
            await _apply_migration(db, migration)
        await db.execute("COMMIT")
    except BaseException:
        await _rollback(db)
        raise


async def _apply_migration(db: aiosqlite.Connection, migration: Migration) -> None:
    log.info("applying migration %s", migration.label)
    try:
        for statement in statements(migration.sql):
            await db.execute(statement)
    except sqlite3.Error as error:
        raise SchemaError(f"migration {migration.label} failed: {error}") from error
    await db.execute(
        "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
        (migration.version, migration.name, _now()),
    )


def statements(sql: str) -> list[str]:
    """Split a migration into statements (a statement ends at the end of a line)."""
    found, current = [], ""
    for line in sql.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            found.append(current.strip())
            current = ""
    leftover = [ln for ln in current.splitlines() if ln.strip() and not ln.strip().startswith("--")]
    if leftover:
        raise SchemaError(f"migration ends inside a statement: {leftover[0]!r}")
    return found


def _marks(n: int) -> dict[str, str]:
    return {f"p{i}": "?" for i in range(1, n + 1)}
