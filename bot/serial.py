"""One task per game that runs its requests one at a time and wakes when a timer is due.

Requests (coroutine functions) are queued by any task and run in order by this one; a
routine refusal (a :class:`MentatError`) goes back to its caller, and any other failure is
logged as a crash and reported to the caller without stopping the task.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.clock import Clock
from rules.errors import MentatError

log = logging.getLogger(__name__)


@dataclass
class _Request:
    run: Callable[[], Awaitable[Any]]
    done: asyncio.Future[Any] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class SerialTask:
    """Runs requests in turn; between them, sleeps until ``next_timer()`` and then awaits
    ``on_timer()`` (the next timer is asked again after every request)."""

    def __init__(
        self,
        name: str,
        clock: Clock,
        *,
        next_timer: Callable[[], datetime | None],
        on_timer: Callable[[], Awaitable[None]],
        on_idle: Callable[[bool], None] | None = None,
    ) -> None:
        """``on_idle(idle)`` is told each time the task goes idle or busy."""
        self.name = name
        self.clock = clock
        self._next_timer = next_timer
        self._on_timer = on_timer
        self._on_idle = on_idle
        self._queue: asyncio.Queue[_Request] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._idle = False
        self._went_idle = asyncio.Event()

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=self.name)
        self._task.add_done_callback(self._report_crash)

    async def stop(self) -> None:
        """Stop the task, whatever happened to it (shutdown goes on); it is idle from then
        (whoever waits for the game to be quiet is not held by a task that is gone)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
            self._set_idle(True)

    async def call(self, run: Callable[[], Awaitable[Any]]) -> Any:
        """Queue ``run`` and return what it returns (or raise what it raises)."""
        request = _Request(run)
        await self._queue.put(request)
        return await request.done

    def later(self, run: Callable[[], Awaitable[None]]) -> None:
        """Queue ``run`` without waiting for it (a failure is logged); busy from now."""

        async def logged() -> None:
            try:
                await run()
            except Exception:
                log.exception("%s: a follow-up failed", self.name)

        self._queue.put_nowait(_Request(logged))
        self._set_idle(False)

    def next_idle(self) -> Awaitable[bool]:
        """Completes the next time there is nothing left to do (tests, tools)."""
        return self._went_idle.wait()

    async def until_idle(self) -> None:
        if not self._idle:
            await self.next_idle()

    def _report_crash(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("%s stopped", self.name, exc_info=task.exception())

    async def _run(self) -> None:
        while True:
            request = await self._next_request()
            if request is None:
                await self._on_timer()
                continue
            try:
                request.done.set_result(await request.run())
            except MentatError as error:
                request.done.set_exception(error)
            except Exception as error:  # keep the game alive; report to the caller
                log.exception("%s: request failed", self.name)
                request.done.set_exception(error)

    def _set_idle(self, idle: bool) -> None:
        self._idle = idle
        if self._on_idle is not None:
            self._on_idle(idle)
        if idle:
            self._went_idle.set()
            self._went_idle = asyncio.Event()

    async def _next_request(self) -> _Request | None:
        """The next queued request, or None when a timer is due."""
        try:
            return await self._wait_for_request()
        finally:
            self._set_idle(False)

    async def _wait_for_request(self) -> _Request | None:
        getter = asyncio.ensure_future(self._queue.get())
        due = self._next_timer()
        sleeper = asyncio.ensure_future(self.clock.sleep_until(due)) if due else None
        try:
            await asyncio.sleep(0)  # let the timer register before saying we are idle
            self._set_idle(self._queue.empty() and not getter.done())
            waiting = {getter} if sleeper is None else {getter, sleeper}
            done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            return getter.result() if getter in done else None
        finally:  # also when the task is stopped: leave no timer or reader behind
            if sleeper is not None:
                sleeper.cancel()
            if not getter.done():
                getter.cancel()
