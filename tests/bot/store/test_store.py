"""The store over a backend: games, settings, seats, moderators, the log, snapshots."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

import pytest

from bot.ledger import Ledger
from bot.orders import StandingOrders
from bot.settings import AllyOffer, Channels, GameSettings, SessionTimers, Timing
from bot.store import (
    CREATE_KEY,
    Entry,
    LogConflictError,
    PhaseStarted,
    Store,
    Undone,
    UnknownGameError,
    state_hash,
)
from bot.store.backend import EntryRow, SnapshotRow
from rules.actions import action_from_dict
from rules.events import MovementPassed
from rules.factions import Faction
from tests.bot.phase_script import random_phase, start_position
from tests.bot.store.conftest import GUILD, MOD, OpenStore, new_game

FULL = GameSettings(
    channels=Channels({Faction.ATREIDES: 2**62, Faction.FREMEN: 12}, moderator_role=99),
    timing=Timing(timedelta(minutes=30), timedelta(minutes=5), timedelta(minutes=2)),
    timers=SessionTimers(
        "prompts:x",
        datetime(2030, 1, 2, tzinfo=UTC),
        True,
        timedelta(0),
        "12",
        {Faction.FREMEN: "ref-1", Faction.ATREIDES: None},
        {"11:fremen": "you declined"},
    ),
    orders={Faction.FREMEN: StandingOrders(karama="never")},
    ally_offers={Faction.FREMEN: AllyOffer(Faction.ATREIDES, Faction.FREMEN, 4)},
    maps="turn",
    turn=2,
    required_level="reliable",
)


async def test_games_keep_their_settings(store: Store) -> None:
    game = await store.create_game(
        GUILD,
        start_position(),
        channels={"table": 1, "log": 2},
        settings=FULL,
        variants=["storm_migration"],
    )
    record = await store.game(game)
    assert record.channels == {"table": 1, "log": 2}
    assert record.settings == FULL == await store.settings(game)
    assert record.variants == ("storm_migration",)
    assert record.is_active


async def test_settings_change_whole(store: Store) -> None:
    game = await new_game(store)
    assert await store.settings(game) == GameSettings()
    await store.set_settings(game, FULL)
    assert await store.settings(game) == FULL
    later = SessionTimers(deadline=datetime(2031, 1, 1, 5, tzinfo=UTC) + timedelta(hours=5))
    await store.set_settings(game, GameSettings(timers=later))
    assert await store.settings(game) == GameSettings(timers=later)


def test_deadlines_must_have_a_timezone() -> None:
    with pytest.raises(ValueError, match="timezone: 2030-01-01T00:00:00"):
        SessionTimers(deadline=datetime(2030, 1, 1))


async def test_several_games_per_server(store: Store) -> None:
    a, b = await new_game(store, 1), await new_game(store, 1)
    c = await new_game(store, 2)
    assert [g.id for g in await store.games(1)] == [a, b]
    assert [g.id for g in await store.games()] == [a, b, c]
    await store.finish_game(b)
    assert [g.id for g in await store.games()] == [a, c]
    assert [g.id for g in await store.games(1, active_only=False)] == [a, b]
    assert not (await store.game(b)).is_active


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


async def test_unknown_game_ids_are_clear_errors(store: Store) -> None:
    for call in (
        store.game(42),
        store.settings(42),
        store.set_settings(42, GameSettings()),
        store.seats(42),
        store.seat(42, 1, Faction.FREMEN),
        store.add_moderator(42, 1),
        store.moderators(42),
        store.log(42),
        store.finish_game(42),
    ):
        with pytest.raises(UnknownGameError, match="no game #42"):
            await call


async def test_the_log_reads_back_what_was_appended(store: Store) -> None:
    game = await new_game(store)
    events = (MovementPassed(Faction.FREMEN),)
    body = {"faction": "fremen", "action": "pass"}
    await store.append(game, Entry(2, "action", 5, "key", body, None, events))
    undone = Undone(seq=2, action=body, moderator=MOD)
    await store.append(game, Entry(3, "undo", MOD, "u", None, 2, (undone,)), (1, start_position()))
    log = await store.log(game)
    assert [(e.seq, e.kind, e.actor, e.key, e.target) for e in log] == [
        (1, "start", 0, CREATE_KEY, None),
        (2, "action", 5, "key", None),
        (3, "undo", MOD, "u", 2),
    ]
    assert log[0].body == start_position().to_dict()
    assert log[0].events == (PhaseStarted(1),)
    assert (log[1].body, log[1].events) == (body, events)
    assert log[2].events == (undone,)  # the log's own events read back as themselves
    assert await store.entry_with_key(game, "key") == log[1]
    assert await store.body(game, 2) == body
    assert await store.headers([game]) == {
        game: [(1, "start", None, CREATE_KEY), (2, "action", None, "key"), (3, "undo", 2, "u")]
    }


async def test_snapshots_failing_their_hash_are_left_out(
    open_store: OpenStore, caplog: pytest.LogCaptureFixture
) -> None:
    store = await open_store()
    game = await new_game(store)
    assert await store.snapshots([(game, 1)]) == {(game, 1): start_position()}
    text = '{"spice_bank": 1}'
    entry = EntryRow(2, "action", 1, "k2", "{}", None, "[]", "2026-01-01T00:00:00+00:00")
    await store.backend.append(game, entry, None)
    await store.backend.add_snapshots([SnapshotRow(game, 2, text, "0" * 64)])
    with caplog.at_level(logging.WARNING, logger="bot.store"):
        assert await store.snapshots([(game, 1), (game, 2)]) == {(game, 1): start_position()}
    assert f"game #{game}: snapshot at entry #2 fails its hash check" in caplog.text


async def test_added_snapshots_carry_their_hash(store: Store) -> None:
    game = await new_game(store)
    await store.append(game, Entry(2, "action", 5, "k", {"x": 1}, None, ()))
    position = start_position()
    position.spice_bank += 3
    await store.add_snapshots([(game, 2, position)])
    (row,) = await store.backend.snapshots([(game, 2)])
    assert row.digest == state_hash(position)
    assert await store.snapshots([(game, 2)]) == {(game, 2): position}


async def test_a_stale_writer_is_refused_by_the_log_and_catches_up(open_store: OpenStore) -> None:
    """Two processes holding the same game (one took it over, the other does not know yet):
    the log's unique constraints refuse the second writer; it reloads and goes on."""
    one, two = await open_store(), await open_store()
    game_id = await new_game(one)
    script = random_phase(3)
    first, second = await Ledger.open(one, game_id), await Ledger.open(two, game_id)
    await first.submit(action_from_dict(script[0]), actor=MOD, key="a")
    with pytest.raises(LogConflictError, match="moved on elsewhere"):
        await second.submit(action_from_dict(script[0]), actor=MOD, key="b")
    assert [entry.key for entry in await two.log(game_id)] == [CREATE_KEY, "a"]
    again = await second.submit(action_from_dict(script[0]), actor=MOD, key="a")
    assert (again.seq, again.duplicate) == (2, True)  # reloaded: the request was there
    done = await second.submit(action_from_dict(script[1]), actor=MOD, key="c")
    expected = start_position()
    for body in script[:2]:
        expected.apply(action_from_dict(body))
    assert done.seq == 3 and second.state == expected
    assert [entry.key for entry in await one.log(game_id)] == [CREATE_KEY, "a", "c"]
