"""Which pings a game owes its players now (issue 25): pure, given "now", the users'
preferences, what the game waits on and the marks of the pings already sent.

- a reminder, "the game still waits on you", every interval a user chose (none by
  default), counted from when the wait began asking them (the prompt's own ping);
- a heads-up, "the player before you has started their turn", once per Shipment &
  Movement turn, to the player whose faction comes next in storm order (public);
- once quiet hours end, one ping to a user whose ping they hushed, if the game still
  waits on them.

None in a user's quiet hours: what is due then waits for their end (the deadline does not
move). Each ping is said once: the marks written with it (in the store) say so after a
restart too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.pings import PingMark, PingPrefs
from rules.factions import Faction

REMINDER, HEADS_UP, HUSHED = "reminder", "heads_up", "hushed"
"""The kinds of marks (one per user and game each)."""
QUIET_OVER = "quiet_over"
"""The ping owed once quiet hours end (a kind of :class:`Ping`; its mark is ``HUSHED``)."""
OWED, PAID = "owed", "paid"
"""A ``HUSHED`` mark's key: a hushed ping is owed, or no longer."""
NOBODY = PingPrefs()


@dataclass(frozen=True, slots=True)
class GameWait:
    """What one game waits on now, from public facts: ``key`` names the wait,
    ``waiting`` the users it waits on (with their faction), ``next_up`` the users whose
    faction comes right after the one taking its Shipment & Movement turn."""

    game_id: int
    key: str
    waiting: Mapping[int, Faction]
    next_up: Mapping[int, Faction]


@dataclass(frozen=True, slots=True)
class Ping:
    game_id: int
    user_id: int
    faction: Faction
    kind: str  # REMINDER, HEADS_UP or QUIET_OVER


@dataclass(frozen=True, slots=True)
class Plan:
    """The pings to send and the marks to keep first (each ping said once)."""

    pings: tuple[Ping, ...]
    marks: tuple[PingMark, ...]


def plan(
    now: datetime,
    wait: GameWait,
    prefs: Mapping[int, PingPrefs],
    marks: Mapping[tuple[int, str], PingMark],
) -> Plan:
    """The pings ``wait``'s game owes now; ``marks`` are this game's, by (user, kind)."""
    pings: list[Ping] = []
    kept: list[PingMark] = []

    def mark(user: int, kind: str, key: str) -> None:
        kept.append(PingMark(wait.game_id, user, kind, key, now))

    users = sorted({*wait.waiting, *wait.next_up, *(u for u, k in marks if k == HUSHED)})
    for user in users:
        mine = prefs.get(user, NOBODY)
        quiet = mine.quiet_at(now)
        faction = wait.waiting.get(user)
        hushed = marks.get((user, HUSHED))
        if hushed is not None and hushed.key == OWED:
            if faction is None:  # the game no longer waits on them: nothing to say
                mark(user, HUSHED, PAID)
            elif not quiet:
                pings.append(Ping(wait.game_id, user, faction, QUIET_OVER))
                mark(user, HUSHED, PAID)
                if mine.interval is not None:  # this is the ping: the next in an interval
                    mark(user, REMINDER, wait.key)
                continue
        if faction is not None and mine.interval is not None:
            last = marks.get((user, REMINDER))
            if last is None or last.key != wait.key:
                mark(user, REMINDER, wait.key)  # the wait's own prompt asked them now
            elif now - last.at >= mine.interval and not quiet:
                pings.append(Ping(wait.game_id, user, faction, REMINDER))
                mark(user, REMINDER, wait.key)
        up = wait.next_up.get(user)
        if up is not None and faction is None and mine.before_me and not quiet:
            last = marks.get((user, HEADS_UP))
            if last is None or last.key != wait.key:
                pings.append(Ping(wait.game_id, user, up, HEADS_UP))
                mark(user, HEADS_UP, wait.key)
    return Plan(tuple(pings), tuple(kept))


def next_in_storm_order(
    order: Sequence[Faction], acting: Faction | None, done: Sequence[Faction]
) -> Faction | None:
    """The faction whose turn follows ``acting``'s in storm order (those that have had
    their turn skipped); None when ``acting`` is the last or nobody acts."""
    if acting is None or acting not in order:
        return None
    for faction in order[order.index(acting) + 1 :]:
        if faction not in done:
            return faction
    return None
