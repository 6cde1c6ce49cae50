"""The log's own events: an undo, a redo, a phase start (the engine's are in rules.events).

They are stored like the engine's (``{"type": kind, field: value, ...}``); :func:`read_event`
reads back either.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from rules.events import Event


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
    """A phase began at the position logged as ``seq``."""

    kind: ClassVar[str] = "phase_started"
    seq: int


LOG_EVENTS: dict[str, type[Event]] = {e.kind: e for e in (Undone, Redone, PhaseStarted)}


def read_event(data: Mapping[str, Any]) -> Event:
    """A stored event: the engine's, or one of the log's own."""
    log_event = LOG_EVENTS.get(str(data.get("type")))
    return log_event.read(data) if log_event else Event.from_dict(data)
