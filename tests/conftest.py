"""Fixtures for every test package: a real PostgreSQL server, started once per session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.pg_server import PostgresServer, UnavailableError


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One server for the whole session (each test makes its own database on it); the test
    is skipped, with the reason, when PostgreSQL cannot be started here."""
    try:
        server = PostgresServer.start()
    except UnavailableError as error:
        pytest.skip(f"no PostgreSQL server: {error}")
    try:
        yield server
    finally:
        server.stop()
