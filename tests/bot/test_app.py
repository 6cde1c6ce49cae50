"""The application object: games by channel, seats and moderators, restart."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from bot.app import Mentat
from bot.clock import FakeClock
from bot.orders import StandingOrders
from bot.publisher import RecordingPublisher
from bot.session.session import SessionError
from bot.store import Store
from rules.actions import SetSpice, SetStorm
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


# -- a moderator's correction is one action in the log ------------------------------------


async def _running(tmp_path: Path) -> tuple[Mentat, int, RecordingPublisher]:
    start = load_scenario(json.loads(EXAMPLE.read_text())).initial_state()
    publisher = RecordingPublisher()
    app = Mentat(await Store.open(tmp_path / "m.db"), publisher, FakeClock())
    session = await app.create_game(7, start, channels=CHANNELS, moderators=(99,))
    return app, session.game_id, publisher


async def _close(app: Mentat) -> None:
    await app.stop()
    await app.store.close()


async def test_a_correction_keeps_the_pause_and_the_frozen_deadline(tmp_path: Path) -> None:
    app, game_id, publisher = await _running(tmp_path)
    try:
        session = app.session(game_id)
        await session.pause(99)
        frozen = session.deadline.paused_left
        assert frozen is not None
        await app.correct(game_id, 99, SetStorm(7), key="storm")
        session = app.session(game_id)
        assert session.state is not None and session.state.storm_sector == 7
        assert session.deadline.paused_left == frozen
        assert isinstance(app.clock, FakeClock)
        await session.until_idle()
        await app.clock.advance(3 * 24 * 3600, settle=session.next_idle)
        assert not any("Time ran out" in n.text for _, n in publisher.public_notices)
        await session.resume(99)
        assert session.deadline.at == app.clock.now() + frozen
    finally:
        await _close(app)


async def test_a_correction_is_an_action_entry_undone_and_redone_like_any(
    tmp_path: Path,
) -> None:
    app, game_id, publisher = await _running(tmp_path)
    try:
        session = app.session(game_id)
        await session.set_orders(Faction.EMPEROR, StandingOrders(karama="never"))
        await app.offer_ally_payment(game_id, Faction.ATREIDES, 2)  # for the Guild
        assert session.state is not None
        before, logged = session.state.to_dict(), len(await app.store.log(game_id))
        first = await app.correct(game_id, 99, SetSpice(Faction.ATREIDES, 3), key="k1")
        again = await app.correct(game_id, 99, SetSpice(Faction.ATREIDES, 3), key="k1")
        assert again.duplicate and again.seq == first.seq
        entries = await app.store.log(game_id)
        assert [e.kind for e in entries[logged:]] == ["action"]
        assert entries[-1].actor == 99 and entries[-1].body["action"] == "set_spice"
        assert app.session(game_id) is session  # no restart
        assert session.orders[Faction.EMPEROR] == StandingOrders(karama="never")
        offer = app.ally_offer(game_id, Faction.SPACING_GUILD)
        assert offer is not None and offer.amount == 2
        text = publisher.public_notices[-1][1].text
        assert text.startswith(
            "Correction by <@99>: Atreides' spice is corrected (the amount stays behind "
            "their shield)."
        )
        assert "3" not in text.splitlines()[0]
        await session.undo(99, "u1", authorised=True)
        assert session.state.to_dict() == before
        undone = publisher.public_notices[-1][1].text
        assert "the correction of the Atreides spice was taken back." in undone
        await session.redo(99, "r1", authorised=True)
        assert session.state.factions[Faction.ATREIDES].spice == 3
        with pytest.raises(SessionError, match="moderators"):
            await app.correct(game_id, 555, SetStorm(3), key="k2")
    finally:
        await _close(app)
