"""Persistence: every game, its seats and its append-only action log, in one SQLite file.

This is the only module that speaks SQL. One :class:`Store` owns one aiosqlite connection
(WAL mode, ``synchronous=FULL``) and applies the numbered migrations of ``bot/migrations``
when it opens.

- **The log is the truth.** Every accepted request is one row of ``action_log``, numbered per
  game and carrying an idempotency key that is unique per game: ``start`` (a phase's start
  position), ``action``, ``undo`` or ``redo``. Rows are never updated or deleted.
- **Effective history.** The actions in effect are a stack over the phase's ``start`` entry: an
  action pushes itself and clears the redo chain, ``undo`` moves the top action to the redo
  chain, ``redo`` moves it back. The position is the start position with the effective actions
  replayed in order (see :class:`History`).
- **Commit, then announce.** A request is checked against the in-memory position, then its row
  (and a snapshot when one is due) is committed in one transaction before the call returns. A
  refused request writes nothing; a request whose key is already in the log is not applied
  again and returns the stored result with ``duplicate=True``.
- **Snapshots are a cache.** They are written at each phase start, every ``snapshot_every``
  effective actions and on :meth:`Store.close`, keyed by the last effective entry they include;
  one is usable while that entry is still in effect. Loading takes the newest usable snapshot
  whose stored sha256 matches its text and replays the effective actions after it. A snapshot
  whose hash does not match is skipped with a warning (at worst the game is replayed from the
  ``start`` entry of the log), so a damaged snapshot costs time, never data.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import json
import logging
import os
import re
import sqlite3
from collections.abc import (
    AsyncIterator,
    Callable,
    Collection,
    Coroutine,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
)
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import resources
from types import TracebackType
from typing import Any, ClassVar, Literal, ParamSpec, TypeVar, cast

import aiosqlite

from rules.actions import Action, action_from_dict, action_to_dict
from rules.errors import MentatError, RulesError
from rules.events import Event
from rules.factions import Faction
from rules.game import GameState

log = logging.getLogger(__name__)

Kind = Literal["start", "action", "undo", "redo"]
P = ParamSpec("P")
T = TypeVar("T")

SYSTEM_ACTOR = 0
"""The actor id of requests the bot makes itself (e.g. closing prompts at a deadline)."""
DEFAULT_SNAPSHOT_EVERY = 10
BUSY_TIMEOUT_MS = 5_000
CREATE_KEY = "mentat:create"
"""The idempotency key of the ``start`` entry written by :meth:`Store.create_game`."""


# -- errors -------------------------------------------------------------------


class StoreError(MentatError):
    """A request the store refuses or cannot carry out. Nothing was written."""


class UnknownGameError(StoreError, LookupError):
    """No game has this id."""


class GameFinishedError(StoreError):
    """The game is finished and takes no more requests."""


class NotModeratorError(StoreError, PermissionError):
    """Only a moderator of the game may do this."""


class NothingToUndoError(StoreError):
    """No action of the current phase is in effect."""


class NothingToRedoError(StoreError):
    """No undone action is waiting to be redone (a new action clears the redo chain)."""


class KeyReusedError(StoreError):
    """The idempotency key is already in the log for a different request."""


class SchemaError(StoreError):
    """The migrations cannot be read or applied, or the database is newer than the code."""


class CorruptLogError(StoreError):
    """A game's log cannot be replayed (missing entries, or an entry refused on replay)."""


# -- values -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game's settings (``games`` row)."""

    id: int
    guild_id: int
    channels: Mapping[str, int]
    options: Mapping[str, Any]
    variants: tuple[str, ...]
    deadlines: Mapping[str, datetime]
    status: str
    created_at: datetime

    @property
    def is_active(self) -> bool:
        return self.status == "active"


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One row of the action log. ``body`` is the start position (``start``), the action dict
    (``action``) or None (``undo``/``redo``, whose ``target`` is the action entry's seq)."""

    seq: int
    kind: Kind
    actor: int
    key: str
    body: Any
    target: int | None
    events: tuple[Event, ...]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class SubmitResult:
    """The outcome of an accepted request, committed before it was returned.

    ``state`` is the store's live position of the game: read it, never change it.
    ``duplicate`` means the key was already in the log: nothing was applied and ``seq`` and
    ``events`` are those of the earlier request.
    """

    seq: int
    events: tuple[Event, ...]
    state: GameState
    duplicate: bool = False


@dataclass(frozen=True, slots=True)
class LoadedGame:
    """A game as the store holds it: its settings, live position (read-only) and log head."""

    record: GameRecord
    state: GameState
    seq: int
    can_undo: bool
    can_redo: bool


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


# -- the effective history ------------------------------------------------------


@dataclass(slots=True)
class History:
    """Which log entries are in effect, computed from the log's (seq, kind, target) headers.

    ``effective[0]`` is the seq of the current phase's ``start`` entry and the rest are the
    seqs of the action entries in effect, oldest first; ``undone`` is the redo chain, the next
    entry to redo last. The list ``effective + undone[::-1]`` only grows by new actions, so
    the entries below any effective entry never change: a snapshot taken when entry ``h`` was
    on top is the position now exactly when ``h`` is still in ``effective``.
    """

    effective: list[int] = field(default_factory=list)
    undone: list[int] = field(default_factory=list)
    last_seq: int = 0

    @classmethod
    def of(cls, headers: Iterable[tuple[int, str, int | None]]) -> History:
        """Raises :class:`CorruptLogError` when the headers are not a valid log."""
        history = cls()
        for seq, kind, target in headers:
            history.record(seq, kind, target)
        return history

    def record(self, seq: int, kind: str, target: int | None = None) -> None:
        if seq != self.last_seq + 1:
            raise CorruptLogError(f"log entry #{seq} follows #{self.last_seq}")
        if kind == "start":
            self.effective, self.undone = [seq], []
        elif not self.effective:
            raise CorruptLogError(f"log entry #{seq} ({kind}) comes before any start entry")
        elif kind == "action":
            self.effective.append(seq)
            self.undone.clear()
        elif kind == "undo":
            _move_top(self.effective[1:], self.effective, self.undone, target, seq)
        elif kind == "redo":
            _move_top(self.undone, self.undone, self.effective, target, seq)
        else:
            raise CorruptLogError(f"log entry #{seq} has unknown kind {kind!r}")
        self.last_seq = seq

    def after(self, kind: Kind, target: int | None = None) -> History:
        """A copy with one more entry recorded."""
        new = History(list(self.effective), list(self.undone), self.last_seq)
        new.record(self.last_seq + 1, kind, target)
        return new

    @property
    def start(self) -> int:
        return self.effective[0]

    @property
    def head(self) -> int:
        return self.effective[-1]

    def undo_target(self) -> int:
        """The action entry an undo would cancel; raises :class:`NothingToUndoError`."""
        if len(self.effective) < 2:
            raise NothingToUndoError("there is no action to undo in this phase")
        return self.effective[-1]

    def redo_target(self) -> int:
        """The action entry a redo would restore; raises :class:`NothingToRedoError`."""
        if not self.undone:
            raise NothingToRedoError("there is no undone action to redo")
        return self.undone[-1]

    def since(self, heads: Collection[int]) -> int:
        """How many effective entries lie above the newest one in ``heads``."""
        for depth, seq in enumerate(reversed(self.effective)):
            if seq in heads:
                return depth
        return len(self.effective)


def _move_top(
    allowed: list[int], source: list[int], dest: list[int], target: int | None, seq: int
) -> None:
    if not allowed or source[-1] != target:
        raise CorruptLogError(f"log entry #{seq} targets #{target}, which it cannot")
    dest.append(source.pop())


# -- the store ----------------------------------------------------------------


def _completes(
    operation: Callable[P, Coroutine[Any, Any, T]],
) -> Callable[P, Coroutine[Any, Any, T]]:
    """Run a store operation to its end even when the caller is cancelled meanwhile.

    The operation runs in a task of its own; a cancelled caller waits for it to finish (its
    commit, or its rollback, and the in-memory game with it) before the cancellation goes on,
    so memory and disk never disagree and the next request sees a settled game.
    """

    @functools.wraps(operation)
    async def run(*args: P.args, **kwargs: P.kwargs) -> T:
        task = asyncio.ensure_future(operation(*args, **kwargs))
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            while not task.done():
                with contextlib.suppress(asyncio.CancelledError):
                    await asyncio.wait({task})
            if not task.cancelled() and task.exception() is not None:
                log.warning("%s failed after its caller was cancelled", operation.__name__)
            raise

    return run


@dataclass(frozen=True, slots=True)
class Undone(Event):
    """A moderator undid the action logged as ``seq``."""

    kind: ClassVar[str] = "undone"
    seq: int
    action: dict[str, Any]
    moderator: int


@dataclass(frozen=True, slots=True)
class Redone(Event):
    """A moderator re-applied the undone action logged as ``seq``."""

    kind: ClassVar[str] = "redone"
    seq: int
    action: dict[str, Any]
    moderator: int


@dataclass(frozen=True, slots=True)
class PhaseStarted(Event):
    kind: ClassVar[str] = "phase_started"
    seq: int


LOG_EVENTS: dict[str, type[Event]] = {e.kind: e for e in (Undone, Redone, PhaseStarted)}


@dataclass(frozen=True, slots=True)
class _Row:
    seq: int
    kind: Kind
    actor: int
    key: str
    body: str | None
    target: int | None
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class _Snapshot:
    head: int
    text: str
    digest: str


@dataclass(slots=True)
class _Live:
    record: GameRecord
    state: GameState
    history: History
    snapshot_heads: set[int]
    keys: set[str]  # every idempotency key in the game's log


_Job = tuple[int, History, Collection[int]]  # a game to rebuild: id, history, snapshot heads


class Store:
    """Every game in one SQLite file. Open with :meth:`open`; close with :meth:`close` or
    ``async with``. Requests to one game run one at a time; games are independent."""

    def __init__(self, db: aiosqlite.Connection, *, snapshot_every: int) -> None:
        self._db = db
        self._snapshot_every = snapshot_every
        self._db_lock = asyncio.Lock()
        self._game_locks: dict[int, asyncio.Lock] = {}
        self._live: dict[int, _Live] = {}
        self._closed = False

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        snapshot_every: int = DEFAULT_SNAPSHOT_EVERY,
        migrations: Sequence[Migration] | None = None,
    ) -> Store:
        """Open (creating if needed) the database at ``path`` and bring its schema up to date.

        ``migrations`` defaults to the files of ``bot/migrations``. Raises
        :class:`SchemaError` when a migration fails or the database is newer than the code.
        """
        if snapshot_every < 1:
            raise ValueError(f"snapshot_every must be at least 1, not {snapshot_every}")
        db = await aiosqlite.connect(os.fspath(path), isolation_level=None)
        try:
            await _configure(db)
            await _migrate(db, read_migrations() if migrations is None else migrations)
        except BaseException:
            await db.close()
            raise
        return cls(db, snapshot_every=snapshot_every)

    async def close(self, *, checkpoint: bool = True) -> None:
        """Close the connection, first snapshotting (unless ``checkpoint`` is false) the loaded
        games whose position is not snapshotted yet, so the next start-up replays nothing.
        Idempotent."""
        if self._closed:
            return
        self._closed = True
        try:
            if checkpoint:
                await self.checkpoint()
        finally:
            await self._db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # -- games ----------------------------------------------------------------

    @_completes
    async def create_game(
        self,
        guild_id: int,
        start_state: GameState,
        *,
        channels: Mapping[str, int] | None = None,
        options: Mapping[str, Any] | None = None,
        variants: Sequence[str] = (),
        deadlines: Mapping[str, datetime] | None = None,
        moderators: Iterable[int] = (),
        created_by: int = SYSTEM_ACTOR,
    ) -> int:
        """Create a game starting at ``start_state`` and return its id."""
        now = _now()
        body = _canonical(start_state.to_dict())
        async with self._transaction() as db:
            cursor = await db.execute(
                "INSERT INTO games (guild_id, channels, options, variants, deadlines, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (
                    guild_id,
                    _canonical(dict(channels or {})),
                    _canonical(dict(options or {})),
                    _canonical(list(variants)),
                    _deadlines_json(deadlines or {}),
                    now,
                ),
            )
            game_id = cast(int, cursor.lastrowid)
            row = _Row(1, "start", created_by, CREATE_KEY, body, None, _started(1))
            await _insert_entry(db, game_id, row)
            await _insert_snapshot(db, game_id, _snapshot_text(1, body))
            await db.executemany(
                "INSERT OR IGNORE INTO moderators (game_id, user_id) VALUES (?, ?)",
                [(game_id, user) for user in moderators],
            )
        log.info("created game %d in guild %d", game_id, guild_id)
        return game_id

    async def game(self, game_id: int) -> GameRecord:
        """The settings of game ``game_id``; raises :class:`UnknownGameError`."""
        rows = await self._read(f"{_GAME_COLUMNS} WHERE id = ?", (game_id,))
        if not rows:
            raise UnknownGameError(f"there is no game #{game_id}")
        return _record(rows[0])

    async def games(
        self, guild_id: int | None = None, *, active_only: bool = True
    ) -> list[GameRecord]:
        """The games of one Discord server (or of all), oldest first."""
        sql, params = f"{_GAME_COLUMNS} WHERE 1", []
        if guild_id is not None:
            sql, params = f"{sql} AND guild_id = ?", [guild_id]
        if active_only:
            sql += " AND status = 'active'"
        return [_record(row) for row in await self._read(f"{sql} ORDER BY id", params)]

    async def set_deadlines(self, game_id: int, deadlines: Mapping[str, datetime]) -> None:
        """Replace the game's deadlines (timezone-aware times)."""
        await self._update_game(game_id, "deadlines", _deadlines_json(deadlines))

    async def set_options(self, game_id: int, options: Mapping[str, Any]) -> None:
        """Replace the game's options (JSON-friendly values)."""
        await self._update_game(game_id, "options", _canonical(dict(options)))

    async def set_channels(self, game_id: int, channels: Mapping[str, int]) -> None:
        """Replace the game's channels (role: channel id), e.g. after a repair."""
        await self._update_game(game_id, "channels", _canonical(dict(channels)))

    async def finish_game(self, game_id: int) -> None:
        """Mark the game finished: it is no longer loaded at start-up and takes no requests."""
        await self._update_game(game_id, "status", "finished")

    @_completes
    async def _update_game(self, game_id: int, column: str, value: str) -> None:
        async with self._game_lock(game_id):
            async with self._transaction() as db:
                cursor = await db.execute(
                    f"UPDATE games SET {column} = ? WHERE id = ?", (value, game_id)
                )
                if cursor.rowcount != 1:
                    raise UnknownGameError(f"there is no game #{game_id}")
            live = self._live.get(game_id)
            if live is not None:
                live.record = await self.game(game_id)

    # -- seats and moderators -------------------------------------------------

    @_completes
    async def seat(self, game_id: int, user_id: int, faction: Faction) -> None:
        """Give ``faction``'s seat to ``user_id`` (replacing whoever held it)."""
        async with self._game_lock(game_id):
            live = await self._live_game(game_id)
            if not live.state.in_game(faction):
                raise ValueError(f"{faction.label} is not in game #{game_id}")
            async with self._transaction() as db:
                await db.execute(
                    "INSERT INTO seats (game_id, faction, user_id) VALUES (?, ?, ?)"
                    " ON CONFLICT (game_id, faction) DO UPDATE SET user_id = excluded.user_id",
                    (game_id, faction.value, user_id),
                )

    async def seats(self, game_id: int) -> dict[Faction, int]:
        """The Discord user holding each seated faction."""
        await self.game(game_id)
        rows = await self._read(
            "SELECT faction, user_id FROM seats WHERE game_id = ? ORDER BY faction", (game_id,)
        )
        return {Faction(faction): user for faction, user in rows}

    @_completes
    async def add_moderator(self, game_id: int, user_id: int) -> None:
        await self.game(game_id)
        async with self._transaction() as db:
            await db.execute(
                "INSERT OR IGNORE INTO moderators (game_id, user_id) VALUES (?, ?)",
                (game_id, user_id),
            )

    @_completes
    async def remove_moderator(self, game_id: int, user_id: int) -> None:
        async with self._transaction() as db:
            await db.execute(
                "DELETE FROM moderators WHERE game_id = ? AND user_id = ?", (game_id, user_id)
            )

    async def moderators(self, game_id: int) -> frozenset[int]:
        await self.game(game_id)
        rows = await self._read("SELECT user_id FROM moderators WHERE game_id = ?", (game_id,))
        return frozenset(user for (user,) in rows)

    async def is_moderator(self, game_id: int, user_id: int) -> bool:
        return user_id in await self.moderators(game_id)

    # -- the log ----------------------------------------------------------------

    @_completes
    async def submit(
        self, game_id: int, actor: int, action: Action, idempotency_key: str
    ) -> SubmitResult:
        """Apply ``action`` and commit it to the log; returns once it is on disk.

        Raises the engine's :class:`RulesError` when the rules refuse it (nothing is
        written), :class:`UnknownGameError`, :class:`GameFinishedError`, or
        :class:`KeyReusedError` when the key was used for a different request.
        """
        body = _canonical(action_to_dict(action))
        async with self._game_lock(game_id):
            live = await self._live_game(game_id)
            earlier = await self._earlier(live, idempotency_key)
            if earlier is not None:
                return _duplicate(live, earlier, "action", body)
            _check_active(live.record)
            history = live.history.after("action")
            events = self._apply(live, action)
            row = _Row(history.last_seq, "action", actor, idempotency_key, body, None, events)
            return await self._write(live, history, live.state, row)

    async def earlier_result(
        self, game_id: int, action: Action, idempotency_key: str
    ) -> SubmitResult | None:
        """The result of ``idempotency_key`` if it was already applied, else None.

        Raises :class:`KeyReusedError` when the key was used for a different request.
        """
        async with self._game_lock(game_id):
            live = await self._live_game(game_id)
            earlier = await self._earlier(live, idempotency_key)
            if earlier is None:
                return None
            return _duplicate(live, earlier, "action", _canonical(action_to_dict(action)))

    @_completes
    async def undo(
        self, game_id: int, moderator_id: int, idempotency_key: str, *, authorised: bool = False
    ) -> SubmitResult:
        """Cancel the last action in effect (moderators only); the log keeps both entries.

        The events are one ``undone`` event (``seq`` and ``action`` of the cancelled entry,
        ``moderator``). Raises :class:`NotModeratorError` (unless ``authorised``: the
        caller checked the moderator itself), :class:`NothingToUndoError`,
        :class:`UnknownGameError`, :class:`GameFinishedError` or :class:`KeyReusedError`.
        """
        async with self._game_lock(game_id):
            live = await self._live_game(game_id)
            earlier = await self._earlier(live, idempotency_key)
            if earlier is not None:
                return _duplicate(live, earlier, "undo", None)
            await self._check_moderator(live.record, moderator_id, "undo", authorised)
            target = live.history.undo_target()
            history = live.history.after("undo", target)
            state = await self._rebuild(game_id, history, live.snapshot_heads)
            undone = Undone(
                seq=target, action=await self._body(game_id, target), moderator=moderator_id
            )
            row = _Row(
                history.last_seq, "undo", moderator_id, idempotency_key, None, target, (undone,)
            )
            return await self._write(live, history, state, row)

    @_completes
    async def redo(
        self, game_id: int, moderator_id: int, idempotency_key: str, *, authorised: bool = False
    ) -> SubmitResult:
        """Re-apply the most recently undone action (moderators only).

        The events are a ``redone`` event followed by the action's own events. Raises as
        :meth:`undo`, with :class:`NothingToRedoError` when the redo chain is empty.
        """
        async with self._game_lock(game_id):
            live = await self._live_game(game_id)
            earlier = await self._earlier(live, idempotency_key)
            if earlier is not None:
                return _duplicate(live, earlier, "redo", None)
            await self._check_moderator(live.record, moderator_id, "redo", authorised)
            target = live.history.redo_target()
            history = live.history.after("redo", target)
            body = await self._body(game_id, target)
            redone = Redone(seq=target, action=body, moderator=moderator_id)
            events = (redone, *self._apply(live, _logged_action(body)))
            row = _Row(
                history.last_seq, "redo", moderator_id, idempotency_key, None, target, events
            )
            return await self._write(live, history, live.state, row)

    @_completes
    async def start_phase(
        self,
        game_id: int,
        moderator_id: int,
        start_state: GameState,
        idempotency_key: str,
        *,
        authorised: bool = False,
    ) -> SubmitResult:
        """Begin a new phase at ``start_state`` (moderators only). Undo stops at a phase start.

        The events are one ``phase_started`` event.
        """
        body = _canonical(start_state.to_dict())
        async with self._game_lock(game_id):
            live = await self._live_game(game_id)
            earlier = await self._earlier(live, idempotency_key)
            if earlier is not None:
                return _duplicate(live, earlier, "start", body)
            await self._check_moderator(live.record, moderator_id, "start a phase", authorised)
            history = live.history.after("start")
            seq = history.last_seq
            row = _Row(seq, "start", moderator_id, idempotency_key, body, None, _started(seq))
            return await self._write(live, history, GameState.from_dict(json.loads(body)), row)

    async def log(self, game_id: int) -> list[LogEntry]:
        """Every entry of the game's log, oldest first."""
        await self.game(game_id)
        rows = await self._read(
            "SELECT seq, kind, actor, idem_key, body, target, events, created_at"
            " FROM action_log WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return [_log_entry(row) for row in rows]

    # -- loading ----------------------------------------------------------------

    async def load_game(self, game_id: int) -> LoadedGame:
        """The game's position: the newest usable snapshot plus the effective actions after it
        (kept in memory afterwards). Raises :class:`UnknownGameError` or
        :class:`CorruptLogError`."""
        async with self._game_lock(game_id):
            return _loaded(await self._live_game(game_id))

    async def load_active_games(self) -> list[LoadedGame]:
        """Load every active game (at start-up), oldest first, reading them all at once.

        A game whose log cannot be replayed is left out with an error in the log (using it
        later raises :class:`CorruptLogError`); the others still load.
        """
        records = await self.games()
        lives, errors = await self._load_many([r for r in records if r.id not in self._live])
        for live in lives:
            self._live.setdefault(live.record.id, live)
        for error in errors.values():
            log.error("%s", error)
        return [_loaded(self._live[r.id]) for r in records if r.id in self._live]

    @_completes
    async def checkpoint(self) -> int:
        """Snapshot every loaded game whose position is not snapshotted; returns how many."""
        snapshots: list[tuple[_Live, _Snapshot]] = []
        for game_id in list(self._live):
            async with self._game_lock(game_id):
                live = self._live.get(game_id)
                if live is not None and live.history.since(live.snapshot_heads) > 0:
                    snapshots.append((live, _snapshot_of(live.history, live.state)))
        if snapshots:
            async with self._transaction() as db:
                for live, snapshot in snapshots:
                    await _insert_snapshot(db, live.record.id, snapshot)
            for live, snapshot in snapshots:
                live.snapshot_heads.add(snapshot.head)
        return len(snapshots)

    # -- internals: the live games ---------------------------------------------

    def _game_lock(self, game_id: int) -> asyncio.Lock:
        return self._game_locks.setdefault(game_id, asyncio.Lock())

    async def _live_game(self, game_id: int) -> _Live:
        """The cached game, loaded on first use. Call with the game's lock held."""
        live = self._live.get(game_id)
        if live is None:
            live = await self._load(game_id)
            self._live[game_id] = live
        return live

    async def _load(self, game_id: int) -> _Live:
        lives, errors = await self._load_many([await self.game(game_id)])
        if errors:
            raise errors[game_id]
        return lives[0]

    async def _load_many(
        self, records: Sequence[GameRecord]
    ) -> tuple[list[_Live], dict[int, CorruptLogError]]:
        """Load games with a few queries for all of them; unreplayable ones go to the errors."""
        ids = [record.id for record in records]
        logs = await self._read_grouped(_LOG_HEADERS, ids)
        heads = await self._read_grouped(_SNAPSHOT_HEADS, ids)
        histories, errors = _histories(ids, logs)
        heads_of = {i: {head for (head,) in heads.get(i, ())} for i in histories}
        states, failed = await self._rebuild_many(
            [(i, history, heads_of[i]) for i, history in histories.items()]
        )
        lives = [
            _Live(r, states[r.id], histories[r.id], heads_of[r.id], {row[3] for row in logs[r.id]})
            for r in records
            if r.id in states
        ]
        return lives, errors | failed

    async def _rebuild(self, game_id: int, history: History, heads: Collection[int]) -> GameState:
        """The position of ``history``: the newest sound snapshot, then the actions after it."""
        states, errors = await self._rebuild_many([(game_id, history, heads)])
        if errors:
            raise errors[game_id]
        return states[game_id]

    async def _rebuild_many(
        self, jobs: Sequence[_Job]
    ) -> tuple[dict[int, GameState], dict[int, CorruptLogError]]:
        """Each game's position: its newest sound snapshot, then the effective actions after it."""
        bases = await self._base_states(jobs)
        bodies = await self._bodies_after({game_id: base for game_id, (base, _) in bases.items()})
        states: dict[int, GameState] = {}
        errors: dict[int, CorruptLogError] = {}
        for game_id, history, _ in jobs:
            base, state = bases[game_id]
            wanted = history.effective[history.effective.index(base) + 1 :]
            try:
                for seq in wanted:
                    _replay(game_id, state, seq, bodies.get(game_id, {}).get(seq))
            except CorruptLogError as error:
                errors[game_id] = error
                continue
            states[game_id] = state
        return states, errors

    async def _base_states(self, jobs: Sequence[_Job]) -> dict[int, tuple[int, GameState]]:
        """Each game's newest snapshot in effect (read together); per game when it is unsound."""
        newest = {game_id: _newest_in_effect(history, heads) for game_id, history, heads in jobs}
        rows = await self._read_pairs(
            "WITH wanted (game_id, head_seq) AS (VALUES {values})"
            " SELECT game_id, head_seq, state, state_hash FROM snapshots JOIN wanted"
            " USING (game_id, head_seq)",
            [(game_id, head) for game_id, head in newest.items() if head is not None],
        )
        found: dict[int, tuple[int, GameState]] = {}
        for game_id, head, text, digest in rows:
            state = _sound_snapshot(game_id, head, text, digest)
            if state is not None:
                found[game_id] = (head, state)
        for game_id, history, heads in jobs:
            if game_id not in found:
                older = [h for h in heads if h != newest[game_id]]
                found[game_id] = await self._base_state(game_id, history, older)
        return found

    async def _bodies_after(self, bases: Mapping[int, int]) -> dict[int, dict[int, str]]:
        """The action bodies of each game after its base entry: game -> seq -> body."""
        rows = await self._read_pairs(
            "WITH base (game_id, seq) AS (VALUES {values})"
            " SELECT a.game_id, a.seq, a.body FROM base AS b CROSS JOIN action_log AS a"
            " ON a.game_id = b.game_id AND a.seq > b.seq WHERE a.kind = 'action'",
            list(bases.items()),
        )
        out: dict[int, dict[int, str]] = {}
        for game_id, seq, body in rows:
            out.setdefault(game_id, {})[seq] = body
        return out

    async def _base_state(
        self, game_id: int, history: History, heads: Collection[int]
    ) -> tuple[int, GameState]:
        """The newest snapshot in effect whose hash matches, or the phase's start entry."""
        in_effect = set(history.effective)
        for head in sorted((h for h in heads if h in in_effect), reverse=True):
            rows = await self._read(
                "SELECT state, state_hash FROM snapshots WHERE game_id = ? AND head_seq = ?",
                (game_id, head),
            )
            state = _sound_snapshot(game_id, head, *rows[0]) if rows else None
            if state is not None:
                return head, state
        body = await self._body(game_id, history.start)
        return history.start, GameState.from_dict(body)

    def _apply(self, live: _Live, action: Action) -> tuple[Event, ...]:
        """Apply to the live position; an engine failure other than a refusal drops it."""
        try:
            return tuple(live.state.apply(action))
        except RulesError:
            raise
        except BaseException:
            self._live.pop(live.record.id, None)
            raise

    async def _write(
        self, live: _Live, history: History, state: GameState, row: _Row
    ) -> SubmitResult:
        """Commit ``row`` (and a snapshot when due), then make ``history``/``state`` live.

        On any failure the cached game is dropped, to be reloaded from disk on next use.
        """
        game_id = live.record.id
        try:
            due = row.kind == "start" or history.since(live.snapshot_heads) >= self._snapshot_every
            snapshot = _snapshot_of(history, state) if due else None
            if snapshot is None:
                async with self._db_lock:  # one statement: a transaction of its own
                    await _insert_entry(self._db, game_id, row)
            else:
                async with self._transaction() as db:
                    await _insert_entry(db, game_id, row)
                    await _insert_snapshot(db, game_id, snapshot)
        except BaseException:
            self._live.pop(game_id, None)
            raise
        live.history, live.state = history, state
        live.keys.add(row.key)
        if snapshot is not None:
            live.snapshot_heads.add(snapshot.head)
        return SubmitResult(row.seq, row.events, state)

    async def _check_moderator(
        self, record: GameRecord, user_id: int, what: str, authorised: bool
    ) -> None:
        """A listed moderator, or ``authorised``: the application checked the user
        itself (a holder of the game's moderator role, who is never listed)."""
        _check_active(record)
        if not authorised and not await self.is_moderator(record.id, user_id):
            raise NotModeratorError(
                f"only a moderator of game #{record.id} may {what}; user {user_id} is not one"
            )

    # -- internals: SQL ------------------------------------------------------------

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        async with self._db_lock:
            return list(await self._db.execute_fetchall(sql, params))

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

    async def _earlier(self, live: _Live, key: str) -> LogEntry | None:
        """The log entry already holding ``key``, if any (keys are cached with the game)."""
        if key not in live.keys:
            return None
        return await self._entry_with_key(live.record.id, key)

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction; requests of all games share the connection, hence the lock."""
        async with self._db_lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                await self._db.execute("COMMIT")
            except BaseException:
                await _rollback(self._db)
                raise

    async def _entry_with_key(self, game_id: int, key: str) -> LogEntry | None:
        rows = await self._read(
            "SELECT seq, kind, actor, idem_key, body, target, events, created_at"
            " FROM action_log WHERE game_id = ? AND idem_key = ?",
            (game_id, key),
        )
        return _log_entry(rows[0]) if rows else None

    async def _body(self, game_id: int, seq: int) -> Any:
        rows = await self._read(
            "SELECT body FROM action_log WHERE game_id = ? AND seq = ?", (game_id, seq)
        )
        if not rows or rows[0][0] is None:
            raise CorruptLogError(f"game #{game_id}: log entry #{seq} is missing")
        return json.loads(rows[0][0])


_GAME_COLUMNS = (
    "SELECT id, guild_id, channels, options, variants, deadlines, status, created_at FROM games"
)
_LOG_HEADERS = (
    "SELECT game_id, seq, kind, target, idem_key FROM action_log WHERE game_id IN ({ids})"
    " ORDER BY game_id, seq"
)
_SNAPSHOT_HEADS = "SELECT game_id, head_seq FROM snapshots WHERE game_id IN ({ids})"


async def _insert_entry(db: aiosqlite.Connection, game_id: int, row: _Row) -> None:
    await db.execute(
        "INSERT INTO action_log"
        " (game_id, seq, kind, target, actor, body, events, idem_key, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            game_id,
            row.seq,
            row.kind,
            row.target,
            row.actor,
            row.body,
            _events_json(row.events),
            row.key,
            _now(),
        ),
    )


async def _insert_snapshot(db: aiosqlite.Connection, game_id: int, snapshot: _Snapshot) -> None:
    await db.execute(
        "INSERT OR IGNORE INTO snapshots (game_id, head_seq, state, state_hash, created_at)"
        " VALUES (?, ?, ?, ?, ?)",
        (game_id, snapshot.head, snapshot.text, snapshot.digest, _now()),
    )


async def _rollback(db: aiosqlite.Connection) -> None:
    """Roll back whatever transaction is open (statements run in order on the connection's
    thread, so a BEGIN still queued is rolled back too)."""
    try:
        await db.execute("ROLLBACK")
    except sqlite3.OperationalError as error:  # no transaction was open after all
        log.debug("rollback: %s", error)


# -- helpers --------------------------------------------------------------------


def state_hash(state: GameState) -> str:
    """sha256 (hex) of the position's canonical JSON."""
    return _sha256(_canonical(state.to_dict()))


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _event(data: dict[str, Any]) -> Event:
    """A stored event: the engine's, or one of the log's own (undone, redone, started)."""
    log_event = LOG_EVENTS.get(str(data.get("type")))
    return log_event.read(data) if log_event else Event.from_dict(data)


def _events_json(events: Iterable[Event]) -> str:
    """Events keep their field order: the stored JSON stays as it always was."""
    return json.dumps([event.to_dict() for event in events], separators=(",", ":"))


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _started(seq: int) -> tuple[Event, ...]:
    return (PhaseStarted(seq),)


def _snapshot_text(head: int, text: str) -> _Snapshot:
    return _Snapshot(head, text, _sha256(text))


def _snapshot_of(history: History, state: GameState) -> _Snapshot:
    return _snapshot_text(history.head, _canonical(state.to_dict()))


def _sound_snapshot(game_id: int, head: int, text: str, digest: str) -> GameState | None:
    """The snapshot's position, or None (with a warning) when its hash or content is bad."""
    if _sha256(text) != digest:
        log.warning("game #%d: snapshot at entry #%d fails its hash check; skipped", game_id, head)
        return None
    try:
        return GameState.from_dict(json.loads(text))
    except (ValueError, KeyError, TypeError) as error:
        log.warning(
            "game #%d: snapshot at entry #%d is unreadable (%s); skipped", game_id, head, error
        )
        return None


def _histories(
    ids: Sequence[int], logs: Mapping[int, list[Any]]
) -> tuple[dict[int, History], dict[int, CorruptLogError]]:
    histories: dict[int, History] = {}
    errors: dict[int, CorruptLogError] = {}
    for game_id in ids:
        try:
            history = History.of(row[:3] for row in logs.get(game_id, ()))
            if not history.effective:
                raise CorruptLogError("the log has no start entry")
        except CorruptLogError as error:
            errors[game_id] = CorruptLogError(f"game #{game_id}: {error}")
        else:
            histories[game_id] = history
    return histories, errors


def _newest_in_effect(history: History, heads: Collection[int]) -> int | None:
    in_effect = set(history.effective)
    return max((head for head in heads if head in in_effect), default=None)


def _chunks(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _replay(game_id: int, state: GameState, seq: int, body: str | None) -> None:
    if body is None:
        raise CorruptLogError(f"game #{game_id}: action entry #{seq} is missing")
    try:
        state.apply(_logged_action(json.loads(body)))
    except RulesError as error:
        raise CorruptLogError(
            f"game #{game_id}: action entry #{seq} is refused on replay: {error}"
        ) from error


def _logged_action(body: Any) -> Action:
    """A logged action; a ``pass`` with a ``prompt`` (how declines were logged before
    the ``decline`` action existed) is read as that decline."""
    if isinstance(body, dict) and body.get("action") == "pass" and body.get("prompt"):
        body = {"action": "decline", "faction": body.get("faction"), "prompt": body["prompt"]}
    return action_from_dict(body)


def _duplicate(live: _Live, earlier: LogEntry, kind: Kind, body: str | None) -> SubmitResult:
    """The stored result of a request already in the log, if it is the same request."""
    same_body = body is None or _canonical(earlier.body) == body
    if earlier.kind != kind or not same_body:
        raise KeyReusedError(
            f"idempotency key {earlier.key!r} of game #{live.record.id} was already used"
            f" for entry #{earlier.seq} ({earlier.kind}), a different request"
        )
    return SubmitResult(earlier.seq, earlier.events, live.state, duplicate=True)


def _check_active(record: GameRecord) -> None:
    if not record.is_active:
        raise GameFinishedError(f"game #{record.id} is finished")


def _loaded(live: _Live) -> LoadedGame:
    history = live.history
    return LoadedGame(
        live.record, live.state, history.last_seq, len(history.effective) > 1, bool(history.undone)
    )


def _record(row: Sequence[Any]) -> GameRecord:
    game_id, guild_id, channels, options, variants, deadlines, status, created_at = row
    return GameRecord(
        id=game_id,
        guild_id=guild_id,
        channels=json.loads(channels),
        options=json.loads(options),
        variants=tuple(json.loads(variants)),
        deadlines={k: datetime.fromisoformat(v) for k, v in json.loads(deadlines).items()},
        status=status,
        created_at=datetime.fromisoformat(created_at),
    )


def _log_entry(row: Sequence[Any]) -> LogEntry:
    seq, kind, actor, key, body, target, events, created_at = row
    return LogEntry(
        seq=seq,
        kind=kind,
        actor=actor,
        key=key,
        body=None if body is None else json.loads(body),
        target=target,
        events=tuple(_event(e) for e in json.loads(events)),
        created_at=datetime.fromisoformat(created_at),
    )


def _deadlines_json(deadlines: Mapping[str, datetime]) -> str:
    for name, when in deadlines.items():
        if when.tzinfo is None:
            raise ValueError(f"deadline {name!r} needs a timezone: {when.isoformat()}")
    return _canonical({k: v.astimezone(UTC).isoformat() for k, v in deadlines.items()})


# -- connection set-up and migrations ---------------------------------------------

_MIGRATION_FILE = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


async def _configure(db: aiosqlite.Connection) -> None:
    await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    ((mode,),) = await db.execute_fetchall("PRAGMA journal_mode = WAL")
    if mode != "wal":
        raise StoreError(f"the database cannot use WAL mode (journal mode is {mode!r})")
    await db.execute("PRAGMA synchronous = FULL")
    await db.execute("PRAGMA foreign_keys = ON")


def read_migrations() -> list[Migration]:
    """The migrations of ``bot/migrations``: files ``NNNN_name.sql`` numbered 1, 2, 3..."""
    folder = resources.files("bot").joinpath("migrations")
    found = [
        _migration(entry.name, entry.read_text("utf-8"))
        for entry in folder.iterdir()
        if entry.name.endswith(".sql")
    ]
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise SchemaError(f"migrations must be numbered 1, 2, 3... without gaps, not {versions}")
    return found


def _migration(filename: str, sql: str) -> Migration:
    match = _MIGRATION_FILE.match(filename)
    if match is None:
        raise SchemaError(f"migration file {filename!r} is not named like 0001_name.sql")
    return Migration(int(match[1]), match[2], sql)


async def _migrate(db: aiosqlite.Connection, migrations: Sequence[Migration]) -> None:
    """Apply the pending migrations in one transaction, recording each in schema_migrations."""
    await db.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations"
        " (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    await db.execute("BEGIN IMMEDIATE")
    try:
        applied = {v for (v,) in await db.execute_fetchall("SELECT version FROM schema_migrations")}
        _check_not_newer(applied, migrations)
        for migration in migrations:
            if migration.version not in applied:
                await _apply_migration(db, migration)
        await db.execute("COMMIT")
    except BaseException:
        await _rollback(db)
        raise


def _check_not_newer(applied: set[int], migrations: Sequence[Migration]) -> None:
    unknown = sorted(applied - {m.version for m in migrations})
    if unknown:
        raise SchemaError(
            f"the database has migrations {unknown} that this Mentat does not know:"
            " it was written by a newer version"
        )


async def _apply_migration(db: aiosqlite.Connection, migration: Migration) -> None:
    label = f"{migration.version:04d}_{migration.name}"
    log.info("applying migration %s", label)
    try:
        for statement in _statements(migration.sql):
            await db.execute(statement)
    except sqlite3.Error as error:
        raise SchemaError(f"migration {label} failed: {error}") from error
    await db.execute(
        "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
        (migration.version, migration.name, _now()),
    )


def _statements(sql: str) -> list[str]:
    """Split a migration into statements (a statement ends at the end of a line)."""
    statements, current = [], ""
    for line in sql.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            statements.append(current.strip())
            current = ""
    leftover = [ln for ln in current.splitlines() if ln.strip() and not ln.strip().startswith("--")]
    if leftover:
        raise SchemaError(f"migration ends inside a statement: {leftover[0]!r}")
    return statements


__all__ = [
    "CREATE_KEY",
    "SYSTEM_ACTOR",
    "CorruptLogError",
    "GameFinishedError",
    "GameRecord",
    "History",
    "KeyReusedError",
    "LoadedGame",
    "LogEntry",
    "Migration",
    "NotModeratorError",
    "NothingToRedoError",
    "NothingToUndoError",
    "SchemaError",
    "Store",
    "StoreError",
    "SubmitResult",
    "UnknownGameError",
    "read_migrations",
    "state_hash",
]
