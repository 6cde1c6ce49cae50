"""Fixtures for the store's tests: the ``backend`` fixture runs them on every backend.

``backend`` is parametrised by backend name (only ``sqlite`` so far; a PostgreSQL backend adds
its name and an opener here, and the same tests run on it). It gives an opener of backends
on the test's own, empty database: each call opens one more connection to it, closed at the
end of the test.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot.store import DEFAULT_SNAPSHOT_EVERY, Store, read_migrations
from bot.store.backend import Backend
from bot.store.sqlite import SQLiteBackend
from rules.game import GameState
from tests.bot.phase_script import start_position

MOD = 111
PLAYER = 222
GUILD = 9000

OpenBackend = Callable[[], Awaitable[Backend]]
OpenStore = Callable[..., Awaitable[Store]]


@pytest.fixture(params=["sqlite"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[OpenBackend]:
    opened: list[Backend] = []

    async def open_backend() -> Backend:
        if request.param == "sqlite":
            one = await SQLiteBackend.open(tmp_path / "mentat.db", read_migrations())
        else:  # pragma: no cover - a backend named in params must be opened here
            raise AssertionError(f"no opener for backend {request.param!r}")
        opened.append(one)
        return one

    try:
        yield open_backend
    finally:
        for one in opened:
            await one.close()


@pytest.fixture
def open_store(backend: OpenBackend) -> OpenStore:
    """Opens a store on the test's database (``snapshot_every`` as a keyword)."""

    async def open_one(*, snapshot_every: int = DEFAULT_SNAPSHOT_EVERY) -> Store:
        return Store(await backend(), snapshot_every=snapshot_every)

    return open_one


@pytest.fixture
async def store(open_store: OpenStore) -> Store:
    return await open_store(snapshot_every=4)


async def new_game(store: Store, guild: int = GUILD, start: GameState | None = None) -> int:
    return await store.create_game(guild, start or start_position(), moderators=[MOD])
