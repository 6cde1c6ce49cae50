"""Fixtures for every test package: a real PostgreSQL server, started once per session."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from tests.pg_server import PostgresServer, UnavailableError


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One server for the whole session (each test makes its own database on it); the test
    is skipped, with the reason, when PostgreSQL cannot be started here. Under pytest-xdist
    each worker is a session of its own, with its own server (free port, own folder)."""
    try:
        server = PostgresServer.start()
    except UnavailableError as error:
        pytest.skip(f"no PostgreSQL server: {error}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def postgres_url(postgres_server: PostgresServer) -> AsyncIterator[str]:
    """The URL of a new, empty database of the test's own, dropped after it."""
    url = await postgres_server.create_database()
    try:
        yield url
    finally:
        await postgres_server.drop_database(url)
