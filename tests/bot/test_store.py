"""The store on real SQLite files: log, idempotency, undo/redo, snapshots, migrations."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import random
import sqlite3
import threading
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.store import (
    CorruptLogError,
    GameFinishedError,
    History,
    KeyReusedError,
    Migration,
    NothingToRedoError,
    NothingToUndoError,
    NotModeratorError,
    SchemaError,
    Store,
    UnknownGameError,
    read_migrations,
    state_hash,
)
from rules.actions import action_from_dict
from rules.errors import RulesError
from rules.factions import Faction
from rules.game import GameState
from tests.bot.phase_script import random_phase, start_position

MOD = 111
PLAYER = 222
GUILD = 9000


def replay(actions: list[dict[str, Any]], start: GameState | None = None) -> GameState:
    """A clean in-memory replay of ``actions`` from the start position."""
    state = GameState.from_dict((start or start_position()).to_dict())
    for action in actions:
        state.apply(action_from_dict(action))
    return state


@contextlib.contextmanager
def raw(path: Path) -> Iterator[sqlite3.Connection]:
    """A plain sqlite3 connection for looking behind the store's back."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        yield db
    finally:
        db.close()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "mentat.db"


@pytest.fixture
async def store(db_path: Path) -> AsyncIterator[Store]:
    async with await Store.open(db_path, snapshot_every=4) as opened:
        yield opened


@pytest.fixture(scope="module")
def script() -> list[dict[str, Any]]:
    return random_phase(3)


async def new_game(store: Store, guild: int = GUILD) -> int:
    return await store.create_game(guild, start_position(), moderators=[MOD])


async def play(store: Store, game: int, actions: list[dict[str, Any]], prefix: str = "k") -> None:
    for i, action in enumerate(actions):
        await store.submit(game, PLAYER, action_from_dict(action), f"{prefix}{i}")


# -- schema and connection ------------------------------------------------------


async def test_open_applies_the_migrations_in_wal_mode(store: Store, db_path: Path) -> None:
    with raw(db_path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        versions = db.execute("SELECT version, name FROM schema_migrations").fetchall()
    assert versions == [(m.version, m.name) for m in read_migrations()]
    assert versions[0] == (1, "initial")


async def test_reopening_keeps_the_data_and_applies_nothing_twice(db_path: Path) -> None:
    async with await Store.open(db_path) as store:
        game = await new_game(store)
    async with await Store.open(db_path) as store:
        assert (await store.game(game)).guild_id == GUILD
    with raw(db_path) as db:
        assert db.execute("SELECT count(*) FROM schema_migrations").fetchone() == (1,)


async def test_a_database_newer_than_the_code_is_refused(db_path: Path) -> None:
    async with await Store.open(db_path):
        pass
    with raw(db_path) as db:
        db.execute("INSERT INTO schema_migrations VALUES (99, 'future', 'now')")
    with pytest.raises(SchemaError, match=r"\[99\].*newer"):
        await Store.open(db_path)


async def test_a_failing_migration_changes_nothing(db_path: Path) -> None:
    good = Migration(1, "good", "CREATE TABLE a (x);\n")
    bad = Migration(2, "bad", "CREATE TABLE b (x);\nTHIS IS NOT SQL;\n")
    with pytest.raises(SchemaError, match="0002_bad failed"):
        await Store.open(db_path, migrations=[good, bad])
    with raw(db_path) as db:
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
    assert "a" not in tables and "b" not in tables


async def test_the_action_log_is_append_only(store: Store, db_path: Path) -> None:
    await new_game(store)
    with raw(db_path) as db:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.execute("UPDATE action_log SET actor = 5")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.execute("DELETE FROM action_log")


async def test_close_is_idempotent_and_stops_the_worker_thread(db_path: Path) -> None:
    before = threading.active_count()
    store = await Store.open(db_path)
    await store.close()
    await store.close()
    for _ in range(100):  # the worker thread ends just after close() returns
        if threading.active_count() == before:
            break
        await asyncio.sleep(0.01)
    assert threading.active_count() == before


def test_snapshot_every_must_be_positive(db_path: Path) -> None:
    with pytest.raises(ValueError, match="snapshot_every"):
        asyncio.run(Store.open(db_path, snapshot_every=0))


# -- games, seats, moderators --------------------------------------------------------


async def test_games_keep_their_settings(store: Store) -> None:
    deadline = datetime(2030, 1, 2, 3, 4, tzinfo=UTC)
    game = await store.create_game(
        GUILD,
        start_position(),
        channels={"table": 1, "log": 2},
        options={"timeout_hours": 24},
        variants=["storm_migration"],
        deadlines={"turn": deadline},
    )
    record = await store.game(game)
    assert record.channels == {"table": 1, "log": 2}
    assert record.options == {"timeout_hours": 24}
    assert record.variants == ("storm_migration",)
    assert record.deadlines == {"turn": deadline}
    assert record.is_active


async def test_deadlines_must_have_a_timezone(store: Store) -> None:
    game = await new_game(store)
    with pytest.raises(ValueError, match="timezone"):
        await store.set_deadlines(game, {"turn": datetime(2030, 1, 1)})
    later = datetime(2030, 1, 1, tzinfo=UTC) + timedelta(hours=5)
    await store.set_deadlines(game, {"turn": later})
    assert (await store.load_game(game)).record.deadlines == {"turn": later}


async def test_options_can_change(store: Store) -> None:
    game = await new_game(store)
    await store.set_options(game, {"timeout_hours": 12})
    assert (await store.game(game)).options == {"timeout_hours": 12}


async def test_several_games_per_server(store: Store) -> None:
    a, b = await new_game(store, 1), await new_game(store, 1)
    c = await new_game(store, 2)
    assert [g.id for g in await store.games(1)] == [a, b]
    assert [g.id for g in await store.games()] == [a, b, c]


async def test_seats_and_moderators(store: Store) -> None:
    game = await new_game(store)
    await store.seat(game, 1, Faction.ATREIDES)
    await store.seat(game, 2, Faction.FREMEN)
    await store.seat(game, 3, Faction.ATREIDES)
    assert await store.seats(game) == {Faction.ATREIDES: 3, Faction.FREMEN: 2}
    await store.add_moderator(game, 4)
    assert await store.moderators(game) == {MOD, 4}
    await store.remove_moderator(game, MOD)
    assert not await store.is_moderator(game, MOD)


async def test_only_factions_in_the_game_get_seats(store: Store) -> None:
    game = await new_game(store)
    small = await store.create_game(GUILD, _two_faction_position())
    await store.seat(game, 1, Faction.EMPEROR)
    with pytest.raises(ValueError, match="Emperor is not in game"):
        await store.seat(small, 1, Faction.EMPEROR)


async def test_unknown_game_ids_are_clear_errors(store: Store) -> None:
    action = action_from_dict({"faction": "atreides", "action": "pass"})
    for call in (
        store.game(42),
        store.load_game(42),
        store.seats(42),
        store.submit(42, PLAYER, action, "k"),
        store.undo(42, MOD, "u"),
        store.finish_game(42),
    ):
        with pytest.raises(UnknownGameError, match="no game #42"):
            await call


# -- submitting actions ----------------------------------------------------------------


async def test_submit_commits_and_returns_the_events(
    store: Store, db_path: Path, script: list[dict[str, Any]]
) -> None:
    game = await new_game(store)
    result = await store.submit(game, PLAYER, action_from_dict(script[0]), "interaction-1")
    expected = replay(script[:1])
    assert (result.seq, result.duplicate) == (2, False)
    assert result.state == expected
    assert result.events == tuple(start_position().apply(action_from_dict(script[0])))
    with raw(db_path) as db:  # already on disk, seen by another connection
        rows = db.execute("SELECT seq, kind, actor, idem_key FROM action_log").fetchall()
    assert rows == [(1, "start", 0, "mentat:create"), (2, "action", PLAYER, "interaction-1")]


async def test_a_refused_action_writes_nothing(store: Store) -> None:
    game = await new_game(store)
    wrong = action_from_dict({"faction": "atreides", "action": "ship", "to": "Nowhere"} | _ONE)
    with pytest.raises(RulesError):
        await store.submit(game, PLAYER, wrong, "k1")
    assert [e.kind for e in await store.log(game)] == ["start"]
    assert (await store.load_game(game)).state == start_position()


async def test_the_same_key_is_applied_once(store: Store, script: list[dict[str, Any]]) -> None:
    game = await new_game(store)
    action = action_from_dict(script[0])
    first = await store.submit(game, PLAYER, action, "k")
    again = await store.submit(game, PLAYER, action, "k")
    assert again.duplicate and (again.seq, again.events) == (first.seq, first.events)
    assert again.state == replay(script[:1])
    assert len(await store.log(game)) == 2


async def test_earlier_result_tells_whether_a_key_was_applied(
    store: Store, script: list[dict[str, Any]]
) -> None:
    game = await new_game(store)
    action = action_from_dict(script[0])
    assert await store.earlier_result(game, action, "k") is None
    first = await store.submit(game, PLAYER, action, "k")
    earlier = await store.earlier_result(game, action, "k")
    assert earlier is not None and earlier.duplicate and earlier.seq == first.seq
    with pytest.raises(KeyReusedError):
        await store.earlier_result(game, action_from_dict(script[1]), "k")


async def test_a_key_reused_for_another_request_is_refused(
    store: Store, script: list[dict[str, Any]]
) -> None:
    game = await new_game(store)
    await store.submit(game, PLAYER, action_from_dict(script[0]), "k")
    with pytest.raises(KeyReusedError, match=r"'k'.*entry #2"):
        await store.submit(game, PLAYER, action_from_dict(script[1]), "k")
    with pytest.raises(KeyReusedError):
        await store.undo(game, MOD, "k")


async def test_keys_belong_to_one_game(store: Store, script: list[dict[str, Any]]) -> None:
    a, b = await new_game(store), await new_game(store)
    await store.submit(a, PLAYER, action_from_dict(script[0]), "k")
    result = await store.submit(b, PLAYER, action_from_dict(script[0]), "k")
    assert not result.duplicate


async def test_a_finished_game_takes_no_requests(
    store: Store, script: list[dict[str, Any]]
) -> None:
    game, other = await new_game(store), await new_game(store)
    await store.finish_game(game)
    with pytest.raises(GameFinishedError, match=f"#{game} is finished"):
        await store.submit(game, PLAYER, action_from_dict(script[0]), "k")
    assert [g.record.id for g in await store.load_active_games()] == [other]


async def test_games_progress_concurrently(store: Store) -> None:
    scripts = [random_phase(seed)[:8] for seed in range(6)]
    games = [await new_game(store, guild=seed % 2) for seed in range(6)]
    await asyncio.gather(*(play(store, g, s) for g, s in zip(games, scripts, strict=True)))
    for game, actions in zip(games, scripts, strict=True):
        assert (await store.load_game(game)).state == replay(actions)


@pytest.mark.parametrize("ticks", range(0, 12, 2))
async def test_a_cancelled_submit_leaves_memory_and_disk_agreeing(
    store: Store, script: list[dict[str, Any]], ticks: int
) -> None:
    game = await new_game(store)
    await play(store, game, script[:3])
    task = asyncio.create_task(store.submit(game, PLAYER, action_from_dict(script[3]), "late"))
    for _ in range(ticks):
        await asyncio.sleep(0)
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    committed = "late" in {entry.key for entry in await store.log(game)}
    assert (await store.load_game(game)).state == replay(script[: 4 if committed else 3])
    again = await store.submit(game, PLAYER, action_from_dict(script[3]), "late")
    assert again.duplicate == committed
    assert again.state == replay(script[:4])


# -- loading --------------------------------------------------------------------------


async def test_a_reopened_store_loads_the_committed_position(
    db_path: Path, script: list[dict[str, Any]]
) -> None:
    async with await Store.open(db_path, snapshot_every=3) as store:
        games = [await new_game(store) for _ in range(3)]
        for n, game in enumerate(games):
            await play(store, game, script[: 4 + n])
        await store.finish_game(games[2])
    async with await Store.open(db_path) as store:
        loaded = await store.load_active_games()
    assert [g.record.id for g in loaded] == games[:2]
    for n, one in enumerate(loaded):
        assert one.state == replay(script[: 4 + n])
        assert one.seq == 1 + 4 + n


async def test_loading_uses_the_snapshot_when_its_hash_matches(
    db_path: Path, script: list[dict[str, Any]]
) -> None:
    async with await Store.open(db_path, snapshot_every=2) as store:
        game = await new_game(store)
        await play(store, game, script[:3])  # entries 2..4; close snapshots entry 4
    # A snapshot replaced together with its hash is trusted, which shows that it is used.
    forged = replay(script[:3])
    forged.spice_bank += 77
    _replace_snapshot(db_path, head=4, state=forged.to_dict(), fix_hash=True)
    async with await Store.open(db_path) as store:
        assert (await store.load_game(game)).state == forged


async def test_a_snapshot_failing_its_hash_is_skipped(
    db_path: Path, script: list[dict[str, Any]], caplog: pytest.LogCaptureFixture
) -> None:
    async with await Store.open(db_path, snapshot_every=2) as store:
        game = await new_game(store)
        await play(store, game, script[:5])
    _replace_snapshot(db_path, head=5, state={"broken": True}, fix_hash=False)
    _replace_snapshot(db_path, head=6, state={"broken": True}, fix_hash=False)
    with caplog.at_level(logging.WARNING, logger="bot.store"):
        async with await Store.open(db_path) as store:
            assert (await store.load_game(game)).state == replay(script[:5])
    assert "snapshot at entry #6 fails its hash check" in caplog.text
    assert "snapshot at entry #5 fails its hash check" in caplog.text


async def test_close_snapshots_the_loaded_games(
    db_path: Path, script: list[dict[str, Any]]
) -> None:
    async with await Store.open(db_path, snapshot_every=100) as store:
        game = await new_game(store)
        await play(store, game, script[:3])
    with raw(db_path) as db:
        heads = db.execute("SELECT head_seq FROM snapshots WHERE game_id = ?", (game,)).fetchall()
        (stored,) = db.execute("SELECT state_hash FROM snapshots WHERE head_seq = 4").fetchone()
    assert heads == [(1,), (4,)]
    assert stored == state_hash(replay(script[:3]))


async def test_close_without_checkpoint_leaves_the_replay_to_the_next_start(
    db_path: Path, script: list[dict[str, Any]]
) -> None:
    async with await Store.open(db_path, snapshot_every=100) as store:
        game = await new_game(store)
        await play(store, game, script[:3])
        await store.close(checkpoint=False)
    with raw(db_path) as db:
        assert db.execute("SELECT head_seq FROM snapshots").fetchall() == [(1,)]
    async with await Store.open(db_path) as store:
        assert (await store.load_game(game)).state == replay(script[:3])


async def test_start_up_loads_many_games_in_batches(
    db_path: Path, script: list[dict[str, Any]]
) -> None:
    async with await Store.open(db_path, snapshot_every=2) as store:
        games = [await new_game(store, guild=n % 7) for n in range(260)]
        for n, game in enumerate(games):
            await play(store, game, script[: n % 5])
        await store.close(checkpoint=False)
    async with await Store.open(db_path) as store:
        loaded = await store.load_active_games()
    assert [g.record.id for g in loaded] == games
    for n, one in enumerate(loaded):
        assert one.state == replay(script[: n % 5])


async def test_a_game_that_cannot_be_replayed_does_not_stop_the_others(
    db_path: Path, script: list[dict[str, Any]], caplog: pytest.LogCaptureFixture
) -> None:
    async with await Store.open(db_path) as store:
        good, bad = await new_game(store), await new_game(store)
        await play(store, good, script[:2])
    nowhere = json.dumps({"faction": "atreides", "action": "ship", "to": "Nowhere"} | _ONE)
    with raw(db_path) as db:
        db.execute(
            "INSERT INTO action_log (game_id, seq, kind, actor, body, events, idem_key,"
            " created_at) VALUES (?, 2, 'action', 1, ?, '[]', 'forged', 'now')",
            (bad, nowhere),
        )
    with caplog.at_level(logging.ERROR, logger="bot.store"):
        async with await Store.open(db_path) as store:
            assert [g.record.id for g in await store.load_active_games()] == [good]
            with pytest.raises(CorruptLogError, match=f"game #{bad}: action entry #2 is refused"):
                await store.load_game(bad)
    assert f"game #{bad}: action entry #2 is refused on replay" in caplog.text


# -- undo and redo ----------------------------------------------------------------------


async def test_undo_and_redo_are_entries_in_the_log(
    store: Store, script: list[dict[str, Any]]
) -> None:
    game = await new_game(store)
    await play(store, game, script[:3])
    undone = await store.undo(game, MOD, "u1")
    assert undone.state == replay(script[:2])
    ((event),) = undone.events
    assert event.kind == "undone" and event.seq == 4 and event.moderator == MOD
    assert event.action == script[2]
    redone = await store.redo(game, MOD, "r1")
    assert redone.state == replay(script[:3])
    assert redone.events[0].kind == "redone"
    assert redone.events[1:] == tuple(replay(script[:2]).apply(action_from_dict(script[2])))
    log = await store.log(game)
    assert [(e.kind, e.target) for e in log[-2:]] == [("undo", 4), ("redo", 4)]


async def test_only_moderators_undo(store: Store, script: list[dict[str, Any]]) -> None:
    game = await new_game(store)
    await play(store, game, script[:1])
    with pytest.raises(
        NotModeratorError, match=f"moderator of game #{game} may undo; user {PLAYER} is not"
    ):
        await store.undo(game, PLAYER, "u")
    with pytest.raises(NotModeratorError):
        await store.redo(game, PLAYER, "r")
    assert len(await store.log(game)) == 2


async def test_an_authorised_caller_undoes_in_its_own_name(
    store: Store, script: list[dict[str, Any]]
) -> None:
    """The application checked the moderator (say, a moderator role's holder, never
    listed): the store takes its word, and the log names that user."""
    game = await new_game(store)
    await play(store, game, script[:2])
    await store.undo(game, PLAYER, "u", authorised=True)
    await store.redo(game, PLAYER, "r", authorised=True)
    await store.start_phase(game, PLAYER, _two_faction_position(), "p", authorised=True)
    log = await store.log(game)
    assert [(e.kind, e.actor) for e in log[-3:]] == [
        ("undo", PLAYER),
        ("redo", PLAYER),
        ("start", PLAYER),
    ]
    assert not await store.is_moderator(game, PLAYER)


async def test_nothing_to_undo_or_redo(store: Store, script: list[dict[str, Any]]) -> None:
    game = await new_game(store)
    with pytest.raises(NothingToUndoError):
        await store.undo(game, MOD, "u")
    await play(store, game, script[:2])
    with pytest.raises(NothingToRedoError):
        await store.redo(game, MOD, "r")
    await store.undo(game, MOD, "u")
    await store.submit(game, PLAYER, action_from_dict(script[1]), "again")
    with pytest.raises(NothingToRedoError, match="no undone action"):
        await store.redo(game, MOD, "r")


async def test_undo_is_idempotent_too(store: Store, script: list[dict[str, Any]]) -> None:
    game = await new_game(store)
    await play(store, game, script[:3])
    first = await store.undo(game, MOD, "u")
    again = await store.undo(game, MOD, "u")
    assert again.duplicate and again.seq == first.seq
    assert again.state == replay(script[:2])


async def test_undo_across_snapshots_survives_a_restart(
    db_path: Path, script: list[dict[str, Any]]
) -> None:
    async with await Store.open(db_path, snapshot_every=2) as store:
        game = await new_game(store)
        await play(store, game, script[:7])
        for n in range(5):
            await store.undo(game, MOD, f"u{n}")
        await store.redo(game, MOD, "r")
        assert (await store.load_game(game)).state == replay(script[:3])
    async with await Store.open(db_path) as store:
        loaded = await store.load_game(game)
        assert loaded.state == replay(script[:3])
        assert loaded.can_undo and loaded.can_redo
        await store.redo(game, MOD, "r2")
        assert (await store.load_game(game)).state == replay(script[:4])


async def test_a_new_phase_starts_from_its_own_position(
    store: Store, script: list[dict[str, Any]]
) -> None:
    game = await new_game(store)
    await play(store, game, script[:2])
    second = _two_faction_position()
    result = await store.start_phase(game, MOD, second, "phase-2")
    assert result.state == second and result.events[0].kind == "phase_started"
    with pytest.raises(NothingToUndoError):
        await store.undo(game, MOD, "u")
    with pytest.raises(NotModeratorError):
        await store.start_phase(game, PLAYER, second, "phase-3")


@pytest.mark.parametrize("seed", range(12))
async def test_random_histories_match_a_model(db_path: Path, seed: int) -> None:
    """Random actions, undos, redos and restarts agree with an in-memory model."""
    rng = random.Random(seed)
    script = random_phase(seed)
    effective: list[dict[str, Any]] = []
    undone: list[dict[str, Any]] = []
    store = await Store.open(db_path, snapshot_every=rng.randint(1, 4))
    try:
        game = await new_game(store)
        for step in range(40):
            choice = rng.random()
            if choice < 0.25 and effective:
                await store.undo(game, MOD, f"u{step}")
                undone.append(effective.pop())
            elif choice < 0.4 and undone:
                await store.redo(game, MOD, f"r{step}")
                effective.append(undone.pop())
            elif choice < 0.5:
                await store.close()
                store = await Store.open(db_path, snapshot_every=rng.randint(1, 4))
            elif len(effective) < len(script):
                action = script[len(effective)]
                await store.submit(game, PLAYER, action_from_dict(action), f"a{step}")
                effective.append(action)
                undone.clear()
            assert (await store.load_game(game)).state == replay(effective)
    finally:
        await store.close()


# -- the history bookkeeping ----------------------------------------------------------


def test_history_follows_undo_and_redo() -> None:
    history = History.of([(1, "start", None), (2, "action", None), (3, "action", None)])
    history = history.after("undo", 3).after("undo", 2)
    assert (history.effective, history.undone) == ([1], [3, 2])
    history = history.after("redo", 2)
    assert (history.effective, history.undone, history.last_seq) == ([1, 2], [3], 6)
    assert history.after("action").undone == []


# -- helpers --------------------------------------------------------------------------

_ONE = {"sector": 1, "forces": 1}


def _two_faction_position() -> GameState:
    from rules.scenario import load_scenario

    data = {
        "format": "dune-scenario/1",
        "storm_sector": 1,
        "seats": ["atreides", None, "harkonnen"],
        "factions": {"atreides": {"spice": 5, "reserves": 5}},
    }
    return load_scenario(data).initial_state()


def _replace_snapshot(path: Path, *, head: int, state: Any, fix_hash: bool) -> None:
    text = json.dumps(state, sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(text.encode()).hexdigest()
    with raw(path) as db:
        if not fix_hash:
            (digest,) = db.execute(
                "SELECT state_hash FROM snapshots WHERE head_seq = ?", (head,)
            ).fetchone()
        db.execute(
            "UPDATE snapshots SET state = ?, state_hash = ? WHERE head_seq = ?",
            (text, digest, head),
        )
        assert db.total_changes == 1


async def test_a_decline_logged_as_a_pass_by_an_older_version_replays(db_path: Path) -> None:
    """Declines were logged as ``pass`` with a ``prompt`` before the ``decline`` action
    existed; a ``pass`` no longer answers those prompts, so the log reads them as declines."""
    store = await Store.open(db_path)
    game_id = await store.create_game(0, start_position())
    state = (await store.load_game(game_id)).state
    (prompt,) = state.open_prompts()
    (faction,) = prompt.waiting_on()
    await store.close(checkpoint=False)
    legacy = {"action": "pass", "faction": faction.value, "prompt": prompt.kind.value}
    with raw(db_path) as db:
        db.execute(
            "INSERT INTO action_log (game_id, seq, kind, target, actor, body, events, idem_key,"
            " created_at) VALUES (?, 2, 'action', NULL, 0, ?, '[]', 'legacy', ?)",
            (game_id, json.dumps(legacy), datetime.now(UTC).isoformat()),
        )
    store = await Store.open(db_path)
    try:
        loaded = await store.load_game(game_id)
        assert loaded.seq == 2
        assert prompt not in loaded.state.open_prompts()
        assert all(faction not in p.waiting_on() for p in loaded.state.open_prompts())
    finally:
        await store.close()
