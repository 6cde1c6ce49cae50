"""The application object: games by channel, seats and moderators, restart."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from bot.app import Mentat
from bot.clock import FakeClock
from bot.publisher import RecordingPublisher
from bot.session import SessionError
from bot.store import Store
from rules.factions import Faction
from rules.scenario import load_scenario

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "advanced-phase.json"
CHANNELS = {"table": 101, "spectators": 102, "moderators": 103}


async def test_games_by_channel_seats_and_restart(tmp_path: Path) -> None:
    start = load_scenario(json.loads(EXAMPLE.read_text())).initial_state()
    store = await Store.open(tmp_path / "m.db")
    app = Mentat(store, RecordingPublisher(), FakeClock())
    try:
        session = await app.create_game(7, start, channels=CHANNELS, moderators=(99,))
        await store.seat(session.game_id, 555, Faction.HARKONNEN)
        assert app.game_in(101) == session.game_id
        with pytest.raises(SessionError):
            app.game_in(999)
        await app.require_player(session.game_id, 555, Faction.HARKONNEN)
        await app.require_player(session.game_id, 99, Faction.HARKONNEN)  # a moderator
        with pytest.raises(SessionError, match="Atreides seat"):
            await app.require_player(session.game_id, 555, Faction.ATREIDES)
        with pytest.raises(SessionError, match="moderators"):
            await app.require_moderator(session.game_id, 555)
    finally:
        await app.stop()
        await store.close()

    store = await Store.open(tmp_path / "m.db")
    app = Mentat(store, RecordingPublisher(), FakeClock())
    try:
        await app.start()
        game_id = app.game_in(102)
        assert app.session(game_id).state is not None
    finally:
        await app.stop()
        await store.close()


async def test_only_factions_in_the_game_get_seats(tmp_path: Path) -> None:
    data = json.loads(EXAMPLE.read_text())
    start = load_scenario(data).initial_state()
    absent = next(f for f in Faction if not start.in_game(f))
    store = await Store.open(tmp_path / "m.db")
    app = Mentat(store, RecordingPublisher(), FakeClock())
    try:
        session = await app.create_game(7, start, channels=CHANNELS, moderators=(99,))
        with pytest.raises(SessionError, match=f"{absent.label} is not in this game"):
            await app.seat(session.game_id, 555, absent)
        await app.seat(session.game_id, 555, Faction.HARKONNEN)
        assert await store.seats(session.game_id) == {Faction.HARKONNEN: 555}
    finally:
        await app.stop()
        await store.close()


async def test_stopping_snapshots_every_game_so_the_next_start_replays_nothing(
    tmp_path: Path,
) -> None:
    start = load_scenario(json.loads(EXAMPLE.read_text())).initial_state()
    store = await Store.open(tmp_path / "m.db")
    app = Mentat(store, RecordingPublisher(), FakeClock())
    try:
        session = await app.create_game(7, start, channels=CHANNELS, moderators=(99,))
        await session.skip(99, "skip-1")  # the faction to act passes: entry #2
    finally:
        await app.stop()
        await store.close()
    with sqlite3.connect(tmp_path / "m.db") as db:
        heads = db.execute("SELECT head_seq FROM snapshots ORDER BY head_seq").fetchall()
    assert heads == [(1,), (2,)]
