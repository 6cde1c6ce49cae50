"""Issue 25: a game that made no progress for its ``stall_after_hours`` is reported to its
moderators, once per stall, paused or not; again only after progress; never twice across
a restart; never once the setting is 0."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.app import Mentat
from bot.clock import FakeClock
from bot.publisher import RecordingPublisher
from bot.seats.stall import stalled, waits_on
from bot.session.autopilot import no_progress_words
from bot.settings import GameSettings, Seating
from bot.store import Store
from bot.waits import CHOICE, MODERATORS, Wait
from rules.factions import Faction
from rules.scenario import load_scenario
from tests.bot.test_app import CHANNELS, EXAMPLE

GUILD, MODERATOR = 7, 99
HOUR = 3600.0
NOON = datetime(2026, 3, 1, 12, tzinfo=UTC)


def test_a_stall_is_the_set_hours_without_progress_and_never_when_off() -> None:
    assert not stalled(NOON + timedelta(hours=71, minutes=59), NOON, 72)
    assert stalled(NOON + timedelta(hours=72), NOON, 72)
    assert not stalled(NOON + timedelta(days=300), NOON, 0)


def test_what_a_stalled_game_waits_on_in_words() -> None:
    both = Wait("k", CHOICE, (Faction.ATREIDES, Faction.FREMEN, Faction.EMPEROR))
    assert waits_on(both, paused=False) == "Atreides, Fremen and Emperor"
    assert waits_on(Wait("k", CHOICE, (Faction.FREMEN,)), paused=True) == (
        "Fremen, paused by a moderator"
    )
    assert waits_on(Wait("k", MODERATORS, ()), paused=False).startswith("the moderators")
    text = no_progress_words(12, NOON, NOON + timedelta(hours=72, minutes=5), "Fremen")
    stamp = int(NOON.timestamp())
    assert text.startswith(
        f"Game #12 has made no progress for 3 days: it waits on Fremen since <t:{stamp}:R>."
    )


def stall_reports(publisher: RecordingPublisher) -> list[str]:
    return [n.text for _, n in publisher.moderator_notices if "made no progress" in n.text]


async def test_a_stall_is_told_once_then_again_after_progress_and_a_new_stall(
    tmp_path: Path,
) -> None:
    start = load_scenario(json.loads(EXAMPLE.read_text())).initial_state()
    clock = FakeClock(datetime.now(UTC) + timedelta(minutes=1))  # the log's times: real ones
    publisher = RecordingPublisher()
    app = Mentat(await Store.open(tmp_path / "m.db"), publisher, clock)
    await app.start()
    settings = GameSettings(seating=Seating(stall_after_hours=3))
    try:
        session = await app.create_game(
            GUILD, start, channels=CHANNELS, settings=settings, moderators=(MODERATOR,)
        )
        game_id = session.game_id
        assert (await app.store.settings(game_id)).seating.stall_after_hours == 3
        await session.pause(MODERATOR)  # paused or not, no progress is no progress
        await app.pinger.tick()
        await clock.advance(3 * HOUR - 120)  # since the game's creation, in its log
        await app.pinger.tick()
        assert stall_reports(publisher) == []
        await clock.advance(120)
        await app.pinger.tick()
        said = stall_reports(publisher)
        assert len(said) == 1
        assert said[0].startswith(f"Game #{game_id} has made no progress for 3 hours: it waits")
        assert "paused by a moderator" in said[0]
        await clock.advance(5 * HOUR)
        await app.pinger.tick()
        assert len(stall_reports(publisher)) == 1  # once per stall
    finally:
        await app.stop()
        await app.store.close()

    again = RecordingPublisher()
    restarted = Mentat(await Store.open(tmp_path / "m.db"), again, clock)
    await restarted.start()
    try:
        session = restarted.session(game_id)
        await restarted.pinger.tick()  # still stalled since the log's last entry, but
        assert stall_reports(again) == []  # the store remembers it was told
        await session.resume(MODERATOR)
        await session.skip(MODERATOR, "skip-1")  # progress: an action in the log
        await restarted.pinger.tick()
        await clock.advance(2 * HOUR)
        await restarted.pinger.tick()
        assert stall_reports(again) == []
        await clock.advance(HOUR)
        await session.until_idle()
        await restarted.pinger.tick()
        assert len(stall_reports(again)) == 1  # a new stall
    finally:
        await restarted.stop()
        await restarted.store.close()


async def test_no_stall_is_told_when_the_setting_is_off(tmp_path: Path) -> None:
    start = load_scenario(json.loads(EXAMPLE.read_text())).initial_state()
    clock = FakeClock()
    publisher = RecordingPublisher()
    app = Mentat(await Store.open(tmp_path / "m.db"), publisher, clock)
    await app.start()
    try:
        settings = GameSettings(seating=Seating(stall_after_hours=0))
        session = await app.create_game(
            GUILD, start, channels=CHANNELS, settings=settings, moderators=(MODERATOR,)
        )
        await session.pause(MODERATOR)
        await app.pinger.tick()
        await clock.advance(500 * HOUR)
        await app.pinger.tick()
        assert stall_reports(publisher) == []
    finally:
        await app.stop()
        await app.store.close()
