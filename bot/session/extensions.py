"""A deadline extended per faction (issue 25): a moderator gives one awaited faction more
time than the wait's deadline (``/mod extend faction:``).

Each extension is kept as the time the faction has *beyond* the wait's deadline, so a pause,
a resume or an extension of the whole wait moves it with the wait. It holds for the wait it
was given in only: a new wait clears it. When the wait's deadline passes, the factions not
extended get their defaults as before, and the deadline moves on to the earliest extended
faction's own (:meth:`Extensions.expire`). Whom the game waits on and for how long stays a
function of public facts: the extension is the moderator's public act, told to the table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timedelta

from bot.session.prompts import deadline_text
from bot.session.timing import Deadline
from bot.waits import Wait
from rules.factions import Faction

LONGEST = timedelta(days=7)
"""The most a moderator's single extension adds (as ``/mod extend minutes:`` allows)."""


class Extensions:
    """Each extended faction's time beyond the current wait's deadline."""

    def __init__(self, deadline: Deadline, asked: Callable[[], Wait | None]) -> None:
        self._deadline = deadline
        self._asked = asked  # the wait the session asked (and timed) now
        self._key: str | None = None  # the wait the extensions were given in
        self._extra: dict[Faction, timedelta] = {}

    def now(self) -> dict[Faction, timedelta]:
        """The extensions of the current wait (none once another wait is asked)."""
        wait = self._asked()
        if wait is None or wait.key != self._key:
            return {}
        return {f: extra for f, extra in self._extra.items() if f in wait.factions}

    def restore(self, key: str, extra: Mapping[Faction, timedelta]) -> None:
        """As saved with the session's timers, for the wait ``key`` (after a restart)."""
        self._key, self._extra = key, dict(extra)

    def own(self, faction: Faction) -> datetime | None:
        """``faction``'s own deadline, if it was extended in the current wait."""
        extra, at = self.now().get(faction), self._deadline.at
        return None if extra is None or at is None else at + extra

    def text(self, faction: Faction) -> str:
        """``faction``'s deadline in Discord's timestamps (its own, if extended)."""
        own = self.own(faction)
        if own is None or self._deadline.paused:
            return self._deadline.text()
        return deadline_text(own, None)

    def extend(self, wait: Wait, faction: Faction, by: timedelta) -> datetime | None:
        """``by`` more for ``faction`` alone in ``wait``; returns its own deadline (None:
        nothing is timed yet)."""
        current = self.now()
        self._key = wait.key
        self._extra = {**current, faction: current.get(faction, timedelta()) + by}
        at = self._deadline.at
        if self._deadline.paused_left is not None:
            at = self._deadline.clock.now() + self._deadline.paused_left
        return None if at is None else at + self._extra[faction]

    def due(self, factions: Iterable[Faction]) -> tuple[Faction, ...]:
        """Of ``factions``, those whose time is up at the wait's deadline (not extended)."""
        later = self.now()
        return tuple(f for f in factions if later.get(f, timedelta()) <= timedelta())

    def expire(self) -> datetime | None:
        """The wait's deadline passed and the factions due had their defaults: the deadline
        moves to the earliest extended faction's own (returned; None: nobody extended), the
        other extensions counted from it."""
        later = {f: extra for f, extra in self.now().items() if extra > timedelta()}
        at = self._deadline.at
        if not later or at is None:
            return None
        step = min(later.values())
        self._extra = {f: extra - step for f, extra in later.items()}
        return at + step
