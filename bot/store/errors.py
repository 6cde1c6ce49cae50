"""What the store and the ledger refuse: every error means nothing was written."""

from __future__ import annotations

from rules.errors import MentatError, quote


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


class LogConflictError(StoreError):
    """The entry's seq or key is already in the game's log: another writer (a process that
    took the game over, or this one before a failure) got there first. The log's unique
    constraints refused it; the ledger reloads the game before its next request."""


def log_conflict(game_id: int, seq: int, key: str, cause: BaseException) -> LogConflictError:
    """The refusal of an entry whose seq or key another writer took first."""
    return LogConflictError(
        f"game #{game_id} moved on elsewhere: its log already holds entry #{seq} or key"
        f" {quote(key)} (unique constraint: {cause}); nothing was written and the game"
        " reloads: please try again"
    )
