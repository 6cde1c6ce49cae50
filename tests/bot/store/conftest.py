"""Fixtures for the store's tests: the ``backend`` fixture runs them on every backend.

``backend`` is parametrised by backend name: ``sqlite`` (a file in the test's folder) and
``postgres`` (a database of its own on the session's real server, ``postgres_server`` in
tests/conftest.py; skipped with the reason when PostgreSQL is not installed). It gives an
opener of backends on the test's own, empty database: each call opens one more connection
(pool) to it, closed at the end of the test.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot.store import DEFAULT_SNAPSHOT_EVERY, Store, read_migrations
from bot.store.backend import Backend
from bot.store.postgres import PostgresBackend
from bot.store.sqlite import SQLiteBackend
from rules.game import GameState
from tests.bot.phase_script import start_position
from tests.pg_server import PostgresServer

MOD = 111
PLAYER = 222
GUILD = 9000

OpenBackend = Callable[[], Awaitable[Backend]]
OpenStore = Callable[..., Awaitable[Store]]


@pytest.fixture(params=["sqlite", "postgres"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[OpenBackend]:
    opened: list[Backend] = []
    server: PostgresServer | None = None
    url = ""
    if request.param == "postgres":
        server = request.getfixturevalue("postgres_server")
        url = await server.create_database()

    async def open_backend() -> Backend:
        one: Backend
        if request.param == "sqlite":
            one = await SQLiteBackend.open(tmp_path / "mentat.db", read_migrations())
        else:
            one = await PostgresBackend.open(url, read_migrations("postgres"))
        opened.append(one)
        return one

    try:
        yield open_backend
    finally:
        for one in opened:
            await one.close()
        if server is not None:
            await server.drop_database(url)


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
