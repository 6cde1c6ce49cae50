"""Discord's timestamps (``<t:1767272400:f>``) in words, for a record read outside Discord
(the demo's console, ``public.md`` and private logs), where no client renders them.

Times are written in UTC; a relative one (``:R``) is said from the moment the message was
written ("in 1 hour", "5 minutes ago").
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

STAMP = re.compile(r"<t:(-?\d{1,12})(?::([tTdDfFR]))?>")

_FORMATS = {
    "t": "%H:%M UTC",
    "T": "%H:%M:%S UTC",
    "d": "%d/%m/%Y",
    "D": "{day} %B %Y",
    "f": "%A {day} %B %Y, %H:%M UTC",
    "F": "%A {day} %B %Y, %H:%M UTC",
}
_UNITS = (("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1))


def stamps_in_words(text: str, now: datetime) -> str:
    """``text`` with each Discord timestamp written out, relative ones from ``now``."""
    return STAMP.sub(lambda m: _stamp(int(m.group(1)), m.group(2) or "f", now), text)


def _stamp(seconds: int, style: str, now: datetime) -> str:
    when = datetime.fromtimestamp(seconds, UTC)
    if style == "R":
        return _relative(seconds - int(now.timestamp()))
    return when.strftime(_FORMATS[style].replace("{day}", str(when.day)))


def _relative(delta: int) -> str:
    """``delta`` seconds from now as Discord says it: "in 2 hours", "3 minutes ago"."""
    size = abs(delta)
    if size < 1:
        return "now"
    name, unit = next((n, u) for n, u in _UNITS if size >= u)
    count = size // unit
    words = f"{count} {name}" + ("" if count == 1 else "s")
    return f"in {words}" if delta > 0 else f"{words} ago"
