"""Persistence: games, their settings, seats, moderators and append-only logs.

- :mod:`bot.store.store`: :class:`Store`, which appends log entries and reads them back;
- :mod:`bot.store.history`: which entries are in effect (undo/redo), without a database;
- :mod:`bot.store.migrations`: the numbered schema migrations of ``bot/migrations``;
- :mod:`bot.store.backend`: the interface to a database; :mod:`bot.store.sqlite` (the
  default, one process) and :mod:`bot.store.postgres` (several processes, ``DATABASE_URL``)
  implement it and are the only modules with SQL;
- :mod:`bot.store.events`: the log's own events (undone, redone, phase started);
- :mod:`bot.store.errors`: what is refused.

The live game built from a log is :class:`bot.ledger.Ledger`.
"""

from bot.store.errors import (
    CorruptLogError,
    GameFinishedError,
    KeyReusedError,
    LogConflictError,
    NothingToRedoError,
    NothingToUndoError,
    NotModeratorError,
    SchemaError,
    StoreError,
    UnknownGameError,
)
from bot.store.events import PhaseStarted, Redone, Undone
from bot.store.history import History, Kind
from bot.store.migrations import Migration, read_migrations
from bot.store.store import (
    CREATE_KEY,
    DEFAULT_SNAPSHOT_EVERY,
    SYSTEM_ACTOR,
    Answer,
    Entry,
    GameRecord,
    LogEntry,
    Store,
    Tenure,
    state_hash,
)

__all__ = [
    "CREATE_KEY",
    "DEFAULT_SNAPSHOT_EVERY",
    "SYSTEM_ACTOR",
    "Answer",
    "CorruptLogError",
    "Entry",
    "GameFinishedError",
    "GameRecord",
    "History",
    "KeyReusedError",
    "Kind",
    "LogConflictError",
    "LogEntry",
    "Migration",
    "NotModeratorError",
    "NothingToRedoError",
    "NothingToUndoError",
    "PhaseStarted",
    "Redone",
    "SchemaError",
    "Store",
    "StoreError",
    "Tenure",
    "Undone",
    "UnknownGameError",
    "read_migrations",
    "state_hash",
]
