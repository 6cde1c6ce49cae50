"""A session's deadline: when the wait it asks ends, the reminder before it, and the time
left while a moderator (or a lost table, or a stalled game) holds it paused.

:class:`Deadline` is the timer alone. The session's task sleeps until
:meth:`Deadline.next_timer` and then calls :meth:`Deadline.fire`: before the deadline it is
the reminder (once), at it the expiry. What a reminder says and what an expiry does are
the session's (``on_reminder``, ``on_expiry``); an expiry that fails is tried again a
minute later and never ends the task. While paused, nothing fires.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

from bot.clock import Clock
from bot.session.prompts import deadline_text
from rules.errors import MentatError

log = logging.getLogger(__name__)
RETRY_DEFAULT = timedelta(minutes=1)  # a deadline's default that failed is tried again

Fired = Callable[[], Awaitable[None]]
"""What a timer does when it fires (in the session's turn)."""


class Deadline:
    """The current wait's deadline: ``at`` (None: nothing is timed), whether its reminder
    went out, and ``paused_left`` (None: running; else the time left, frozen)."""

    def __init__(
        self,
        clock: Clock,
        reminder: timedelta,
        *,
        on_reminder: Fired,
        on_expiry: Fired,
        name: str = "a session",
    ) -> None:
        self.clock = clock
        self.reminder = reminder  # how long before the deadline the reminder goes out
        self._on_reminder = on_reminder
        self._on_expiry = on_expiry
        self._name = name  # for the log: "game 12"
        self.at: datetime | None = None
        self.reminded = False
        self.paused_left: timedelta | None = None

    @property
    def paused(self) -> bool:
        return self.paused_left is not None

    def text(self) -> str:
        """The deadline in Discord's timestamps, or "paused by a moderator", or "none"."""
        return deadline_text(self.at, self.paused_left)

    # -- setting it ----------------------------------------------------------------------

    def arm(self, at: datetime, *, late_reminder: bool = True) -> None:
        """A new deadline ``at``, its reminder still to go out (``late_reminder=False``: no
        reminder when its time has already passed)."""
        self.at = at
        self.reminded = not late_reminder and at - self.reminder <= self.clock.now()

    def clear(self) -> None:
        """Nothing is timed any more (a pause stays, for the next wait)."""
        self.at = None

    def restore(self, at: datetime, *, reminded: bool, paused_left: timedelta | None) -> None:
        """As it was saved (after a restart)."""
        self.at, self.reminded, self.paused_left = at, reminded, paused_left

    def pause(self) -> bool:
        """Freeze the time left; True if it was running (else nothing changes)."""
        if self.paused_left is not None or self.at is None:
            return False
        self.paused_left = self.at - self.clock.now()
        return True

    def freeze(self, left: timedelta) -> None:
        """Hold the deadline paused with ``left`` to run when resumed."""
        self.paused_left = left

    def resume(self) -> bool:
        """The time left runs again from now; True if it was paused."""
        if self.paused_left is None:
            return False
        self.at = self.clock.now() + self.paused_left
        self.paused_left = None
        return True

    def extend(self, by: timedelta) -> None:
        """``by`` more: to the time left if paused, else to the deadline (reminded again)."""
        if self.paused_left is not None:
            self.paused_left += by
        elif self.at is not None:
            self.at += by
            self.reminded = False

    # -- firing (the session's task wakes for it) -------------------------------------------

    def next_timer(self) -> datetime | None:
        """When the task should wake next: the reminder's time, then the deadline's."""
        if self.at is None or self.paused_left is not None:
            return None
        return self.at if self.reminded else self.at - self.reminder

    async def fire(self) -> None:
        """The reminder, or at the deadline the expiry; a failure never ends the task, the
        expiry is tried again a minute later."""
        try:
            await self._fire()
        except MentatError as refused:  # e.g. another process wrote the default first
            log.warning("%s: the deadline's default was refused: %s", self._name, refused)
            self._retry()
        except Exception:
            log.exception("%s: the deadline's default failed", self._name)
            self._retry()

    async def _fire(self) -> None:
        if self.at is None or self.paused_left is not None:
            return
        if self.clock.now() < self.at:
            self.reminded = True
            await self._on_reminder()
            return
        await self._on_expiry()

    def _retry(self) -> None:
        if self.at is not None and self.at <= self.clock.now():
            self.at = self.clock.now() + RETRY_DEFAULT
