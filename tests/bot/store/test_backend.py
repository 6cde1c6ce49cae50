"""The backend interface, run on every backend (see the ``backend`` fixture): rows in, rows out."""

from __future__ import annotations

import asyncio

import pytest

from bot.settings import GameSettings, Seating, to_columns
from bot.store import LogConflictError
from bot.store.backend import Backend, EntryRow, GameRow, SnapshotRow
from tests.bot.store.conftest import GUILD, OpenBackend

SETTINGS = to_columns(GameSettings())
NOW = "2026-01-01T00:00:00.000000+00:00"


def entry(seq: int, kind: str = "action", key: str = "", target: int | None = None) -> EntryRow:
    body = None if kind in ("undo", "redo") else f'{{"n":{seq}}}'
    return EntryRow(seq, kind, 7, key or f"k{seq}", body, target, "[]", NOW)


async def create(backend: Backend, guild: int = 1, moderators: tuple[int, ...] = (9,)) -> int:
    game = GameRow(0, guild, '{"table":5}', '["v"]', "active", NOW, SETTINGS)
    start = entry(1, "start", "mentat:create")
    return await backend.create_game(game, start, SnapshotRow(0, 1, "{}", "d"), list(moderators))


async def test_a_game_row_comes_back_as_it_went_in(backend: OpenBackend) -> None:
    db = await backend()
    game_id = await create(db)
    row = await db.game(game_id)
    assert row == GameRow(game_id, 1, '{"table":5}', '["v"]', "active", NOW, SETTINGS)
    assert await db.game(game_id + 1) is None
    assert await db.moderators(game_id) == [9]
    assert await db.entries(game_id) == [entry(1, "start", "mentat:create")]
    assert await db.snapshot_heads([game_id]) == {game_id: {1}}


async def test_games_by_server_and_status(backend: OpenBackend) -> None:
    db = await backend()
    a, b, c = await create(db, 1), await create(db, 2), await create(db, 1)
    assert await db.set_status(b, "finished")
    assert [g.id for g in await db.games(None, True)] == [a, c]
    assert [g.id for g in await db.games(1, True)] == [a, c]
    assert [g.id for g in await db.games(2, False)] == [b]
    assert not await db.set_status(99, "finished")


async def test_settings_are_replaced_whole(backend: OpenBackend) -> None:
    db = await backend()
    game_id = await create(db)
    seating = Seating(players_open=True, first_volunteer=True, autopilot_after=3)
    changed = to_columns(GameSettings(maps="never", turn=4, seating=seating))
    assert await db.set_settings(game_id, changed)
    row = await db.game(game_id)
    assert row is not None and row.settings == changed
    assert not await db.set_settings(game_id + 1, changed)


async def test_seats_and_moderators(backend: OpenBackend) -> None:
    db = await backend()
    game_id = await create(db)
    await db.set_seat(game_id, "fremen", 1, NOW, None)
    await db.set_seat(game_id, "atreides", 2, NOW, 3)
    await db.set_seat(game_id, "fremen", 3, NOW, None)
    assert await db.seats(game_id) == [("atreides", 2), ("fremen", 3)]
    await db.add_moderator(game_id, 4)
    await db.add_moderator(game_id, 4)
    await db.remove_moderator(game_id, 9)
    assert await db.moderators(game_id) == [4]


async def test_a_server_s_volunteers_channel_is_chosen_changed_and_cleared(
    backend: OpenBackend,
) -> None:
    db = await backend()
    assert await db.volunteers_channel(GUILD) is None
    await db.set_volunteers_channel(GUILD, 2**62)  # a snowflake's size
    await db.set_volunteers_channel(GUILD + 1, 5)
    assert await db.volunteers_channel(GUILD) == 2**62
    await db.set_volunteers_channel(GUILD, None)
    assert await db.volunteers_channel(GUILD) is None
    assert await db.volunteers_channel(GUILD + 1) == 5


async def test_the_log_appends_and_reads_back(backend: OpenBackend) -> None:
    db = await backend()
    game_id = await create(db)
    await db.append(game_id, entry(2), None)
    await db.append(game_id, entry(3), SnapshotRow(game_id, 3, '{"s":3}', "h3"))
    await db.append(game_id, entry(4, "undo", target=3), None)
    assert [e.seq for e in await db.entries(game_id)] == [1, 2, 3, 4]
    assert await db.entry_with_key(game_id, "k3") == entry(3)
    assert await db.entry_with_key(game_id, "nope") is None
    assert await db.entry_at(game_id, 4) == entry(4, "undo", target=3)
    assert await db.headers([game_id]) == {
        game_id: [
            (1, "start", None, "mentat:create"),
            (2, "action", None, "k2"),
            (3, "action", None, "k3"),
            (4, "undo", 3, "k4"),
        ]
    }
    assert await db.snapshots([(game_id, 3), (game_id, 2)]) == [
        SnapshotRow(game_id, 3, '{"s":3}', "h3")
    ]
    bodies = await db.action_bodies_after([(game_id, 2)])
    assert bodies == [(game_id, 3, '{"n":3}')]


@pytest.mark.parametrize("clash", ["seq", "key"])
async def test_a_taken_seq_or_key_is_refused_and_nothing_is_written(
    backend: OpenBackend, clash: str
) -> None:
    db = await backend()
    game_id = await create(db)
    await db.append(game_id, entry(2), None)
    again = entry(2, key="other") if clash == "seq" else entry(3, key="k2")
    with pytest.raises(LogConflictError, match=r"moved on elsewhere.*unique constraint"):
        await db.append(game_id, again, SnapshotRow(game_id, 2, "{}", "x"))
    assert [e.key for e in await db.entries(game_id)] == ["mentat:create", "k2"]
    assert await db.snapshot_heads([game_id]) == {game_id: {1}}


async def test_snapshots_are_kept_once(backend: OpenBackend) -> None:
    db = await backend()
    game_id = await create(db)
    await db.append(game_id, entry(2), None)
    await db.add_snapshots([SnapshotRow(game_id, 2, "a", "ha"), SnapshotRow(game_id, 1, "b", "hb")])
    found = await db.snapshots([(game_id, 1), (game_id, 2)])
    assert sorted(found, key=lambda s: s.head) == [
        SnapshotRow(game_id, 1, "{}", "d"),  # the first one stays
        SnapshotRow(game_id, 2, "a", "ha"),
    ]


async def test_many_games_are_read_in_batches(backend: OpenBackend) -> None:
    db = await backend()
    ids = [await create(db, guild=n % 3) for n in range(600)]
    for game_id in ids[::2]:
        await db.append(game_id, entry(2), None)
    headers = await db.headers(ids)
    assert len(headers) == 600 and all(len(headers[i]) == 2 for i in ids[::2])
    assert len(await db.snapshots([(i, 1) for i in ids])) == 600
    assert len(await db.action_bodies_after([(i, 1) for i in ids])) == 300


async def test_two_connections_see_each_others_commits(backend: OpenBackend) -> None:
    one, two = await backend(), await backend()
    game_id = await create(one)
    await asyncio.gather(one.append(game_id, entry(2), None), two.add_moderator(game_id, 5))
    assert [e.seq for e in await two.entries(game_id)] == [1, 2]
    assert sorted(await one.moderators(game_id)) == [5, 9]
