"""Issue 25, the application's pinger over a real store: a reminder is said once, and a
restart (a new process reading the same store) repeats none."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

from bot.app import Mentat
from bot.clock import FakeClock
from bot.pings import PingPrefs
from bot.publisher import RecordingPublisher
from bot.seats.ping_schedule import REMINDER
from bot.store import Store
from rules.scenario import load_scenario
from tests.bot.test_app import CHANNELS, EXAMPLE

GUILD, PLAYER = 7, 555
HOUR = 3600.0


def reminders(publisher: RecordingPublisher) -> list[str]:
    return [n.text for _, n in publisher.private_notices if n.ping and "still waits" in n.text]


async def test_a_reminder_is_said_once_across_a_restart(tmp_path: Path) -> None:
    start = load_scenario(json.loads(EXAMPLE.read_text())).initial_state()
    clock = FakeClock()
    publisher = RecordingPublisher()
    app = Mentat(await Store.open(tmp_path / "m.db"), publisher, clock)
    await app.start()
    try:
        session = await app.create_game(GUILD, start, channels=CHANNELS)
        game_id = session.game_id
        wait = session.current_wait()
        assert wait is not None
        faction = wait.factions[0]
        await app.seat(game_id, PLAYER, faction)
        await app.store.set_ping_prefs(GUILD, PLAYER, PingPrefs(interval=timedelta(hours=1)))
        await session.until_idle()
        assert await app.pinger.tick() == []  # the wait's own prompt asked them now
        await clock.advance(HOUR - 1)
        await session.until_idle()
        assert await app.pinger.tick() == []
        await clock.advance(1)
        await session.until_idle()
        sent = await app.pinger.tick()
        assert [(p.kind, p.user_id, p.faction) for p in sent] == [(REMINDER, PLAYER, faction)]
        said = reminders(publisher)
        assert len(said) == 1 and said[0].startswith(f"Game #{game_id} still waits on you (")
        assert "deadline <t:" in said[0]
    finally:
        await app.stop()
        await app.store.close()

    again = RecordingPublisher()
    restarted = Mentat(await Store.open(tmp_path / "m.db"), again, clock)
    await restarted.start()
    try:
        assert restarted.session(game_id).current_wait() == wait
        assert await restarted.pinger.tick() == []  # the store remembers it was said
        await clock.advance(HOUR)
        await restarted.session(game_id).until_idle()
        assert len(await restarted.pinger.tick()) == 1 and len(reminders(again)) == 1
    finally:
        await restarted.stop()
        await restarted.store.close()
