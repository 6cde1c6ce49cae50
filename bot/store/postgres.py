"""The PostgreSQL backend: every game in one database shared by several processes.

Chosen by ``DATABASE_URL`` (``postgresql://user:password@host/db``); see
:class:`bot.store.backend.Backend` for what each method does. A pool of asyncpg connections
serves the requests of all games at once; each method is one transaction (``synchronous_commit``
as the server has it: on by default, so a returned write is durable).

Several processes may hold the same database. What keeps them honest is the schema, not
timing: the log's primary key ``(game_id, seq)`` and unique ``(game_id, idem_key)`` refuse
the entry of a writer that missed another's (:class:`LogConflictError`), and the pending
migrations are applied under a transaction-level advisory lock, so processes starting
together apply each exactly once.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import asyncpg  # type: ignore[import-untyped]  # asyncpg ships no type information

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

URL_SCHEMES = ("postgresql://", "postgres://")
MIGRATION_LOCK = 0x6D656E746174
"""The advisory lock held while migrations are checked and applied ("mentat" in ASCII)."""
POOL_SIZE = 8
"""Connections per process: requests of different games run at once up to this many."""

_GAMES = (
    "SELECT g.id, g.guild_id, g.channels, g.variants, g.status, g.created_at, "
    + ", ".join(f"s.{c}" for c in COLUMNS)
    + " FROM games AS g JOIN game_settings AS s ON s.game_id = g.id"
)
_ENTRIES = (
    "SELECT seq, kind, actor, idem_key, body, target, events, created_at FROM action_log"
    " WHERE game_id = $1"
)
_SET_SETTINGS = (
    "UPDATE game_settings SET "
    + ", ".join(f"{c} = ${n}" for n, c in enumerate(COLUMNS, start=1))
    + f" WHERE game_id = ${len(COLUMNS) + 1}"
)
_INSERT_SETTINGS = (
    f"INSERT INTO game_settings (game_id, {', '.join(COLUMNS)})"
    f" VALUES ({', '.join(f'${n}' for n in range(1, len(COLUMNS) + 2))})"
)
_INSERT_ENTRY = (
    "INSERT INTO action_log"
    " (game_id, seq, kind, target, actor, body, events, idem_key, created_at)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
)
_INSERT_SNAPSHOT = (
    "INSERT INTO snapshots (game_id, head_seq, state, state_hash, created_at)"
    " VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id, head_seq) DO NOTHING"
)
_SET_VOLUNTEERS = (
    "INSERT INTO servers (guild_id, volunteers_channel) VALUES ({p1}, {p2})"
    " ON CONFLICT (guild_id) DO UPDATE SET volunteers_channel = excluded.volunteers_channel"
)
_PING_PREFS = (
    "SELECT user_id, quiet_start, quiet_end, quiet_zone, interval_minutes, before_me, digest,"
    " dm_closed FROM ping_prefs WHERE guild_id = $1 ORDER BY user_id"
)
_SET_PING_PREFS = (
    "INSERT INTO ping_prefs (guild_id, user_id, quiet_start, quiet_end, quiet_zone,"
    " interval_minutes, before_me, digest, dm_closed)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
    " ON CONFLICT (guild_id, user_id) DO UPDATE SET quiet_start = excluded.quiet_start,"
    " quiet_end = excluded.quiet_end, quiet_zone = excluded.quiet_zone,"
    " interval_minutes = excluded.interval_minutes, before_me = excluded.before_me,"
    " digest = excluded.digest, dm_closed = excluded.dm_closed"
)
_PING_MARKS = "SELECT user_id, kind, key, at FROM ping_marks WHERE game_id = $1 ORDER BY user_id"
_SET_PING_MARK = (
    "INSERT INTO ping_marks (game_id, user_id, kind, key, at) VALUES ($1, $2, $3, $4, $5)"
    " ON CONFLICT (game_id, user_id, kind) DO UPDATE SET key = excluded.key, at = excluded.at"
)
_INSERT_MODERATOR = (
    "INSERT INTO moderators (game_id, user_id) VALUES ($1, $2)"
    " ON CONFLICT (game_id, user_id) DO NOTHING"
)


def is_url(location: object) -> bool:
    """Whether ``location`` names a PostgreSQL database rather than a SQLite file."""
    return isinstance(location, str) and location.startswith(URL_SCHEMES)


class PostgresBackend:
    """See :class:`bot.store.backend.Backend`."""

    def __init__(self, pool: Any) -> None:
        self._pool = pool  # an asyncpg.Pool
        self._closed = False

    @classmethod
    async def open(
        cls, url: str, migrations: Sequence[Migration], *, pool_size: int = POOL_SIZE
    ) -> PostgresBackend:
        """Connect to the database at ``url`` and apply the pending ``migrations``.

        :class:`StoreError` when the server cannot be reached or refuses the connection (the
        message never repeats the URL: it may hold a password); :class:`SchemaError` when a
        migration fails or the database is newer than the code.
        """
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
            raise StoreError(f"cannot connect to the PostgreSQL database: {error}") from error
        try:
            async with pool.acquire() as connection:
                await _migrate(connection, migrations)
        except BaseException:
            await pool.close()
            raise
        return cls(pool)

    async def close(self) -> None:
        """Close the pool (idempotent)."""
        if not self._closed:
            self._closed = True
            await self._pool.close()

    # -- games ----------------------------------------------------------------------

    @completes
    async def create_game(
        self, game: GameRow, start: EntryRow, snapshot: SnapshotRow, moderators: Sequence[int]
    ) -> int:
        async with self._pool.acquire() as db, db.transaction():
            game_id: int = await db.fetchval(
                "INSERT INTO games (guild_id, channels, variants, status, created_at)"
                " VALUES ($1, $2, $3, $4, $5) RETURNING id",
                game.guild_id,
                game.channels,
                game.variants,
                game.status,
                game.created_at,
            )
            await db.execute(_INSERT_SETTINGS, game_id, *game.settings)
            await db.execute(_INSERT_ENTRY, *_entry_values(game_id, start))
            await db.execute(_INSERT_SNAPSHOT, *_snapshot_values(snapshot, game_id))
            await db.executemany(_INSERT_MODERATOR, [(game_id, user) for user in moderators])
        return game_id

    async def game(self, game_id: int) -> GameRow | None:
        rows = await self._read(f"{_GAMES} WHERE g.id = $1", game_id)
        return _game_row(rows[0]) if rows else None

    async def games(self, guild_id: int | None, active_only: bool) -> list[GameRow]:
        conditions, params = [], []
        if guild_id is not None:
            params.append(guild_id)
            conditions.append(f"g.guild_id = ${len(params)}")
        if active_only:
            conditions.append("g.status = 'active'")
        where = f" WHERE {' AND '.join(conditions)}" if conditions else ""
        rows = await self._read(f"{_GAMES}{where} ORDER BY g.id", *params)
        return [_game_row(row) for row in rows]

    @completes
    async def set_settings(self, game_id: int, values: tuple[Any, ...]) -> bool:
        return await self._write(_SET_SETTINGS, *values, game_id) == 1

    @completes
    async def set_status(self, game_id: int, status: str) -> bool:
        sql = "UPDATE games SET status = $1 WHERE id = $2"
        return await self._write(sql, status, game_id) == 1

    @completes
    async def set_channels(self, game_id: int, channels: str) -> bool:
        sql = "UPDATE games SET channels = $1 WHERE id = $2"
        return await self._write(sql, channels, game_id) == 1

    @completes
    async def keep_undelivered(self, game_id: int, payloads: Sequence[str]) -> None:
        async with self._pool.acquire() as db, db.transaction():
            await db.execute("DELETE FROM undelivered WHERE game_id = $1", game_id)
            await db.executemany(
                "INSERT INTO undelivered (game_id, seq, payload_json) VALUES ($1, $2, $3)",
                [(game_id, seq, payload) for seq, payload in enumerate(payloads)],
            )

    @completes
    async def take_undelivered(self, game_id: int) -> list[str]:
        rows = await self._read(
            "DELETE FROM undelivered WHERE game_id = $1 RETURNING seq, payload_json", game_id
        )
        return [payload for _, payload in sorted(tuple(row) for row in rows)]

    # -- seats and moderators ---------------------------------------------------------

    @completes
    async def set_seat(
        self, game_id: int, faction: str, user_id: int, since: str, turn: int | None
    ) -> None:
        async with self._pool.acquire() as db, db.transaction():
            await db.execute(
                "INSERT INTO seats (game_id, faction, user_id) VALUES ($1, $2, $3)"
                " ON CONFLICT (game_id, faction) DO UPDATE SET user_id = excluded.user_id",
                game_id,
                faction,
                user_id,
            )
            await db.execute(
                "INSERT INTO seat_history (game_id, faction, user_id, since, turn)"
                " VALUES ($1, $2, $3, $4, $5)",
                game_id,
                faction,
                user_id,
                since,
                turn,
            )

    async def tenures(self, guild_id: int, user_id: int) -> list[TenureRow]:
        rows = await self._read(
            "SELECT h.game_id, h.faction, h.user_id, h.since, h.turn FROM seat_history AS h"
            " JOIN games AS g ON g.id = h.game_id"
            " WHERE h.game_id IN (SELECT game_id FROM seat_history WHERE user_id = $1)"
            " AND g.guild_id = $2 ORDER BY h.game_id, h.faction, h.id",
            user_id,
            guild_id,
        )
        return [tuple(row) for row in rows]

    async def answers(self, game_ids: Sequence[int], user_id: int) -> list[AnswerRow]:
        rows = await self._read(
            "SELECT game_id, seq, actor, idem_key, body::jsonb ->> 'faction', created_at,"
            " previous FROM (SELECT game_id, seq, kind, actor, idem_key, created_at,"
            " CASE WHEN kind = 'action' THEN body END AS body,"
            " LAG(created_at) OVER (PARTITION BY game_id ORDER BY seq) AS previous"
            " FROM action_log WHERE game_id = ANY($1::bigint[])) AS entries"
            " WHERE kind = 'action'"
            " AND (actor = $2 OR (actor = 0 AND idem_key LIKE '%:deadline:%'))"
            " ORDER BY game_id, seq",
            list(game_ids),
            user_id,
        )
        return [tuple(row) for row in rows]

    async def first_actions(self, game_ids: Sequence[int]) -> dict[int, str]:
        rows = await self._read(
            "SELECT DISTINCT ON (game_id) game_id, created_at FROM action_log"
            " WHERE game_id = ANY($1::bigint[]) AND kind = 'action' ORDER BY game_id, seq",
            list(game_ids),
        )
        return {int(row[0]): str(row[1]) for row in rows}

    async def seats(self, game_id: int) -> list[tuple[str, int]]:
        rows = await self._read(
            "SELECT faction, user_id FROM seats WHERE game_id = $1 ORDER BY faction", game_id
        )
        return [(faction, user) for faction, user in rows]

    @completes
    async def add_moderator(self, game_id: int, user_id: int) -> None:
        await self._write(_INSERT_MODERATOR, game_id, user_id)

    @completes
    async def remove_moderator(self, game_id: int, user_id: int) -> None:
        sql = "DELETE FROM moderators WHERE game_id = $1 AND user_id = $2"
        await self._write(sql, game_id, user_id)

    async def moderators(self, game_id: int) -> list[int]:
        rows = await self._read("SELECT user_id FROM moderators WHERE game_id = $1", game_id)
        return [user for (user,) in rows]

    async def volunteers_channel(self, guild_id: int) -> int | None:
        sql = "SELECT volunteers_channel FROM servers WHERE guild_id = $1"
        rows = await self._read(sql, guild_id)
        return None if not rows or rows[0][0] is None else int(rows[0][0])

    @completes
    async def set_volunteers_channel(self, guild_id: int, channel_id: int | None) -> None:
        await self._write(_SET_VOLUNTEERS.format(p1="$1", p2="$2"), guild_id, channel_id)

    # -- pings --------------------------------------------------------------------------

    async def ping_prefs(self, guild_id: int) -> list[PingPrefsRow]:
        return [tuple(row) for row in await self._read(_PING_PREFS, guild_id)]

    @completes
    async def set_ping_prefs(self, guild_id: int, row: PingPrefsRow) -> None:
        await self._write(_SET_PING_PREFS, guild_id, *row)

    async def ping_marks(self, game_id: int) -> list[PingMarkRow]:
        return [tuple(row) for row in await self._read(_PING_MARKS, game_id)]

    @completes
    async def set_ping_marks(self, game_id: int, rows: Sequence[PingMarkRow]) -> None:
        async with self._pool.acquire() as db, db.transaction():
            await db.executemany(_SET_PING_MARK, [(game_id, *row) for row in rows])

    # -- the log ------------------------------------------------------------------------

    @completes
    async def append(self, game_id: int, entry: EntryRow, snapshot: SnapshotRow | None) -> None:
        try:
            if snapshot is None:  # one statement: a transaction of its own
                await self._pool.execute(_INSERT_ENTRY, *_entry_values(game_id, entry))
                return
            async with self._pool.acquire() as db, db.transaction():
                await db.execute(_INSERT_ENTRY, *_entry_values(game_id, entry))
                await db.execute(_INSERT_SNAPSHOT, *_snapshot_values(snapshot, game_id))
        except asyncpg.UniqueViolationError as error:
            raise log_conflict(game_id, entry.seq, entry.key, error) from error

    async def entry_with_key(self, game_id: int, key: str) -> EntryRow | None:
        rows = await self._read(f"{_ENTRIES} AND idem_key = $2", game_id, key)
        return EntryRow(*rows[0]) if rows else None

    async def entry_at(self, game_id: int, seq: int) -> EntryRow | None:
        rows = await self._read(f"{_ENTRIES} AND seq = $2", game_id, seq)
        return EntryRow(*rows[0]) if rows else None

    async def entries(self, game_id: int) -> list[EntryRow]:
        return [EntryRow(*row) for row in await self._read(f"{_ENTRIES} ORDER BY seq", game_id)]

    async def headers(self, game_ids: Sequence[int]) -> dict[int, list[Header]]:
        rows = await self._read(
            "SELECT game_id, seq, kind, target, idem_key FROM action_log"
            " WHERE game_id = ANY($1::bigint[]) ORDER BY game_id, seq",
            list(game_ids),
        )
        out: dict[int, list[Header]] = {}
        for game_id, seq, kind, target, key in rows:
            out.setdefault(game_id, []).append((seq, kind, target, key))
        return out

    async def snapshot_heads(self, game_ids: Sequence[int]) -> dict[int, set[int]]:
        rows = await self._read(
            "SELECT game_id, head_seq FROM snapshots WHERE game_id = ANY($1::bigint[])",
            list(game_ids),
        )
        out: dict[int, set[int]] = {}
        for game_id, head in rows:
            out.setdefault(game_id, set()).add(head)
        return out

    async def snapshots(self, wanted: Sequence[tuple[int, int]]) -> list[SnapshotRow]:
        rows = await self._read(
            "SELECT s.game_id, s.head_seq, s.state, s.state_hash"
            " FROM unnest($1::bigint[], $2::integer[]) AS w (game_id, head_seq)"
            " JOIN snapshots AS s USING (game_id, head_seq)",
            *_columns(wanted),
        )
        return [SnapshotRow(*row) for row in rows]

    async def action_bodies_after(
        self, bases: Sequence[tuple[int, int]]
    ) -> list[tuple[int, int, str]]:
        rows = await self._read(
            "SELECT a.game_id, a.seq, a.body"
            " FROM unnest($1::bigint[], $2::integer[]) AS b (game_id, seq)"
            " JOIN action_log AS a ON a.game_id = b.game_id AND a.seq > b.seq"
            " WHERE a.kind = 'action'",
            *_columns(bases),
        )
        return [(game_id, seq, body) for game_id, seq, body in rows]

    @completes
    async def add_snapshots(self, snapshots: Sequence[SnapshotRow]) -> None:
        async with self._pool.acquire() as db, db.transaction():
            await db.executemany(_INSERT_SNAPSHOT, [_snapshot_values(s) for s in snapshots])

    # -- internals -------------------------------------------------------------------------

    async def _read(self, sql: str, *params: Any) -> list[Any]:
        return list(await self._pool.fetch(sql, *params))

    async def _write(self, sql: str, *params: Any) -> int:
        """One statement (a transaction of its own); returns how many rows it changed."""
        status: str = await self._pool.execute(sql, *params)
        return int(status.rsplit(" ", 1)[-1])


def _entry_values(game_id: int, entry: EntryRow) -> tuple[Any, ...]:
    return (
        game_id,
        entry.seq,
        entry.kind,
        entry.target,
        entry.actor,
        entry.body,
        entry.events,
        entry.key,
        entry.created_at,
    )


def _snapshot_values(snapshot: SnapshotRow, game_id: int | None = None) -> tuple[Any, ...]:
    owner = snapshot.game_id if game_id is None else game_id
    return (owner, snapshot.head, snapshot.text, snapshot.digest, _now())


def _columns(pairs: Sequence[tuple[int, int]]) -> tuple[list[int], list[int]]:
    return [a for a, _ in pairs], [b for _, b in pairs]


def _game_row(row: Sequence[Any]) -> GameRow:
    game_id, guild_id, channels, variants, status, created_at, *settings = row
    return GameRow(game_id, guild_id, channels, variants, status, created_at, tuple(settings))


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


# -- migrations ------------------------------------------------------------------------------


async def _migrate(db: Any, migrations: Sequence[Migration]) -> None:
    """Apply the pending migrations in one transaction under the advisory lock: a process
    starting meanwhile waits, then finds them applied."""
    async with db.transaction():
        await db.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        await db.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations"
            " (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
        )
        applied = [v for (v,) in await db.fetch("SELECT version FROM schema_migrations")]
        for migration in pending(applied, migrations):
            log.info("applying migration %s (postgres)", migration.label)
            try:
                await db.execute(migration.sql)  # no arguments: several statements may run
            except asyncpg.PostgresError as error:
                raise SchemaError(f"migration {migration.label} failed: {error}") from error
            await db.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                migration.version,
                migration.name,
                _now(),
            )
