"""What only the SQLite backend does: its file, its triggers, its worker thread."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.store import Store
from tests.bot.phase_script import start_position


@contextlib.contextmanager
def raw(path: Path) -> Iterator[sqlite3.Connection]:
    """A plain sqlite3 connection for looking behind the store's back."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        yield db
    finally:
        db.close()


async def test_the_action_log_is_append_only(tmp_path: Path) -> None:
    path = tmp_path / "mentat.db"
    async with await Store.open(path) as store:
        await store.create_game(1, start_position())
    with raw(path) as db:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.execute("UPDATE action_log SET actor = 5")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.execute("DELETE FROM action_log")


async def test_close_is_idempotent_and_stops_the_worker_thread(tmp_path: Path) -> None:
    before = threading.active_count()
    store = await Store.open(tmp_path / "mentat.db")
    await store.close()
    await store.close()
    for _ in range(100):  # the worker thread ends just after close() returns
        if threading.active_count() == before:
            break
        await asyncio.sleep(0.01)
    assert threading.active_count() == before


def test_snapshot_every_must_be_positive(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="snapshot_every"):
        asyncio.run(Store.open(tmp_path / "mentat.db", snapshot_every=0))
