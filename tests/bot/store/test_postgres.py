"""What only the PostgreSQL backend does: a shared server, its migrations under an advisory
lock, its triggers, its connection errors. (Everything else runs on both backends.)"""

from __future__ import annotations

import asyncio

import asyncpg  # type: ignore[import-untyped]
import pytest

from bot.store import Migration, SchemaError, Store, StoreError, read_migrations
from bot.store.postgres import PostgresBackend, is_url
from tests.bot.phase_script import start_position
from tests.pg_server import free_port


async def fetch(url: str, sql: str) -> list[tuple[object, ...]]:
    """Rows read behind the store's back, on a connection of their own."""
    db = await asyncpg.connect(url)
    try:
        return [tuple(row) for row in await db.fetch(sql)]
    finally:
        await db.close()


def test_a_url_names_postgres_and_anything_else_a_file() -> None:
    assert is_url("postgresql://u@h/db") and is_url("postgres://h/db")
    assert not is_url("mentat.db") and not is_url("/srv/postgresql://x")


def test_the_postgres_migrations_are_numbered_without_gaps() -> None:
    found = read_migrations("postgres")
    assert found[0].label == "0001_initial"
    assert [m.version for m in found] == list(range(1, len(found) + 1))
    with pytest.raises(ValueError, match="no migrations for 'oracle'"):
        read_migrations("oracle")


async def test_processes_starting_together_apply_each_migration_once(postgres_url: str) -> None:
    stores = await asyncio.gather(*(Store.open(postgres_url) for _ in range(4)))
    try:
        game = await stores[0].create_game(2**62, start_position())
        assert (await stores[3].game(game)).guild_id == 2**62  # Discord ids are 64-bit
    finally:
        for store in stores:
            await store.close()
    rows = await fetch(postgres_url, "SELECT version, name FROM schema_migrations ORDER BY 1")
    assert rows == [(m.version, m.name) for m in read_migrations("postgres")]


async def test_the_action_log_is_append_only(postgres_url: str) -> None:
    async with await Store.open(postgres_url) as store:
        await store.create_game(1, start_position())
    db = await asyncpg.connect(postgres_url)
    try:
        for sql in ("UPDATE action_log SET actor = 5", "DELETE FROM action_log"):
            with pytest.raises(asyncpg.RaiseError, match="append-only"):
                await db.execute(sql)
        with pytest.raises(asyncpg.PostgresError, match="append-only"):
            await db.execute("TRUNCATE action_log CASCADE")
    finally:
        await db.close()
    assert await fetch(postgres_url, "SELECT seq, actor FROM action_log") == [(1, 0)]


async def test_a_database_newer_than_the_code_is_refused(postgres_url: str) -> None:
    async with await Store.open(postgres_url):
        pass
    db = await asyncpg.connect(postgres_url)
    try:
        await db.execute("INSERT INTO schema_migrations VALUES (99, 'future', 'now')")
    finally:
        await db.close()
    with pytest.raises(SchemaError, match=r"\[99\].*newer"):
        await Store.open(postgres_url)


async def test_a_failing_migration_changes_nothing(postgres_url: str) -> None:
    good = Migration(1, "good", "CREATE TABLE a (x INTEGER);")
    bad = Migration(2, "bad", "CREATE TABLE b (x INTEGER);\nTHIS IS NOT SQL;")
    with pytest.raises(SchemaError, match="0002_bad failed"):
        await PostgresBackend.open(postgres_url, [good, bad])
    tables = await fetch(
        postgres_url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
    )
    assert tables == []  # not even schema_migrations: the whole transaction rolled back


async def test_an_unreachable_server_is_refused_without_repeating_the_password() -> None:
    url = f"postgresql://mentat:s3cret-pw@127.0.0.1:{free_port()}/mentat"
    with pytest.raises(StoreError, match="cannot connect to the PostgreSQL database") as caught:
        await Store.open(url)
    assert "s3cret-pw" not in str(caught.value)
