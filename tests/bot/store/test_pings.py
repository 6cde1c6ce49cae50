"""Issue 25: each user's pings in a server, and the marks of the pings sent, kept on both
backends (SQLite and a real PostgreSQL server)."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

from bot.pings import PingMark, PingPrefs, QuietHours
from bot.store import Store
from tests.bot.store.conftest import GUILD, OpenStore, new_game

ANNA, BEN = 2**62, 5  # a snowflake's size, and a small id


async def test_preferences_are_kept_per_server_and_user_and_replaced_whole(
    open_store: OpenStore,
) -> None:
    store = await open_store()
    assert await store.ping_prefs(GUILD) == {}
    night = QuietHours(time(23), time(7, 30), "Europe/Paris")
    anna = PingPrefs(quiet=night, interval=timedelta(hours=4), before_me=True, digest=True)
    await store.set_ping_prefs(GUILD, ANNA, anna)
    await store.set_ping_prefs(GUILD, BEN, PingPrefs(interval=timedelta(minutes=90)))
    await store.set_ping_prefs(GUILD + 1, ANNA, PingPrefs(before_me=True))
    assert await store.ping_prefs(GUILD) == {
        ANNA: anna,
        BEN: PingPrefs(interval=timedelta(minutes=90)),
    }
    assert await store.ping_prefs(GUILD + 1) == {ANNA: PingPrefs(before_me=True)}
    closed = PingPrefs(quiet=night, digest=True, dm_closed=True)
    await store.set_ping_prefs(GUILD, ANNA, closed)
    reopened = await open_store()  # another connection reads what was committed
    assert (await reopened.ping_prefs(GUILD))[ANNA] == closed


async def test_the_marks_of_pings_sent_are_kept_per_game_user_and_kind(store: Store) -> None:
    game, other = await new_game(store), await new_game(store)
    at = datetime(2026, 3, 29, 5, 0, 0, 123456, tzinfo=UTC)
    first = [
        PingMark(game, ANNA, "reminder", "turn:1", at),
        PingMark(game, ANNA, "hushed", "owed", at),
        PingMark(game, BEN, "reminder", "turn:1", at),
        PingMark(other, ANNA, "heads_up", "turn:7", at),
    ]
    await store.keep_ping_marks(first)
    later = PingMark(game, ANNA, "reminder", "turn:2", at + timedelta(hours=4))
    await store.keep_ping_marks([later, PingMark(game, ANNA, "hushed", "paid", at)])
    marks = await store.ping_marks(game)
    assert marks == {
        (ANNA, "reminder"): later,
        (ANNA, "hushed"): PingMark(game, ANNA, "hushed", "paid", at),
        (BEN, "reminder"): first[2],
    }
    assert await store.ping_marks(other) == {(ANNA, "heads_up"): first[3]}
    assert marks[(ANNA, "reminder")].at.tzinfo is not None
