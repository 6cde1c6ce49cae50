"""The schema migrations: reading them, applying them to SQLite files, old databases."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.ledger import Ledger
from bot.orders import StandingOrders
from bot.settings import AllyOffer, Channels, SessionTimers, Timing
from bot.store import Migration, SchemaError, Store, read_migrations
from bot.store.migrations import pending
from bot.store.sqlite import statements
from rules.factions import Faction
from tests.bot.phase_script import start_position
from tests.bot.store.test_sqlite import raw


def test_the_migrations_are_numbered_without_gaps() -> None:
    found = read_migrations()
    assert [(m.version, m.name) for m in found[:2]] == [(1, "initial"), (2, "game_settings")]
    assert [m.version for m in found] == list(range(1, len(found) + 1))


def test_pending_refuses_a_database_newer_than_the_code() -> None:
    known = [Migration(1, "a", ""), Migration(2, "b", "")]
    assert pending([1], known) == known[1:]
    with pytest.raises(SchemaError, match=r"\[3\].*newer version"):
        pending([1, 3], known)


def test_statements_end_at_the_end_of_a_line() -> None:
    sql = "CREATE TABLE a (x); -- a comment\nCREATE TRIGGER t AFTER INSERT ON a\nBEGIN\n"
    sql += "  SELECT 1;\nEND;\n-- trailing comment\n"
    assert len(statements(sql)) == 2
    with pytest.raises(SchemaError, match="ends inside a statement: 'CREATE TABLE b'"):
        statements("CREATE TABLE b\n")


async def test_open_applies_the_migrations_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "mentat.db"
    async with await Store.open(path):
        pass
    with raw(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        versions = db.execute("SELECT version, name FROM schema_migrations").fetchall()
    assert versions == [(m.version, m.name) for m in read_migrations()]


async def test_reopening_applies_nothing_twice(tmp_path: Path) -> None:
    path = tmp_path / "mentat.db"
    async with await Store.open(path) as store:
        game = await store.create_game(1, start_position())
    async with await Store.open(path) as store:
        assert (await store.game(game)).guild_id == 1
    with raw(path) as db:
        count = db.execute("SELECT count(*) FROM schema_migrations").fetchone()
    assert count == (len(read_migrations()),)


async def test_a_database_newer_than_the_code_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "mentat.db"
    async with await Store.open(path):
        pass
    with raw(path) as db:
        db.execute("INSERT INTO schema_migrations VALUES (99, 'future', 'now')")
    with pytest.raises(SchemaError, match=r"\[99\].*newer"):
        await Store.open(path)


async def test_a_failing_migration_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "mentat.db"
    good = Migration(1, "good", "CREATE TABLE a (x);\n")
    bad = Migration(2, "bad", "CREATE TABLE b (x);\nTHIS IS NOT SQL;\n")
    with pytest.raises(SchemaError, match="0002_bad failed"):
        await Store.open(path, migrations=[good, bad])
    with raw(path) as db:
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
    assert "a" not in tables and "b" not in tables


# -- 0002: the options JSON becomes typed settings ----------------------------------------

DEADLINE = datetime(2030, 1, 2, 3, 4, tzinfo=UTC)
THEN = "2026-01-01T00:00:00+00:00"
OLD_OPTIONS = {
    "maps": "turn",
    "turn": 3,
    "moderator_role": 777,
    "timing": {"step_s": 3600.0, "prompt_s": 600.0, "reminder_s": 300.0},
    "private_channels": {"atreides": 1456074443980800040, "fremen": 41},
    "standing_orders": {"atreides": {"karama": "never"}},
    "ally_offers": {"atreides": {"ally": "harkonnen", "amount": 3}},
    "session": {
        "wait": "turn:atreides:ship",
        "paused_left_s": 90.0,
        "token": "7",
        "asked": {"atreides": "m1", "fremen": None},
        "closed": {"6:atreides": "you passed"},
    },
}


async def test_an_existing_database_opens_and_its_options_become_settings(
    tmp_path: Path,
) -> None:
    path = tmp_path / "mentat.db"
    _version_one_database(path)
    async with await Store.open(path) as store:
        record = await store.game(1)
        bare = await store.settings(2)
        game = await Ledger.open(store, 1)
    settings = record.settings
    assert (settings.maps, settings.turn) == ("turn", 3)
    assert settings.channels == Channels(
        {Faction.ATREIDES: 1456074443980800040, Faction.FREMEN: 41}, 777
    )
    assert settings.timing == Timing(
        timedelta(hours=1), timedelta(minutes=10), timedelta(minutes=5)
    )
    assert settings.timers == SessionTimers(
        "turn:atreides:ship",
        DEADLINE,
        True,
        timedelta(seconds=90),
        "7",
        {Faction.ATREIDES: "m1", Faction.FREMEN: None},
        {"6:atreides": "you passed"},
    )
    assert settings.orders == {Faction.ATREIDES: StandingOrders(karama="never")}
    assert settings.ally_offers == {
        Faction.ATREIDES: AllyOffer(Faction.HARKONNEN, Faction.ATREIDES, 3)
    }
    assert (bare.maps, bare.timing, bare.timers, bare.orders) == (
        "action",
        Timing(),
        SessionTimers(),
        {},
    )
    assert record.channels == {"table": 10} and game.state == start_position()
    with raw(path) as db:
        columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
    assert "options" not in columns and "deadlines" not in columns


def _version_one_database(path: Path) -> None:
    """A database as the first Mentat wrote it: two games, options in JSON."""
    with raw(path) as db:
        db.execute(
            "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT"
            " NOT NULL, applied_at TEXT NOT NULL)"
        )
        db.executescript(read_migrations()[0].sql)
        db.execute("INSERT INTO schema_migrations VALUES (1, 'initial', 'then')")
        deadlines = {"deadline": DEADLINE.isoformat(), "reminded": DEADLINE.isoformat()}
        for game_id, options, times in ((1, OLD_OPTIONS, deadlines), (2, {}, {})):
            db.execute(
                "INSERT INTO games (id, guild_id, channels, options, variants, deadlines,"
                " created_at) VALUES (?, 5, '{\"table\":10}', ?, '[]', ?, ?)",
                (game_id, json.dumps(options), json.dumps(times), THEN),
            )
            start = json.dumps(start_position().to_dict())
            db.execute(
                "INSERT INTO action_log (game_id, seq, kind, actor, body, events, idem_key,"
                " created_at) VALUES (?, 1, 'start', 0, ?, '[]', 'mentat:create', ?)",
                (game_id, start, THEN),
            )


def test_version_one_has_no_settings_table(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    _version_one_database(path)
    with pytest.raises(sqlite3.OperationalError, match="no such table"), raw(path) as db:
        db.execute("SELECT * FROM game_settings")
