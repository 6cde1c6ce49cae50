"""Issue 25, quiet hours: the arithmetic of a window in a user's own time zone (across
midnight, across a daylight-saving change, two zones) and what a user may type."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest

from bot.pings import (
    PingPrefs,
    PingsError,
    QuietHours,
    hours,
    parse_interval,
    parse_time,
    quiet_hours,
    zone_info,
)

NIGHT_IN_PARIS = QuietHours(time(23), time(7), "Europe/Paris")


def utc(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=UTC)  # type: ignore[misc]


def test_a_window_across_midnight_holds_on_both_sides_of_it() -> None:
    # January: Paris is UTC+1, so 23:00-07:00 there is 22:00-06:00 UTC
    assert not NIGHT_IN_PARIS.contains(utc(2026, 1, 10, 21, 59))
    assert NIGHT_IN_PARIS.contains(utc(2026, 1, 10, 22, 0))
    assert NIGHT_IN_PARIS.contains(utc(2026, 1, 10, 23, 30))  # before midnight in Paris
    assert NIGHT_IN_PARIS.contains(utc(2026, 1, 11, 3, 0))  # after it
    assert NIGHT_IN_PARIS.contains(utc(2026, 1, 11, 5, 59))
    assert not NIGHT_IN_PARIS.contains(utc(2026, 1, 11, 6, 0))
    assert NIGHT_IN_PARIS.ends_after(utc(2026, 1, 10, 22, 30)) == utc(2026, 1, 11, 6, 0)
    assert NIGHT_IN_PARIS.ends_after(utc(2026, 1, 11, 5, 0)) == utc(2026, 1, 11, 6, 0)


def test_a_window_within_one_day() -> None:
    lunch = QuietHours(time(12), time(13, 30), "UTC")
    assert not lunch.contains(utc(2026, 1, 1, 11, 59))
    assert lunch.contains(utc(2026, 1, 1, 12, 0)) and lunch.contains(utc(2026, 1, 1, 13, 29))
    assert not lunch.contains(utc(2026, 1, 1, 13, 30))
    assert lunch.ends_after(utc(2026, 1, 1, 14, 0)) == utc(2026, 1, 2, 13, 30)


def test_the_wall_clock_decides_across_a_daylight_saving_change() -> None:
    # 29 March 2026: Paris moves from UTC+1 to UTC+2 at 02:00; the night is an hour shorter
    assert NIGHT_IN_PARIS.contains(utc(2026, 3, 28, 22, 0))  # 23:00 in Paris, winter time
    assert NIGHT_IN_PARIS.contains(utc(2026, 3, 29, 4, 59))  # 06:59 in Paris, summer time
    assert not NIGHT_IN_PARIS.contains(utc(2026, 3, 29, 5, 0))  # 07:00 summer time
    assert NIGHT_IN_PARIS.ends_after(utc(2026, 3, 28, 23, 0)) == utc(2026, 3, 29, 5, 0)
    # 25 October 2026: back to UTC+1; the night is an hour longer
    assert NIGHT_IN_PARIS.contains(utc(2026, 10, 25, 5, 30))  # 06:30 in Paris, winter time
    assert NIGHT_IN_PARIS.ends_after(utc(2026, 10, 24, 22, 0)) == utc(2026, 10, 25, 6, 0)


def test_the_same_hours_in_two_time_zones_are_different_moments() -> None:
    new_york = QuietHours(time(23), time(7), "America/New_York")  # UTC-5 in January
    now = utc(2026, 1, 11, 6, 30)  # 07:30 in Paris, 01:30 in New York
    assert not NIGHT_IN_PARIS.contains(now) and new_york.contains(now)
    assert new_york.ends_after(now) == utc(2026, 1, 11, 12, 0)
    later = utc(2026, 1, 11, 22, 30)  # 23:30 in Paris, 17:30 in New York
    assert NIGHT_IN_PARIS.contains(later) and not new_york.contains(later)
    assert PingPrefs(quiet=new_york).quiet_at(now) and not PingPrefs().quiet_at(now)


def test_times_of_day_are_read_as_people_write_them() -> None:
    assert parse_time("23:00") == time(23)
    assert parse_time(" 7 ") == time(7)
    assert parse_time("7:30") == time(7, 30)
    assert parse_time("11pm") == time(23)
    assert parse_time("12am") == time(0)
    assert parse_time("6.45") == time(6, 45)
    for junk in ("25:00", "7:61", "noon", "", "13pm", "1" * 200, "-1:00"):
        with pytest.raises(PingsError, match="is not a time of day: write it like 23:00"):
            parse_time(junk)


def test_a_wrong_zone_gets_a_did_you_mean() -> None:
    assert str(zone_info("Europe/Paris")) == "Europe/Paris"
    for typed, meant in [
        ("Europe/Pari", "Europe/Paris"),
        ("europe/paris", "Europe/Paris"),
        ("Paris", "Europe/Paris"),
        ("new york", "America/New_York"),
        ("Amerca/Chicago", "America/Chicago"),
    ]:
        with pytest.raises(PingsError, match=f"is not a time zone \\(did you mean {meant}\\?\\)"):
            zone_info(typed)
    for junk in ("", "../../etc/passwd", "x" * 500, "/usr/share/zoneinfo/UTC"):
        with pytest.raises(PingsError, match="is not a time zone"):
            zone_info(junk)
    with pytest.raises(PingsError, match="an end different from their start"):
        quiet_hours("7:00", "07", "UTC")
    with pytest.raises(PingsError, match="'Mars/Olympus'"):
        quiet_hours("23:00", "7:00", "Mars/Olympus")


def test_intervals() -> None:
    assert parse_interval("4h") == timedelta(hours=4)
    assert parse_interval("90m") == timedelta(minutes=90)
    assert parse_interval("1h30m") == timedelta(hours=1, minutes=30)
    assert parse_interval("6 hours") == timedelta(hours=6)
    assert parse_interval("off") is None
    with pytest.raises(PingsError, match="reminders come every 1 hour at most and every 72 hours"):
        parse_interval("5m")
    with pytest.raises(PingsError, match="not every 100 hours"):
        parse_interval("100h")
    for junk in ("soon", "", "h", "4d", "9" * 100):
        with pytest.raises(PingsError, match="is not an interval"):
            parse_interval(junk)
    assert hours(timedelta(hours=1, minutes=30)) == "1 hour 30 minutes"
    assert hours(timedelta(minutes=45)) == "45 minutes"
