"""The store: games, their settings, seats and moderators, and each game's append-only log.

It only appends log entries and reads them back (see :mod:`bot.ledger` for the live game built
from them). Values go in and come out as the application's types; the database behind is a
:class:`bot.store.backend.Backend`: :class:`bot.store.sqlite.SQLiteBackend` (one process) or
:class:`bot.store.postgres.PostgresBackend` (several processes over one database).

- **The log is the truth.** Every accepted request is one entry, numbered per game and carrying
  an idempotency key unique per game: ``start`` (a phase's start position), ``action``, ``undo``
  or ``redo`` (see :mod:`bot.store.history`). Entries are never changed or deleted.
- **Snapshots are a cache**, keyed by the last effective entry they include and checked
  against their sha256 when read: a damaged one is skipped with a warning, so it costs time,
  never data.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from types import TracebackType
from typing import Any

from bot.pings import PingMark, PingPrefs, PingsError, QuietHours
from bot.settings import GameSettings, from_columns, to_columns
from bot.shards import Shards
from bot.store.backend import Backend, EntryRow, GameRow, Header, PingPrefsRow, SnapshotRow
from bot.store.errors import CorruptLogError, UnknownGameError
from bot.store.events import PhaseStarted, read_event
from bot.store.history import Kind
from bot.store.migrations import Migration, read_migrations
from bot.store.postgres import PostgresBackend, is_url
from bot.store.sqlite import SQLiteBackend
from rules.events import Event
from rules.factions import Faction
from rules.game import GameState

log = logging.getLogger(__name__)

SYSTEM_ACTOR = 0
"""The actor id of requests the bot makes itself (e.g. closing prompts at a deadline)."""
DEFAULT_SNAPSHOT_EVERY = 10
CREATE_KEY = "mentat:create"
"""The idempotency key of the ``start`` entry written by :meth:`Store.create_game`."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game as created, with its settings."""

    id: int
    guild_id: int
    channels: Mapping[str, int]
    variants: tuple[str, ...]
    status: str
    created_at: datetime
    settings: GameSettings

    @property
    def is_active(self) -> bool:
        return self.status == "active"


@dataclass(frozen=True, slots=True)
class Entry:
    """A log entry to append. ``body`` is the start position's dict (``start``), the action's
    dict (``action``) or None (``undo``/``redo``, whose ``target`` is the action entry's seq)."""

    seq: int
    kind: Kind
    actor: int
    key: str
    body: Any
    target: int | None
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One entry of the log as stored."""

    seq: int
    kind: Kind
    actor: int
    key: str
    body: Any
    target: int | None
    events: tuple[Event, ...]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Tenure:
    """One player's hold on one faction's seat from ``since`` until the next tenure of the
    same seat (or the game's end)."""

    game_id: int
    faction: Faction
    user_id: int
    since: datetime
    turn: int | None = None  # the game turn it began in (None: before turn 1, or a phase)


@dataclass(frozen=True, slots=True)
class Answer:
    """One action of the log without its body or events: the actor (0: the bot), its key
    (a deadline's default has ``:deadline:`` in it), the faction it names, its time and the
    time of the entry before it (when what the game waited on last changed)."""

    game_id: int
    seq: int
    actor: int
    key: str
    faction: Faction | None
    at: datetime
    previous: datetime


class Store:
    """Every game in one database. Open with :meth:`open`; close with :meth:`close` or
    ``async with``."""

    def __init__(
        self,
        backend: Backend,
        *,
        snapshot_every: int = DEFAULT_SNAPSHOT_EVERY,
        shards: Shards | None = None,
    ) -> None:
        if snapshot_every < 1:
            raise ValueError(f"snapshot_every must be at least 1, not {snapshot_every}")
        self.backend = backend
        self.snapshot_every = snapshot_every
        """A game's ledger snapshots its position every this many effective actions."""
        self.shards = shards
        """This process's Discord shards: :meth:`games` lists only the games of their servers
        (None: every game; one process serves them all)."""
        self._closed = False

    @classmethod
    async def open(
        cls,
        location: str | os.PathLike[str],
        *,
        snapshot_every: int = DEFAULT_SNAPSHOT_EVERY,
        migrations: Sequence[Migration] | None = None,
        shards: Shards | None = None,
    ) -> Store:
        """Open the database at ``location``, its schema brought up to date: a PostgreSQL
        URL (``postgresql://...``, :mod:`bot.store.postgres`) or else the path of a SQLite
        file, created if needed.

        ``migrations`` defaults to the files of ``bot/migrations`` for the database's kind.
        Raises :class:`SchemaError` when a migration fails or the database is newer than the
        code, :class:`StoreError` when a PostgreSQL server cannot be reached.
        """
        if snapshot_every < 1:
            raise ValueError(f"snapshot_every must be at least 1, not {snapshot_every}")
        backend: Backend
        if is_url(location):
            chosen = read_migrations("postgres") if migrations is None else migrations
            backend = await PostgresBackend.open(str(location), chosen)
        else:
            chosen = read_migrations() if migrations is None else migrations
            backend = await SQLiteBackend.open(location, chosen)
        return cls(backend, snapshot_every=snapshot_every, shards=shards)

    async def close(self) -> None:
        """Close the database (idempotent). Checkpoint the ledgers first to spare the next
        start-up their replay (:meth:`bot.ledger.Ledger.checkpoint_all`)."""
        if not self._closed:
            self._closed = True
            await self.backend.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # -- games ----------------------------------------------------------------------

    async def create_game(
        self,
        guild_id: int,
        start_state: GameState,
        *,
        channels: Mapping[str, int] | None = None,
        settings: GameSettings | None = None,
        variants: Sequence[str] = (),
        moderators: Iterable[int] = (),
        created_by: int = SYSTEM_ACTOR,
    ) -> int:
        """Create a game starting at ``start_state`` and return its id."""
        now = _now()
        game = GameRow(
            0,
            guild_id,
            canonical(dict(channels or {})),
            canonical(list(variants)),
            "active",
            now,
            to_columns(settings or GameSettings()),
        )
        body = start_state.to_dict()
        start = _entry_row(Entry(1, "start", created_by, CREATE_KEY, body, None, started(1)))
        snapshot = _snapshot_row(0, 1, start_state)
        game_id = await self.backend.create_game(game, start, snapshot, list(moderators))
        log.info("created game %d in guild %d", game_id, guild_id)
        return game_id

    async def game(self, game_id: int) -> GameRecord:
        """The game ``game_id``; raises :class:`UnknownGameError`."""
        row = await self.backend.game(game_id)
        if row is None:
            raise UnknownGameError(f"there is no game #{game_id}")
        return _record(row)

    async def games(
        self, guild_id: int | None = None, *, active_only: bool = True
    ) -> list[GameRecord]:
        """The games of one Discord server (or of all this process serves), oldest first."""
        rows = await self.backend.games(guild_id, active_only)
        if self.shards is not None:
            rows = [row for row in rows if self.shards.owns(row.guild_id)]
        return [_record(row) for row in rows]

    async def settings(self, game_id: int) -> GameSettings:
        return (await self.game(game_id)).settings

    async def set_settings(self, game_id: int, settings: GameSettings) -> None:
        """Replace the game's settings, whole, in one statement."""
        if not await self.backend.set_settings(game_id, to_columns(settings)):
            raise UnknownGameError(f"there is no game #{game_id}")

    async def set_channels(self, game_id: int, channels: Mapping[str, int]) -> None:
        """Bind the game to new channels (role: channel id; the others stay), e.g. after a
        moderator's repair."""
        record = await self.game(game_id)
        merged = {**record.channels, **channels}
        if not await self.backend.set_channels(game_id, canonical(merged)):
            raise UnknownGameError(f"there is no game #{game_id}")

    async def keep_undelivered(self, game_id: int, payloads: Sequence[Mapping[str, Any]]) -> None:
        """Keep the messages the game's delivery could not send (replacing any kept)."""
        await self.backend.keep_undelivered(game_id, [canonical(dict(p)) for p in payloads])

    async def take_undelivered(self, game_id: int) -> list[dict[str, Any]]:
        """The kept messages of the game, in order; they are no longer kept."""
        return [json.loads(p) for p in await self.backend.take_undelivered(game_id)]

    async def finish_game(self, game_id: int) -> None:
        """Mark the game finished: it is no longer loaded at start-up and takes no requests."""
        if not await self.backend.set_status(game_id, "finished"):
            raise UnknownGameError(f"there is no game #{game_id}")

    async def reopen_game(self, game_id: int) -> None:
        """Mark a finished game active again (a moderator took its last action back)."""
        if not await self.backend.set_status(game_id, "active"):
            raise UnknownGameError(f"there is no game #{game_id}")

    # -- seats and moderators ---------------------------------------------------------

    async def seat(
        self, game_id: int, user_id: int, faction: Faction, *, turn: int | None = None
    ) -> None:
        """Give ``faction``'s seat to ``user_id`` (replacing whoever held it), from game turn
        ``turn`` (None: before turn 1); the tenure is kept."""
        await self.game(game_id)
        await self.backend.set_seat(game_id, faction.value, user_id, _now(), turn)

    async def seats(self, game_id: int) -> dict[Faction, int]:
        """The Discord user holding each seated faction."""
        await self.game(game_id)
        return {Faction(f): user for f, user in await self.backend.seats(game_id)}

    async def tenures(self, guild_id: int, user_id: int) -> list[Tenure]:
        """Every tenure of every seat of the server's games ``user_id`` ever held a seat in
        (theirs and the others', so that each tenure's end is known), in order."""
        return [
            Tenure(game, Faction(faction), user, datetime.fromisoformat(since), turn)
            for game, faction, user, since, turn in await self.backend.tenures(guild_id, user_id)
        ]

    async def answers(self, game_ids: Sequence[int], user_id: int) -> list[Answer]:
        """The actions of these games by ``user_id`` and the bot's defaults at a deadline,
        without bodies or events: who did what for whom, when, and when the entry before."""
        return [
            Answer(
                game, seq, actor, key, Faction.parse(faction or ""), _time(at), _time(before or at)
            )
            for game, seq, actor, key, faction, at, before in await self.backend.answers(
                game_ids, user_id
            )
        ]

    async def first_actions(self, game_ids: Sequence[int]) -> dict[int, datetime]:
        """When each game's first action was logged (a game without one is left out)."""
        return {g: _time(at) for g, at in (await self.backend.first_actions(game_ids)).items()}

    async def add_moderator(self, game_id: int, user_id: int) -> None:
        await self.game(game_id)
        await self.backend.add_moderator(game_id, user_id)

    async def remove_moderator(self, game_id: int, user_id: int) -> None:
        await self.backend.remove_moderator(game_id, user_id)

    async def moderators(self, game_id: int) -> frozenset[int]:
        await self.game(game_id)
        return frozenset(await self.backend.moderators(game_id))

    async def is_moderator(self, game_id: int, user_id: int) -> bool:
        return user_id in await self.moderators(game_id)

    # -- the server ---------------------------------------------------------------------

    async def volunteers_channel(self, guild_id: int) -> int | None:
        """The channel the server's moderators chose for "seat open" posts (None: none)."""
        return await self.backend.volunteers_channel(guild_id)

    async def set_volunteers_channel(self, guild_id: int, channel_id: int | None) -> None:
        await self.backend.set_volunteers_channel(guild_id, channel_id)

    # -- pings (bot.pings) ---------------------------------------------------------------

    async def ping_prefs(self, guild_id: int) -> dict[int, PingPrefs]:
        """Every user's ping preferences in the server (those who set none are absent)."""
        return {row[0]: _prefs(row) for row in await self.backend.ping_prefs(guild_id)}

    async def set_ping_prefs(self, guild_id: int, user_id: int, prefs: PingPrefs) -> None:
        quiet = prefs.quiet
        start, end, zone = (
            (f"{quiet.start:%H:%M}", f"{quiet.end:%H:%M}", quiet.zone) if quiet else ("", "", "")
        )
        minutes = int(prefs.interval.total_seconds()) // 60 if prefs.interval else 0
        flags = (int(prefs.before_me), int(prefs.digest), int(prefs.dm_closed))
        await self.backend.set_ping_prefs(guild_id, (user_id, start, end, zone, minutes, *flags))

    async def ping_marks(self, game_id: int) -> dict[tuple[int, str], PingMark]:
        """The last ping of each kind each user was sent (or owed) in the game."""
        rows = await self.backend.ping_marks(game_id)
        return {
            (user, kind): PingMark(game_id, user, kind, key, datetime.fromisoformat(at))
            for user, kind, key, at in rows
        }

    async def keep_ping_marks(self, marks: Sequence[PingMark]) -> None:
        """Keep ``marks`` (each replaces its user's and kind's in its game), one game at
        a time, each game's all or none."""
        games = sorted({m.game_id for m in marks})
        for game_id in games:
            rows = [
                (m.user_id, m.kind, m.key, m.at.astimezone(UTC).isoformat(timespec="microseconds"))
                for m in marks
                if m.game_id == game_id
            ]
            await self.backend.set_ping_marks(game_id, rows)

    # -- the log ------------------------------------------------------------------------

    async def append(
        self, game_id: int, entry: Entry, snapshot: tuple[int, GameState] | None = None
    ) -> None:
        """Commit ``entry`` (and the position ``snapshot``, ``(head seq, position)``) at once;
        returns once it is on disk."""
        row = _snapshot_row(game_id, *snapshot) if snapshot is not None else None
        await self.backend.append(game_id, _entry_row(entry), row)

    async def log(self, game_id: int) -> list[LogEntry]:
        """Every entry of the game's log, oldest first."""
        await self.game(game_id)
        return [_log_entry(row) for row in await self.backend.entries(game_id)]

    async def entry_with_key(self, game_id: int, key: str) -> LogEntry | None:
        row = await self.backend.entry_with_key(game_id, key)
        return None if row is None else _log_entry(row)

    async def body(self, game_id: int, seq: int) -> Any:
        """The body of entry ``seq``; :class:`CorruptLogError` when it is missing."""
        row = await self.backend.entry_at(game_id, seq)
        if row is None or row.body is None:
            raise CorruptLogError(f"game #{game_id}: log entry #{seq} is missing")
        return json.loads(row.body)

    async def headers(self, game_ids: Sequence[int]) -> dict[int, list[Header]]:
        """Each game's (seq, kind, target, key) log headers, oldest first."""
        return await self.backend.headers(game_ids)

    async def snapshot_heads(self, game_ids: Sequence[int]) -> dict[int, set[int]]:
        return await self.backend.snapshot_heads(game_ids)

    async def snapshots(
        self, wanted: Collection[tuple[int, int]]
    ) -> dict[tuple[int, int], GameState]:
        """The sound snapshots among the wanted (game id, head) pairs; one failing its hash
        check or unreadable is left out with a warning."""
        found: dict[tuple[int, int], GameState] = {}
        for row in await self.backend.snapshots(list(wanted)):
            state = _sound_snapshot(row)
            if state is not None:
                found[row.game_id, row.head] = state
        return found

    async def action_bodies_after(self, bases: Mapping[int, int]) -> dict[int, dict[int, str]]:
        """The action bodies (JSON text) of each game after its base entry: game -> seq."""
        out: dict[int, dict[int, str]] = {}
        for game_id, seq, body in await self.backend.action_bodies_after(list(bases.items())):
            out.setdefault(game_id, {})[seq] = body
        return out

    async def add_snapshots(self, snapshots: Iterable[tuple[int, int, GameState]]) -> None:
        """Keep the (game id, head seq, position) snapshots, in one transaction."""
        rows = [_snapshot_row(*snapshot) for snapshot in snapshots]
        if rows:
            await self.backend.add_snapshots(rows)


# -- encoding ------------------------------------------------------------------------------


def canonical(data: Any) -> str:
    """JSON with sorted keys and no spaces: equal data, equal text."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def state_hash(state: GameState) -> str:
    """sha256 (hex) of the position's canonical JSON."""
    return _sha256(canonical(state.to_dict()))


def started(seq: int) -> tuple[Event, ...]:
    """The events of a ``start`` entry."""
    return (PhaseStarted(seq),)


def _entry_row(entry: Entry) -> EntryRow:
    body = None if entry.body is None else canonical(entry.body)
    return EntryRow(
        entry.seq,
        entry.kind,
        entry.actor,
        entry.key,
        body,
        entry.target,
        _events_json(entry.events),
        _now(),
    )


def _events_json(events: Iterable[Event]) -> str:
    """Events keep their field order: the stored JSON stays as it always was."""
    return json.dumps([event.to_dict() for event in events], separators=(",", ":"))


def _snapshot_row(game_id: int, head: int, state: GameState) -> SnapshotRow:
    text = canonical(state.to_dict())
    return SnapshotRow(game_id, head, text, _sha256(text))


def _sound_snapshot(row: SnapshotRow) -> GameState | None:
    """The snapshot's position, or None (with a warning) when its hash or content is bad."""
    if _sha256(row.text) != row.digest:
        log.warning(
            "game #%d: snapshot at entry #%d fails its hash check; skipped", row.game_id, row.head
        )
        return None
    try:
        return GameState.from_dict(json.loads(row.text))
    except (ValueError, KeyError, TypeError) as error:
        log.warning(
            "game #%d: snapshot at entry #%d is unreadable (%s); skipped",
            row.game_id,
            row.head,
            error,
        )
        return None


def _record(row: GameRow) -> GameRecord:
    return GameRecord(
        id=row.id,
        guild_id=row.guild_id,
        channels=json.loads(row.channels),
        variants=tuple(json.loads(row.variants)),
        status=row.status,
        created_at=datetime.fromisoformat(row.created_at),
        settings=from_columns(row.settings),
    )


def _log_entry(row: EntryRow) -> LogEntry:
    return LogEntry(
        seq=row.seq,
        kind=row.kind,  # type: ignore[arg-type]
        actor=row.actor,
        key=row.key,
        body=None if row.body is None else json.loads(row.body),
        target=row.target,
        events=tuple(read_event(e) for e in json.loads(row.events)),
        created_at=datetime.fromisoformat(row.created_at),
    )


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _prefs(row: PingPrefsRow) -> PingPrefs:
    """A stored row as preferences; quiet hours whose zone this machine does not know (an
    older time zone database) are left out, and logged."""
    _, start, end, zone, minutes, before_me, digest, dm_closed = row
    quiet = None
    if zone:
        try:
            quiet = QuietHours(time.fromisoformat(start), time.fromisoformat(end), zone)
        except (PingsError, ValueError):
            log.warning(
                "user %d: stored quiet hours %s-%s %s are unreadable", row[0], start, end, zone
            )
    return PingPrefs(
        quiet=quiet,
        interval=timedelta(minutes=minutes) if minutes else None,
        before_me=bool(before_me),
        digest=bool(digest),
        dm_closed=bool(dm_closed),
    )
