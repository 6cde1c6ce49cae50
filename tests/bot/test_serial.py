"""The task that runs a session's requests in turn and wakes for its timers."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

import pytest

from bot.clock import FakeClock
from bot.serial import SerialTask
from rules.errors import MentatError


async def test_requests_run_one_at_a_time_in_order_and_failures_go_to_their_caller(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = FakeClock()
    serial = SerialTask("test", clock, next_timer=lambda: None, on_timer=_never)
    serial.start()
    running: list[str] = []

    def step(name: str, fail: Exception | None = None) -> Callable[[], Awaitable[str]]:
        async def run() -> str:
            running.append(f"{name}+")
            await asyncio.sleep(0)
            running.append(f"{name}-")
            if fail is not None:
                raise fail
            return name

        return run

    try:
        results = await asyncio.gather(
            serial.call(step("a")),
            serial.call(step("b", MentatError("refused"))),
            serial.call(step("c", RuntimeError("bug"))),
            serial.call(step("d")),
            return_exceptions=True,
        )
    finally:
        await serial.stop()
    assert running == ["a+", "a-", "b+", "b-", "c+", "c-", "d+", "d-"]
    assert results[0] == "a" and results[3] == "d"
    assert isinstance(results[1], MentatError) and isinstance(results[2], RuntimeError)
    assert "test: request failed" in caplog.text and "refused" not in caplog.text


async def test_only_a_mentat_error_is_a_refusal_any_other_error_is_logged_as_a_crash(
    caplog: pytest.LogCaptureFixture,
) -> None:
    serial = SerialTask("game 7", FakeClock(), next_timer=lambda: None, on_timer=_never)
    serial.start()

    def failing(error: Exception) -> Callable[[], Awaitable[None]]:
        async def run() -> None:
            raise error

        return run

    try:
        for bug in (KeyError("seat"), ValueError("bad value"), PermissionError("denied")):
            caplog.clear()
            with pytest.raises(type(bug)):
                await serial.call(failing(bug))
            assert "game 7: request failed" in caplog.text, f"{bug!r} was taken for a refusal"
        caplog.clear()
        with pytest.raises(MentatError):
            await serial.call(failing(MentatError("nothing to undo")))
        assert caplog.text == ""
    finally:
        await serial.stop()


async def test_a_timer_wakes_the_task_between_requests() -> None:
    clock = FakeClock()
    due: list[datetime] = [clock.now() + timedelta(minutes=5)]
    fired: list[datetime] = []

    async def on_timer() -> None:
        fired.append(clock.now())
        due.clear()

    serial = SerialTask(
        "test", clock, next_timer=lambda: due[0] if due else None, on_timer=on_timer
    )
    serial.start()
    try:
        await serial.until_idle()
        await clock.advance(4 * 60, settle=serial.next_idle)
        assert fired == []
        await clock.advance(60, settle=serial.next_idle)
        assert len(fired) == 1
    finally:
        await serial.stop()


async def _never() -> None:
    raise AssertionError("no timer was due")


async def test_stopping_a_task_that_failed_does_not_raise() -> None:
    """Shutdown goes on (and closes the store) whatever happened to a session's task."""
    clock = FakeClock()

    async def broken() -> None:
        raise RuntimeError("a timer that fails outside the guard")

    serial = SerialTask("test", clock, next_timer=clock.now, on_timer=broken)
    serial.start()
    await asyncio.sleep(0.01)
    await serial.stop()  # the task died with the error; stopping it still returns


async def test_a_stopped_task_is_idle_even_if_stopped_in_a_request() -> None:
    told: list[bool] = []
    serial = SerialTask(
        "test", FakeClock(), next_timer=lambda: None, on_timer=_never, on_idle=told.append
    )
    serial.start()
    never = asyncio.Event()
    caller = asyncio.create_task(serial.call(never.wait))
    while not told or told[-1]:  # until the request runs
        await asyncio.sleep(0)
    await serial.stop()
    assert told[-1] is True
    caller.cancel()
