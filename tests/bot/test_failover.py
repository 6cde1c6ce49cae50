"""A game taken over by another process on PostgreSQL: the window keeps its remaining time
and its deadline's default is in the log once, even while both processes still hold it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.store import Store
from tests.bot.test_session import Table, scenario


@pytest.fixture
async def tables(postgres_url: str) -> AsyncIterator[tuple[Table, Table]]:
    first, second = Table(postgres_url), Table(postgres_url)  # type: ignore[arg-type]
    second.clock = first.clock  # one time for both processes
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


async def advance(seconds: float, *tables: Table) -> None:
    """Move the shared clock; each wake-up settles every process's session."""
    sessions = [t.session for t in tables if t.session is not None]
    for session in sessions:
        await session.until_idle()

    async def settle() -> None:  # awaited after the wake-up: whichever session woke
        await asyncio.sleep(0.05)
        for session in sessions:
            await session.until_idle()

    await tables[0].clock.advance(seconds, settle=settle)
    for session in sessions:
        await session.until_idle()


async def timeouts(url: str, game_id: int) -> list[str]:
    """The keys of the deadlines' defaults in the game's log."""
    async with await Store.open(url) as store:
        return [e.key for e in await store.log(game_id) if ":deadline:" in e.key]


async def test_a_taken_over_window_fires_once_with_its_remaining_time(
    tables: tuple[Table, Table], postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    first, second = tables
    await first.open(scenario())
    await first.play(scenario()["actions"][0])  # Harkonnen ships: a five-minute window
    await advance(3 * 60, first)
    second.game_id = first.game_id
    await second.open()  # another process takes the game over; the first has not died yet
    await advance(90, first, second)
    assert await timeouts(postgres_url, first.game_id) == []  # two minutes were left
    await advance(45, first, second)
    told = first.public_text() + second.public_text()
    assert "The window for the others' answers closes." in told
    fired = await timeouts(postgres_url, first.game_id)
    assert len(fired) == 1  # both processes' deadlines: one default in the log
    await advance(90, first, second)  # the refused one retries after a minute: still one
    assert await timeouts(postgres_url, first.game_id) == fired
    crashes = [r for r in caplog.records if r.levelname == "ERROR" or r.exc_info]
    assert crashes == []  # the loser's refused default is a warning, not a crash
