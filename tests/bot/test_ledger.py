"""A game's ledger on real SQLite files: submit, duplicates, undo/redo, replay, snapshots."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.ledger import Ledger
from bot.store import (
    CorruptLogError,
    GameFinishedError,
    KeyReusedError,
    NothingToRedoError,
    NothingToUndoError,
    NotModeratorError,
    Store,
    Undone,
    state_hash,
)
from rules.actions import action_from_dict
from rules.errors import RulesError
from rules.game import GameState
from tests.bot.phase_script import random_phase, start_position
from tests.bot.store.test_sqlite import raw

MOD = 111
PLAYER = 222
GUILD = 9000
_ONE = {"sector": 1, "forces": 1}
NOWHERE = {"faction": "atreides", "action": "ship", "to": "Nowhere"} | _ONE


def replay(actions: list[dict[str, Any]], start: GameState | None = None) -> GameState:
    """A clean in-memory replay of ``actions`` from the start position."""
    state = GameState.from_dict((start or start_position()).to_dict())
    for action in actions:
        state.apply(action_from_dict(action))
    return state


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


async def new_game(store: Store, guild: int = GUILD) -> Ledger:
    game_id = await store.create_game(guild, start_position(), moderators=[MOD])
    return await Ledger.open(store, game_id)


async def play(game: Ledger, actions: list[dict[str, Any]], prefix: str = "k") -> None:
    for i, action in enumerate(actions):
        await game.submit(action_from_dict(action), actor=PLAYER, key=f"{prefix}{i}")


async def reopened(store: Store, game: Ledger) -> Ledger:
    """The game as a fresh ledger reads it back from the store."""
    return await Ledger.open(store, game.game_id)


# -- submitting actions ----------------------------------------------------------------


async def test_submit_commits_and_returns_the_events(
    store: Store, db_path: Path, script: list[dict[str, Any]]
) -> None:
    game = await new_game(store)
    result = await game.submit(action_from_dict(script[0]), actor=PLAYER, key="interaction-1")
    assert (result.seq, result.duplicate) == (2, False)
    assert result.state == replay(script[:1]) == game.state
    assert result.events == tuple(start_position().apply(action_from_dict(script[0])))
    with raw(db_path) as db:  # already on disk, seen by another connection
        rows = db.execute("SELECT seq, kind, actor, idem_key FROM action_log").fetchall()
    assert rows == [(1, "start", 0, "mentat:create"), (2, "action", PLAYER, "interaction-1")]


async def test_the_live_position_keeps_no_engine_undo(
    store: Store, script: list[dict[str, Any]]
) -> None:
    """The ledger goes back by its log: its positions, played or replayed from a snapshot,
    keep no engine undo history (each position kept would cost a long game's memory)."""
    game = await new_game(store)
    await play(game, script[:6])
    assert not game.state.can_undo
    again = await reopened(store, game)  # a snapshot (every 4) and the actions after it
    assert again.state == game.state and not again.state.can_undo
    await game.undo(MOD, key="undo-1")
    assert not game.state.can_undo and game.state == replay(script[:5])


async def test_a_refused_action_writes_nothing(store: Store) -> None:
    game = await new_game(store)
    with pytest.raises(RulesError):
        await game.submit(action_from_dict(NOWHERE), actor=PLAYER, key="k1")
    assert [e.kind for e in await store.log(game.game_id)] == ["start"]
    assert game.state == start_position() == (await reopened(store, game)).state


async def test_the_same_key_is_applied_once(store: Store, script: list[dict[str, Any]]) -> None:
    game = await new_game(store)
    action = action_from_dict(script[0])
    first = await game.submit(action, actor=PLAYER, key="k")
    again = await game.submit(action, actor=PLAYER, key="k")
    assert again.duplicate and (again.seq, again.events) == (first.seq, first.events)
    assert again.state == replay(script[:1])
    assert len(await store.log(game.game_id)) == 2


async def test_a_duplicate_is_answered_before_the_guard_looks(
    store: Store, script: list[dict[str, Any]]
) -> None:
    game = await new_game(store)
    action = action_from_dict(script[0])
    seen: list[dict[str, Any]] = []
    await game.submit(action, actor=PLAYER, key="k", guard=lambda s: seen.append(s.to_dict()))
    assert seen == [start_position().to_dict()]  # the position before the action

    def refuse(_: GameState) -> None:
        raise PermissionError("not now")

    again = await game.submit(action, actor=PLAYER, key="k", guard=refuse)
    assert again.duplicate
    with pytest.raises(PermissionError, match="not now"):
        await game.submit(action_from_dict(script[1]), actor=PLAYER, key="k2", guard=refuse)
    assert len(await store.log(game.game_id)) == 2


async def test_a_key_reused_for_another_request_is_refused(
    store: Store, script: list[dict[str, Any]]
) -> None:
    game = await new_game(store)
    await game.submit(action_from_dict(script[0]), actor=PLAYER, key="k")
    with pytest.raises(KeyReusedError, match=r"'k'.*entry #2"):
        await game.submit(action_from_dict(script[1]), actor=PLAYER, key="k")
    with pytest.raises(KeyReusedError):
        await game.undo(MOD, "k")


async def test_keys_belong_to_one_game(store: Store, script: list[dict[str, Any]]) -> None:
    a, b = await new_game(store), await new_game(store)
    await a.submit(action_from_dict(script[0]), actor=PLAYER, key="k")
    result = await b.submit(action_from_dict(script[0]), actor=PLAYER, key="k")
    assert not result.duplicate


async def test_a_finished_game_takes_no_requests(
    store: Store, script: list[dict[str, Any]]
) -> None:
    game, other = await new_game(store), await new_game(store)
    await game.finish()
    with pytest.raises(GameFinishedError, match=f"#{game.game_id} is finished"):
        await game.submit(action_from_dict(script[0]), actor=PLAYER, key="k")
    with pytest.raises(GameFinishedError):
        await (await reopened(store, game)).undo(MOD, "u")
    assert [g.game_id for g in await Ledger.open_active(store)] == [other.game_id]


async def test_an_undo_reopens_a_finished_game(store: Store, script: list[dict[str, Any]]) -> None:
    game = await new_game(store)
    await game.submit(action_from_dict(script[0]), actor=PLAYER, key="k")
    await game.finish()
    assert await Ledger.open_active(store) == []
    await game.undo(MOD, "u")
    assert game.record.is_active
    assert [g.game_id for g in await Ledger.open_active(store)] == [game.game_id]
    assert game.state == replay([])


async def test_games_progress_concurrently(store: Store) -> None:
    scripts = [random_phase(seed)[:8] for seed in range(6)]
    games = [await new_game(store, guild=seed % 2) for seed in range(6)]
    await asyncio.gather(*(play(g, s) for g, s in zip(games, scripts, strict=True)))
    for game, actions in zip(games, scripts, strict=True):
        assert (await reopened(store, game)).state == replay(actions) == game.state


@pytest.mark.parametrize("ticks", range(0, 12, 2))
async def test_a_cancelled_submit_leaves_memory_and_disk_agreeing(
    store: Store, script: list[dict[str, Any]], ticks: int
) -> None:
    game = await new_game(store)
    await play(game, script[:3])
    late = action_from_dict(script[3])
    task = asyncio.create_task(game.submit(late, actor=PLAYER, key="late"))
    for _ in range(ticks):
        await asyncio.sleep(0)
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    committed = "late" in {entry.key for entry in await store.log(game.game_id)}
    assert game.state == replay(script[: 4 if committed else 3])
    assert (await reopened(store, game)).state == game.state
    again = await game.submit(late, actor=PLAYER, key="late")
    assert again.duplicate == committed
    assert again.state == replay(script[:4])


async def test_a_failed_write_leaves_the_ledger_to_reload(
    store: Store, script: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await new_game(store)
    await play(game, script[:2])

    async def broken(*_: Any) -> None:
        raise OSError("disk full")

    with monkeypatch.context() as patch:
        patch.setattr(store.backend, "append", broken)
        with pytest.raises(OSError, match="disk full"):
            await game.submit(action_from_dict(script[2]), actor=PLAYER, key="lost")
    assert "lost" not in {entry.key for entry in await store.log(game.game_id)}
    result = await game.submit(action_from_dict(script[2]), actor=PLAYER, key="lost")
    assert not result.duplicate and result.state == replay(script[:3])


# -- opening ------------------------------------------------------------------------------


async def test_a_reopened_store_opens_the_committed_position(
    db_path: Path, script: list[dict[str, Any]]
) -> None:
    async with await Store.open(db_path, snapshot_every=3) as store:
        games = [await new_game(store) for _ in range(3)]
        for n, game in enumerate(games):
            await play(game, script[: 4 + n])
        await games[2].finish()
    async with await Store.open(db_path) as store:
        loaded = await Ledger.open_active(store)
    assert [g.game_id for g in loaded] == [g.game_id for g in games[:2]]
    for n, one in enumerate(loaded):
        assert one.state == replay(script[: 4 + n])
        assert one.seq == 1 + 4 + n


async def test_opening_uses_the_snapshot_when_its_hash_matches(
    db_path: Path, script: list[dict[str, Any]]
) -> None:
    async with await Store.open(db_path, snapshot_every=2) as store:
        game = await new_game(store)
        await play(game, script[:3])  # entries 2..4
        assert await game.checkpoint()
    # A snapshot replaced together with its hash is trusted, which shows that it is used.
    forged = replay(script[:3])
    forged.spice_bank += 77
    _replace_snapshot(db_path, head=4, state=forged.to_dict(), fix_hash=True)
    async with await Store.open(db_path) as store:
        assert (await reopened(store, game)).state == forged


async def test_a_snapshot_failing_its_hash_is_skipped(
    db_path: Path, script: list[dict[str, Any]], caplog: pytest.LogCaptureFixture
) -> None:
    async with await Store.open(db_path, snapshot_every=2) as store:
        game = await new_game(store)
        await play(game, script[:5])
        await game.checkpoint()
    _replace_snapshot(db_path, head=5, state={"broken": True}, fix_hash=False)
    _replace_snapshot(db_path, head=6, state={"broken": True}, fix_hash=False)
    with caplog.at_level(logging.WARNING, logger="bot.store"):
        async with await Store.open(db_path) as store:
            assert (await reopened(store, game)).state == replay(script[:5])
    assert "snapshot at entry #6 fails its hash check" in caplog.text
    assert "snapshot at entry #5 fails its hash check" in caplog.text


async def test_a_checkpoint_snapshots_what_is_not_yet(
    db_path: Path, script: list[dict[str, Any]]
) -> None:
    async with await Store.open(db_path, snapshot_every=100) as store:
        game, idle = await new_game(store), await new_game(store)
        await play(game, script[:3])
        assert await Ledger.checkpoint_all(store, [game, idle]) == 1
        assert await Ledger.checkpoint_all(store, [game, idle]) == 0
    with raw(db_path) as db:
        heads = db.execute(
            "SELECT head_seq FROM snapshots WHERE game_id = ?", (game.game_id,)
        ).fetchall()
        (stored,) = db.execute("SELECT state_hash FROM snapshots WHERE head_seq = 4").fetchone()
    assert heads == [(1,), (4,)]
    assert stored == state_hash(replay(script[:3]))


async def test_without_a_checkpoint_the_next_start_replays(
    db_path: Path, script: list[dict[str, Any]]
) -> None:
    async with await Store.open(db_path, snapshot_every=100) as store:
        game = await new_game(store)
        await play(game, script[:3])
    with raw(db_path) as db:
        assert db.execute("SELECT head_seq FROM snapshots").fetchall() == [(1,)]
    async with await Store.open(db_path) as store:
        assert (await reopened(store, game)).state == replay(script[:3])


async def test_start_up_opens_many_games_in_batches(
    db_path: Path, script: list[dict[str, Any]]
) -> None:
    async with await Store.open(db_path, snapshot_every=2) as store:
        games = [await new_game(store, guild=n % 7) for n in range(260)]
        for n, game in enumerate(games):
            await play(game, script[: n % 5])
    async with await Store.open(db_path) as store:
        loaded = await Ledger.open_active(store)
    assert [g.game_id for g in loaded] == [g.game_id for g in games]
    for n, one in enumerate(loaded):
        assert one.state == replay(script[: n % 5])


async def test_a_game_that_cannot_be_replayed_does_not_stop_the_others(
    db_path: Path, script: list[dict[str, Any]], caplog: pytest.LogCaptureFixture
) -> None:
    async with await Store.open(db_path) as store:
        good, bad = await new_game(store), await new_game(store)
        await play(good, script[:2])
    with raw(db_path) as db:
        db.execute(
            "INSERT INTO action_log (game_id, seq, kind, actor, body, events, idem_key,"
            " created_at) VALUES (?, 2, 'action', 1, ?, '[]', 'forged', 'now')",
            (bad.game_id, json.dumps(NOWHERE)),
        )
    with caplog.at_level(logging.ERROR, logger="bot.ledger"):
        async with await Store.open(db_path) as store:
            assert [g.game_id for g in await Ledger.open_active(store)] == [good.game_id]
            refused = f"game #{bad.game_id}: action entry #2 is refused"
            with pytest.raises(CorruptLogError, match=refused):
                await reopened(store, bad)
    assert f"game #{bad.game_id}: action entry #2 is refused on replay" in caplog.text


@pytest.mark.parametrize(
    ("column", "seq", "text", "message"),
    [
        ("body", 2, '{"action": "fly"}', "action entry #2 is unreadable"),
        ("body", 2, "not json", "action entry #2 is unreadable"),
        ("body", 1, '{"format": "nonsense"}', "start entry #1 is unreadable"),
    ],
)
async def test_an_unreadable_entry_does_not_stop_the_others(
    db_path: Path, script: list[dict[str, Any]], column: str, seq: int, text: str, message: str
) -> None:
    async with await Store.open(db_path, snapshot_every=100) as store:
        good, bad = await new_game(store), await new_game(store)
        await play(good, script[:2])
        await play(bad, script[:2])
    with raw(db_path) as db:
        # The log is append-only: rebuild the damaged game's rows without their guard.
        db.execute("DROP TRIGGER action_log_no_update")
        db.execute(
            f"UPDATE action_log SET {column} = ? WHERE game_id = ? AND seq = ?",
            (text, bad.game_id, seq),
        )
        db.execute("DELETE FROM snapshots WHERE game_id = ?", (bad.game_id,))
    async with await Store.open(db_path) as store:
        assert [g.game_id for g in await Ledger.open_active(store)] == [good.game_id]
        with pytest.raises(CorruptLogError, match=f"game #{bad.game_id}: {message}"):
            await reopened(store, bad)


# -- undo and redo ----------------------------------------------------------------------


async def test_undo_and_redo_are_entries_in_the_log(
    store: Store, script: list[dict[str, Any]]
) -> None:
    game = await new_game(store)
    await play(game, script[:3])
    undone = await game.undo(MOD, "u1")
    assert undone.state == replay(script[:2]) == game.state
    ((event),) = undone.events
    assert isinstance(event, Undone)
    assert event.kind == "undone" and event.seq == 4 and event.moderator == MOD
    assert event.action == script[2]
    redone = await game.redo(MOD, "r1")
    assert redone.state == replay(script[:3])
    assert redone.events[0].kind == "redone"
    assert redone.events[1:] == tuple(replay(script[:2]).apply(action_from_dict(script[2])))
    log = await store.log(game.game_id)
    assert [(e.kind, e.target) for e in log[-2:]] == [("undo", 4), ("redo", 4)]


async def test_only_moderators_undo(store: Store, script: list[dict[str, Any]]) -> None:
    game = await new_game(store)
    await play(game, script[:1])
    with pytest.raises(
        NotModeratorError,
        match=f"moderator of game #{game.game_id} may undo; user {PLAYER} is not",
    ):
        await game.undo(PLAYER, "u")
    with pytest.raises(NotModeratorError):
        await game.redo(PLAYER, "r")
    assert len(await store.log(game.game_id)) == 2


async def test_an_authorised_caller_undoes_in_its_own_name(
    store: Store, script: list[dict[str, Any]]
) -> None:
    """The application checked the moderator (say, a moderator role's holder, never
    listed): the ledger takes its word, and the log names that user."""
    game = await new_game(store)
    await play(game, script[:2])
    await game.undo(PLAYER, "u", authorised=True)
    await game.redo(PLAYER, "r", authorised=True)
    await game.start_phase(PLAYER, _two_faction_position(), "p", authorised=True)
    log = await store.log(game.game_id)
    assert [(e.kind, e.actor) for e in log[-3:]] == [
        ("undo", PLAYER),
        ("redo", PLAYER),
        ("start", PLAYER),
    ]
    assert not await store.is_moderator(game.game_id, PLAYER)


async def test_nothing_to_undo_or_redo(store: Store, script: list[dict[str, Any]]) -> None:
    game = await new_game(store)
    with pytest.raises(NothingToUndoError):
        await game.undo(MOD, "u")
    await play(game, script[:2])
    with pytest.raises(NothingToRedoError):
        await game.redo(MOD, "r")
    await game.undo(MOD, "u")
    await game.submit(action_from_dict(script[1]), actor=PLAYER, key="again")
    with pytest.raises(NothingToRedoError, match="no undone action"):
        await game.redo(MOD, "r")


async def test_undo_is_idempotent_too(store: Store, script: list[dict[str, Any]]) -> None:
    game = await new_game(store)
    await play(game, script[:3])
    first = await game.undo(MOD, "u")
    again = await game.undo(MOD, "u")
    assert again.duplicate and again.seq == first.seq
    assert again.state == replay(script[:2])


async def test_undo_across_snapshots_survives_a_restart(
    db_path: Path, script: list[dict[str, Any]]
) -> None:
    async with await Store.open(db_path, snapshot_every=2) as store:
        game = await new_game(store)
        await play(game, script[:7])
        for n in range(5):
            await game.undo(MOD, f"u{n}")
        await game.redo(MOD, "r")
        assert (await reopened(store, game)).state == replay(script[:3]) == game.state
    async with await Store.open(db_path) as store:
        again = await reopened(store, game)
        assert again.state == replay(script[:3])
        assert again.can_undo and again.can_redo
        await again.redo(MOD, "r2")
        assert (await reopened(store, game)).state == replay(script[:4])


async def test_a_new_phase_starts_from_its_own_position(
    store: Store, script: list[dict[str, Any]]
) -> None:
    game = await new_game(store)
    await play(game, script[:2])
    second = _two_faction_position()
    result = await game.start_phase(MOD, second, "phase-2")
    assert result.state == second and result.events[0].kind == "phase_started"
    with pytest.raises(NothingToUndoError):
        await game.undo(MOD, "u")
    with pytest.raises(NotModeratorError):
        await game.start_phase(PLAYER, second, "phase-3")
    assert (await reopened(store, game)).state == second


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
                await game.undo(MOD, f"u{step}")
                undone.append(effective.pop())
            elif choice < 0.4 and undone:
                await game.redo(MOD, f"r{step}")
                effective.append(undone.pop())
            elif choice < 0.5:
                if rng.random() < 0.5:
                    await game.checkpoint()
                await store.close()
                store = await Store.open(db_path, snapshot_every=rng.randint(1, 4))
                game = await reopened(store, game)
            elif len(effective) < len(script):
                action = script[len(effective)]
                await game.submit(action_from_dict(action), actor=PLAYER, key=f"a{step}")
                effective.append(action)
                undone.clear()
            assert game.state == replay(effective) == (await reopened(store, game)).state
    finally:
        await store.close()


# -- helpers --------------------------------------------------------------------------


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
    async with await Store.open(db_path) as store:
        game = await new_game(store)
    (prompt,) = game.state.open_prompts()
    (faction,) = prompt.waiting_on()
    legacy = {"action": "pass", "faction": faction.value, "prompt": prompt.kind.value}
    with raw(db_path) as db:
        db.execute(
            "INSERT INTO action_log (game_id, seq, kind, target, actor, body, events, idem_key,"
            " created_at) VALUES (?, 2, 'action', NULL, 0, ?, '[]', 'legacy', ?)",
            (game.game_id, json.dumps(legacy), "2026-01-01T00:00:00+00:00"),
        )
    async with await Store.open(db_path) as store:
        loaded = await reopened(store, game)
        assert loaded.seq == 2
        assert prompt not in loaded.state.open_prompts()
        assert all(faction not in p.waiting_on() for p in loaded.state.open_prompts())
