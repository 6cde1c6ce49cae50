"""Time for the session, injected so that tests never sleep for real."""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware (UTC)."""
        ...

    async def sleep_until(self, when: datetime) -> None:
        """Return at ``when`` (at once if it has passed)."""
        ...


class SystemClock:
    """Wall-clock time."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    async def sleep_until(self, when: datetime) -> None:
        delay = (when - self.now()).total_seconds()
        if delay > 0:
            await asyncio.sleep(delay)


class FakeClock:
    """A clock that only moves when a test calls :meth:`advance`."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 1, 1, tzinfo=UTC)
        self._sleepers: list[tuple[datetime, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def now(self) -> datetime:
        return self._now

    async def sleep_until(self, when: datetime) -> None:
        if when <= self._now:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (when, next(self._order), future))
        await future

    async def advance(
        self, seconds: float, *, settle: Callable[[], Awaitable[object]] | None = None
    ) -> None:
        """Move time forward, waking every sleeper that is due, in time order.

        ``settle()`` is called just before each wake-up and awaited just after:
        it should return an awaitable that completes once the woken task has
        finished reacting (the session's ``next_idle``), so that the reaction
        to one deadline is over before the next one is due.
        """
        target = self._now + timedelta(seconds=seconds)
        while self._sleepers and self._sleepers[0][0] <= target:
            when, _, future = heapq.heappop(self._sleepers)
            if future.done():
                continue
            self._now = max(self._now, when)
            waiter = settle() if settle else asyncio.sleep(0)
            future.set_result(None)
            await waiter
        self._now = target
        await asyncio.sleep(0)
