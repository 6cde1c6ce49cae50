"""When a game has nothing left to do: its session and its delivery both wait.

Tests and tools move a :class:`~bot.clock.FakeClock` one wake-up at a time and need to
know when the woken task (the session, or the delivery retrying a message) has finished
reacting. Each part says when it goes busy or idle; :meth:`Activity.next_quiet` completes
the next time every part is idle at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable


class Activity:
    def __init__(self) -> None:
        self._busy: set[str] = set()
        self._quiet = asyncio.Event()

    def mark(self, part: str, *, idle: bool) -> None:
        if not idle:
            self._busy.add(part)
            return
        self._busy.discard(part)
        if not self._busy:
            self._quiet.set()
            self._quiet = asyncio.Event()

    def is_busy(self, part: str) -> bool:
        return part in self._busy

    async def until_quiet(self) -> None:
        """Returns at once if every part is idle, else the next time they all are."""
        while self._busy:
            await self.next_quiet()

    def next_quiet(self) -> Awaitable[bool]:
        """Completes the next time every part goes idle (not: is idle now)."""
        return self._quiet.wait()
