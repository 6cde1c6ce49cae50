"""The one interface between the store and a database: rows in, rows out.

A backend holds the SQL and nothing else: no JSON decoding, no rules, no games in memory.
Values are plain text and numbers (JSON columns arrive and leave as text), so every backend
stores exactly the same thing. :class:`bot.store.sqlite.SQLiteBackend` is the one there is; a
second (PostgreSQL) implements this protocol and runs the same tests (tests/bot/store).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

Header = tuple[int, str, int | None, str]
"""A log entry's seq, kind, target and idempotency key: enough to compute the history."""
PingPrefsRow = tuple[int, str, str, str, int, int, int, int]
"""A user's pings in a server: user id, quiet hours' start, end and zone ('' : none),
the reminder interval in minutes (0: none), heads-up, digest, DMs closed (0 or 1)."""
PingMarkRow = tuple[int, str, str, str]
"""The last ping of one kind a user was sent in a game: user id, kind, key, when (ISO)."""


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    guild_id: int
    channels: str  # JSON object: role -> channel id
    variants: str  # JSON array
    status: str
    created_at: str
    settings: tuple[Any, ...]  # the values of bot.settings.COLUMNS


@dataclass(frozen=True, slots=True)
class EntryRow:
    seq: int
    kind: str
    actor: int
    key: str
    body: str | None  # JSON
    target: int | None
    events: str  # JSON array
    created_at: str


TenureRow = tuple[int, str, int, str, int | None]
"""A tenure of a seat: game id, faction, user id, since (ISO-8601 UTC), its first turn."""
AnswerRow = tuple[int, int, int, str, str | None, str, str | None]
"""An action of the log, light: game id, seq, actor, idempotency key, the faction it names
(None: none), its time and the time of the entry before it (ISO-8601 UTC)."""


@dataclass(frozen=True, slots=True)
class SnapshotRow:
    game_id: int
    head: int
    text: str  # JSON of the position
    digest: str  # sha256 hex of text


class Backend(Protocol):
    """A database holding games, seats, moderators, the append-only log and snapshots.

    Each method is one transaction: it happens whole or not at all, and it has happened
    (durably) when it returns.
    """

    async def close(self) -> None: ...

    async def create_game(
        self, game: GameRow, start: EntryRow, snapshot: SnapshotRow, moderators: Sequence[int]
    ) -> int:
        """Insert the game (``game.id`` is ignored), its settings, start entry, first snapshot
        and moderators; returns the new id."""
        ...

    async def game(self, game_id: int) -> GameRow | None: ...

    async def games(self, guild_id: int | None, active_only: bool) -> list[GameRow]:
        """Oldest first."""
        ...

    async def set_settings(self, game_id: int, values: tuple[Any, ...]) -> bool:
        """False when there is no such game."""
        ...

    async def set_status(self, game_id: int, status: str) -> bool: ...

    async def set_channels(self, game_id: int, channels: str) -> bool: ...

    async def keep_undelivered(self, game_id: int, payloads: Sequence[str]) -> None: ...

    async def take_undelivered(self, game_id: int) -> list[str]:
        """The kept payloads of the game, in order, removed from the store."""
        ...

    async def set_seat(
        self, game_id: int, faction: str, user_id: int, since: str, turn: int | None
    ) -> None:
        """Seat ``user_id`` and add the tenure that begins ``since`` (in game turn ``turn``)
        to the seat's history."""
        ...

    async def tenures(self, guild_id: int, user_id: int) -> list[TenureRow]:
        """Every tenure of every game of the server in which ``user_id`` held a seat, each
        game's and faction's in order."""
        ...

    async def answers(self, game_ids: Sequence[int], user_id: int) -> list[AnswerRow]:
        """The actions of these games by ``user_id`` and the bot's defaults at a deadline
        (a key with ``:deadline:``), light: no bodies, no events (each game's in order)."""
        ...

    async def first_actions(self, game_ids: Sequence[int]) -> dict[int, str]:
        """The time of each game's first action (a game without one is left out)."""
        ...

    async def seats(self, game_id: int) -> list[tuple[str, int]]: ...

    async def add_moderator(self, game_id: int, user_id: int) -> None: ...

    async def remove_moderator(self, game_id: int, user_id: int) -> None: ...

    async def moderators(self, game_id: int) -> list[int]: ...

    async def append(self, game_id: int, entry: EntryRow, snapshot: SnapshotRow | None) -> None:
        """Add ``entry`` (and ``snapshot``) to the log; fails if its seq or key is taken."""
        ...

    async def entry_with_key(self, game_id: int, key: str) -> EntryRow | None: ...

    async def entry_at(self, game_id: int, seq: int) -> EntryRow | None: ...

    async def entries(self, game_id: int) -> list[EntryRow]:
        """The whole log, oldest first."""
        ...

    async def headers(self, game_ids: Sequence[int]) -> dict[int, list[Header]]:
        """Each game's log headers, oldest first."""
        ...

    async def snapshot_heads(self, game_ids: Sequence[int]) -> dict[int, set[int]]: ...

    async def snapshots(self, wanted: Sequence[tuple[int, int]]) -> list[SnapshotRow]:
        """The snapshots at these (game id, head seq) pairs that exist."""
        ...

    async def action_bodies_after(
        self, bases: Sequence[tuple[int, int]]
    ) -> list[tuple[int, int, str]]:
        """(game id, seq, body) of every ``action`` entry after each (game id, seq) base."""
        ...

    async def add_snapshots(self, snapshots: Sequence[SnapshotRow]) -> None:
        """Keep these snapshots (one already stored at a head is kept as it is)."""
        ...

    async def volunteers_channel(self, guild_id: int) -> int | None:
        """The server's channel for "seat open" posts (None: none chosen)."""
        ...

    async def set_volunteers_channel(self, guild_id: int, channel_id: int | None) -> None: ...

    async def ping_prefs(self, guild_id: int) -> list[PingPrefsRow]:
        """The ping preferences of every user of the server who set any."""
        ...

    async def set_ping_prefs(self, guild_id: int, row: PingPrefsRow) -> None:
        """Keep one user's ping preferences (replacing theirs)."""
        ...

    async def ping_marks(self, game_id: int) -> list[PingMarkRow]:
        """The last ping of each kind sent to each user in the game."""
        ...

    async def set_ping_marks(self, game_id: int, rows: Sequence[PingMarkRow]) -> None:
        """Keep these marks, each replacing the one of its user and kind, all or none."""
        ...
