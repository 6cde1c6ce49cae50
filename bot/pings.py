"""A person's pings across their games of one server (issue 25): quiet hours in their own
time zone, a reminder interval, a heads-up when the player before them starts, and a
digest by direct message.

Pure values and arithmetic (the standard library's :mod:`zoneinfo`): the store keeps a
:class:`PingPrefs` per server and user, :mod:`bot.seats.ping_schedule` decides the pings
owed, :mod:`bot.seats.pinger` sends them. Quiet hours hush pings; they never move a
deadline.
"""

from __future__ import annotations

import functools
import re
import zoneinfo
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from rules.errors import MentatError, quote
from rules.suggest import closest

ZONE_LONGEST = 64  # no IANA name is longer ("America/Argentina/ComodRivadavia" is 32)
TIME_LONGEST = 16
INTERVAL_LONGEST = 24
SHORTEST_INTERVAL = timedelta(hours=1)
LONGEST_INTERVAL = timedelta(hours=72)
_TIME = re.compile(r"^(\d{1,2})(?:[:h.](\d{2}))?\s*(am|pm)?$")
_INTERVAL = re.compile(r"^(?:(\d{1,3})\s*h(?:ours?)?)?\s*(?:(\d{1,4})\s*m(?:in(?:utes?)?)?)?$")


class PingsError(MentatError):
    """A setting of one's pings that cannot be taken (a wrong time, zone or interval);
    nothing is saved."""


@dataclass(frozen=True, slots=True)
class QuietHours:
    """From ``start`` to ``end`` (local wall-clock times in ``zone``, an IANA name), every
    day; ``end`` before ``start`` is a window across midnight (23:00 to 07:00)."""

    start: time
    end: time
    zone: str

    def __post_init__(self) -> None:
        if self.start == self.end:
            raise PingsError("quiet hours need an end different from their start")
        zone_info(self.zone)  # refused here too: a stored value is checked as it is read

    def contains(self, now: datetime) -> bool:
        """Whether ``now`` (timezone-aware) falls inside the quiet hours."""
        local = now.astimezone(zone_info(self.zone)).time().replace(tzinfo=None)
        if self.start < self.end:
            return self.start <= local < self.end
        return local >= self.start or local < self.end

    def ends_after(self, now: datetime) -> datetime:
        """When the quiet hours that hold at ``now`` end (or the next ones would), in UTC
        as ``now``'s zone: the next local ``end`` after ``now``. Across a daylight-saving
        change the window is as long as the wall clock says (an hour shorter or longer)."""
        zone = zone_info(self.zone)
        local = now.astimezone(zone)
        day = local.date()
        for offset in range(3):
            at = datetime.combine(day + timedelta(days=offset), self.end, tzinfo=zone)
            at = at.astimezone(now.tzinfo)
            if at > now:
                return at
        raise AssertionError("a wall-clock time recurs every day")  # pragma: no cover

    def words(self) -> str:
        return f"{self.start:%H:%M} to {self.end:%H:%M} ({self.zone})"


@dataclass(frozen=True, slots=True)
class PingPrefs:
    """One user's pings in one server, across all their games there."""

    quiet: QuietHours | None = None
    interval: timedelta | None = None  # None: no reminders (the default)
    before_me: bool = False  # a heads-up when the player before them starts their turn
    digest: bool = False  # reminders come as a digest by direct message
    dm_closed: bool = False  # a digest failed (DMs closed): none is tried until set again

    def quiet_at(self, now: datetime) -> bool:
        return self.quiet is not None and self.quiet.contains(now)

    @property
    def digest_by_dm(self) -> bool:
        return self.digest and not self.dm_closed


@dataclass(frozen=True, slots=True)
class PingMark:
    """The last ping of one ``kind`` a user was sent (or owed) in one game: ``key`` names
    what it was about (the wait), ``at`` when. Kept in the store, so a restart repeats none."""

    game_id: int
    user_id: int
    kind: str
    key: str
    at: datetime


@functools.cache
def zone_names() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def zone_info(name: str) -> zoneinfo.ZoneInfo:
    """The IANA time zone ``name`` ("Europe/Paris"); :class:`PingsError` with a "did you
    mean" otherwise."""
    typed = name.strip()
    if not typed or len(typed) > ZONE_LONGEST or typed not in zone_names():
        raise PingsError(f"{quote(name)} is not a time zone ({_zone_hint(typed)})")
    try:
        return zoneinfo.ZoneInfo(typed)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError) as error:  # pragma: no cover
        raise PingsError(f"{quote(name)} is not a time zone ({_zone_hint(typed)})") from error


def _zone_hint(typed: str) -> str:
    names = zone_names()
    example = "write it as its IANA name, like Europe/Paris or America/New_York"
    if not typed or len(typed) > ZONE_LONGEST:
        return example
    folded = typed.replace(" ", "_").lower()
    by_case = {n.lower(): n for n in names}
    by_city = {n.rsplit("/", 1)[-1].lower(): n for n in sorted(names) if "/" in n}
    close = by_case.get(folded) or by_city.get(folded) or closest(typed, names)
    if close is None:
        close = closest(folded, by_city)
        close = by_city[close] if close is not None else None
    return f"did you mean {close}?" if close else example


def parse_time(typed: str) -> time:
    """A time of day: "23:00", "7", "7:30", "11pm"; :class:`PingsError` otherwise."""
    text = typed.strip().lower()
    found = _TIME.match(text) if len(text) <= TIME_LONGEST else None
    if found is not None:
        hour, minute = int(found[1]), int(found[2] or 0)
        if found[3] is not None:
            hour = hour % 12 + (12 if found[3] == "pm" else 0) if 1 <= hour <= 12 else 99
        if hour < 24 and minute < 60:
            return time(hour, minute)
    raise PingsError(f"{quote(typed)} is not a time of day: write it like 23:00 or 7:30")


def parse_interval(typed: str) -> timedelta | None:
    """How often to remind: "4h", "90m", "1h30m", "6 hours"; "off" is None."""
    text = typed.strip().lower()
    if text in ("off", "never", "none", "0"):
        return None
    found = _INTERVAL.match(text) if len(text) <= INTERVAL_LONGEST and text else None
    if found is None or (found[1] is None and found[2] is None):
        raise PingsError(
            f"{quote(typed)} is not an interval: write it like 4h, 90m or 1h30m (or off)"
        )
    every = timedelta(hours=int(found[1] or 0), minutes=int(found[2] or 0))
    if not SHORTEST_INTERVAL <= every <= LONGEST_INTERVAL:
        raise PingsError(
            f"reminders come every {hours(SHORTEST_INTERVAL)} at most and every "
            f"{hours(LONGEST_INTERVAL)} at least, not every {hours(every)}"
        )
    return every


def quiet_hours(start: str, end: str, zone: str) -> QuietHours:
    """Quiet hours from what a user typed; :class:`PingsError` for any part that is wrong."""
    return QuietHours(parse_time(start), parse_time(end), zone.strip())


def hours(every: timedelta) -> str:
    """An interval in words: "4 hours", "1 hour 30 minutes", "45 minutes"."""
    minutes = int(every.total_seconds()) // 60
    whole, rest = divmod(minutes, 60)
    parts = []
    if whole:
        parts.append(f"{whole} hour" + ("s" if whole != 1 else ""))
    if rest or not whole:
        parts.append(f"{rest} minute" + ("s" if rest != 1 else ""))
    return " ".join(parts)
