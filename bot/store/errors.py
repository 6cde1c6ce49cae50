"""What the store and the ledger refuse: every error means nothing was written."""

from __future__ import annotations

from rules.errors import MentatError


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
