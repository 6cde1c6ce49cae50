"""Issue 25, the pings a game owes (bot.seats.ping_schedule): reminders every interval,
the heads-up when the player before starts, nothing in quiet hours and the hushed ping
once they end, and no ping said twice, a restart included (the marks are all it keeps)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, time, timedelta

from bot.pings import PingMark, PingPrefs, QuietHours
from bot.seats.ping_schedule import (
    HEADS_UP,
    HUSHED,
    OWED,
    PAID,
    QUIET_OVER,
    REMINDER,
    GameWait,
    Ping,
    next_in_storm_order,
    plan,
)
from rules.factions import Faction

ANNA, BEN = 1, 2
START = datetime(2026, 1, 10, 12, 0, tzinfo=UTC)
EVERY_4H = PingPrefs(interval=timedelta(hours=4))
NIGHT = QuietHours(time(23), time(7), "UTC")


class Marks:
    """The store's marks of one game, as the pinger keeps them."""

    def __init__(self) -> None:
        self.kept: dict[tuple[int, str], PingMark] = {}

    def run(self, at: datetime, wait: GameWait, prefs: Mapping[int, PingPrefs]) -> tuple[Ping, ...]:
        owed = plan(at, wait, prefs, dict(self.kept))
        for mark in owed.marks:
            self.kept[(mark.user_id, mark.kind)] = mark
        return owed.pings


def waiting(key: str = "turn:1", **users: Faction) -> GameWait:
    ids = {"anna": ANNA, "ben": BEN}
    return GameWait(7, key, {ids[n]: f for n, f in users.items()}, {})


def test_a_reminder_every_interval_counted_from_when_the_wait_began() -> None:
    marks, wait = Marks(), waiting(anna=Faction.FREMEN)
    assert marks.run(START, wait, {ANNA: EVERY_4H}) == ()  # the prompt pinged them now
    assert marks.run(START + timedelta(hours=3, minutes=59), wait, {ANNA: EVERY_4H}) == ()
    reminded = marks.run(START + timedelta(hours=4), wait, {ANNA: EVERY_4H})
    assert reminded == (Ping(7, ANNA, Faction.FREMEN, REMINDER),)
    assert marks.run(START + timedelta(hours=5), wait, {ANNA: EVERY_4H}) == ()
    again = marks.run(START + timedelta(hours=8), wait, {ANNA: EVERY_4H})
    assert again == reminded
    new_wait = waiting("turn:2", anna=Faction.FREMEN)  # a new wait starts the count again
    assert marks.run(START + timedelta(hours=12), new_wait, {ANNA: EVERY_4H}) == ()
    assert marks.run(START + timedelta(hours=13), new_wait, {ANNA: EVERY_4H}) == ()


def test_no_reminder_by_default_nor_for_a_game_that_waits_on_someone_else() -> None:
    marks = Marks()
    wait = waiting(anna=Faction.FREMEN)
    for hour in range(0, 48, 4):
        assert marks.run(START + timedelta(hours=hour), wait, {}) == ()
    other = waiting(ben=Faction.ATREIDES)
    for hour in range(0, 48, 4):
        assert marks.run(START + timedelta(hours=hour), other, {ANNA: EVERY_4H}) == ()


def test_quiet_hours_hold_a_reminder_until_they_end_and_move_no_deadline() -> None:
    prefs = {ANNA: PingPrefs(quiet=NIGHT, interval=timedelta(hours=4))}
    marks, wait = Marks(), waiting(anna=Faction.FREMEN)
    evening = datetime(2026, 1, 10, 20, 0, tzinfo=UTC)
    assert marks.run(evening, wait, prefs) == ()
    for hour in range(4, 11):  # 00:00 to 06:00: due, but quiet
        assert marks.run(evening + timedelta(hours=hour), wait, prefs) == ()
    morning = marks.run(evening + timedelta(hours=11), wait, prefs)  # 07:00
    assert morning == (Ping(7, ANNA, Faction.FREMEN, REMINDER),)
    assert marks.run(evening + timedelta(hours=12), wait, prefs) == ()


def test_a_hushed_ping_is_made_once_when_quiet_hours_end_if_the_game_still_waits() -> None:
    prefs = {ANNA: PingPrefs(quiet=NIGHT, interval=timedelta(hours=4))}
    marks, wait = Marks(), waiting(anna=Faction.FREMEN)
    night = datetime(2026, 1, 10, 23, 30, tzinfo=UTC)
    marks.kept[(ANNA, HUSHED)] = PingMark(7, ANNA, HUSHED, OWED, night)  # the publisher's
    assert marks.run(night, wait, prefs) == ()
    assert marks.run(night + timedelta(hours=7), wait, prefs) == ()  # 06:30: still quiet
    over = marks.run(night + timedelta(hours=7, minutes=30), wait, prefs)  # 07:00
    assert over == (Ping(7, ANNA, Faction.FREMEN, QUIET_OVER),)  # one ping, no reminder too
    assert marks.kept[(ANNA, HUSHED)].key == PAID
    assert marks.run(night + timedelta(hours=8), wait, prefs) == ()
    reminded = marks.run(night + timedelta(hours=11, minutes=30), wait, prefs)
    assert [p.kind for p in reminded] == [REMINDER]  # the interval counts from that ping


def test_a_hushed_ping_is_dropped_when_the_game_no_longer_waits_on_them() -> None:
    prefs = {ANNA: PingPrefs(quiet=NIGHT)}
    marks = Marks()
    night = datetime(2026, 1, 10, 23, 30, tzinfo=UTC)
    marks.kept[(ANNA, HUSHED)] = PingMark(7, ANNA, HUSHED, OWED, night)
    moved_on = waiting("turn:2", ben=Faction.ATREIDES)
    assert marks.run(night + timedelta(hours=8), moved_on, prefs) == ()
    assert marks.kept[(ANNA, HUSHED)].key == PAID
    back = waiting("turn:3", anna=Faction.FREMEN)
    assert marks.run(night + timedelta(hours=9), back, prefs) == ()


def test_the_heads_up_once_per_turn_of_the_player_before_and_not_in_quiet_hours() -> None:
    prefs = {ANNA: PingPrefs(before_me=True, quiet=NIGHT)}
    marks = Marks()
    before = GameWait(7, "turn:3", {BEN: Faction.ATREIDES}, {ANNA: Faction.FREMEN})
    heads_up = marks.run(START, before, prefs)
    assert heads_up == (Ping(7, ANNA, Faction.FREMEN, HEADS_UP),)
    assert marks.run(START + timedelta(hours=1), before, prefs) == ()
    night = GameWait(7, "turn:9", {BEN: Faction.ATREIDES}, {ANNA: Faction.FREMEN})
    late = datetime(2026, 1, 10, 23, 0, tzinfo=UTC)
    assert marks.run(late, night, prefs) == ()
    morning = marks.run(late + timedelta(hours=8), night, prefs)  # still that turn at 07:00
    assert morning == heads_up
    assert marks.run(START, before, {ANNA: PingPrefs()}) == ()  # not asked for: none


def test_a_restart_repeats_no_ping() -> None:
    prefs = {ANNA: PingPrefs(before_me=True, interval=timedelta(hours=4))}
    marks = Marks()
    before = GameWait(7, "turn:3", {BEN: Faction.ATREIDES}, {ANNA: Faction.FREMEN})
    assert len(marks.run(START, before, prefs)) == 1
    mine = waiting("turn:4", anna=Faction.FREMEN)
    marks.run(START, mine, prefs)
    assert len(marks.run(START + timedelta(hours=4), mine, prefs)) == 1
    restarted = Marks()  # a new process reads the same marks back from the store
    restarted.kept = dict(marks.kept)
    assert restarted.run(START + timedelta(hours=4, minutes=1), mine, prefs) == ()
    assert restarted.run(START + timedelta(hours=4), before, prefs) == ()


def test_the_next_faction_in_storm_order() -> None:
    order = (Faction.FREMEN, Faction.ATREIDES, Faction.EMPEROR, Faction.HARKONNEN)
    assert next_in_storm_order(order, Faction.FREMEN, ()) is Faction.ATREIDES
    assert next_in_storm_order(order, Faction.FREMEN, (Faction.ATREIDES,)) is Faction.EMPEROR
    assert next_in_storm_order(order, Faction.HARKONNEN, ()) is None
    assert next_in_storm_order(order, None, ()) is None
    assert next_in_storm_order(order, Faction.SPACING_GUILD, ()) is None
