"""Reliability: how a player has kept their seats in one server's games (issue 25).

Computed from the store on demand: the seats' tenures (who held which faction from when)
and the games' logs (who acted for whom, when; a deadline's default is an entry by the bot
whose key says ``:deadline:``). The thresholds of the levels are in docs/reliability.md:

- **New**: fewer than :data:`MIN_GAMES` games played in this server.
- **Unreliable**: more than :data:`MAX_MISSED` of the deadlines they faced missed, or more
  than :data:`MAX_ABANDONED` of their games' seats abandoned.
- **Reliable**: anyone else.

A game may require a level of a newly seated player (:func:`require_level`)."""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum

from bot.store import SYSTEM_ACTOR, Answer, Store, Tenure
from bot.words.common import duration
from rules.errors import MentatError
from rules.factions import Faction

MIN_GAMES = 3
MAX_MISSED = 0.25
MAX_ABANDONED = 0.25
DEADLINE_KEY = ":deadline:"


class Level(Enum):
    NEW = "New"
    RELIABLE = "Reliable"
    UNRELIABLE = "Unreliable"


REQUIREMENTS = {
    "not_unreliable": (frozenset({Level.NEW, Level.RELIABLE}), "New or Reliable players"),
    "reliable": (frozenset({Level.RELIABLE}), "Reliable players"),
}
"""A game's ``required_level`` setting: the levels it seats, and their name in words."""


class ReliabilityError(MentatError):
    """A player below the level a game requires."""


@dataclass(frozen=True, slots=True)
class Reliability:
    """One player's record in one server's games."""

    user_id: int
    played: int = 0
    finished: int = 0
    answered: int = 0
    missed: int = 0
    abandoned: int = 0
    answer_times: tuple[timedelta, ...] = ()

    @property
    def median_answer(self) -> timedelta | None:
        if not self.answer_times:
            return None
        return timedelta(seconds=statistics.median(t.total_seconds() for t in self.answer_times))

    @property
    def level(self) -> Level:
        if self.played < MIN_GAMES:
            return Level.NEW
        faced = self.answered + self.missed
        if faced and self.missed / faced > MAX_MISSED:
            return Level.UNRELIABLE
        if self.abandoned / self.played > MAX_ABANDONED:
            return Level.UNRELIABLE
        return Level.RELIABLE


async def reliability(store: Store, guild_id: int, user_id: int) -> Reliability:
    """``user_id``'s record in the games of the server ``guild_id``."""
    tenures = await store.tenures(guild_id, user_id)
    game_ids = sorted({t.game_id for t in tenures})
    if not game_ids:
        return Reliability(user_id)
    finished = {g.id for g in await store.games(guild_id, active_only=False) if not g.is_active}
    seats: dict[int, list[Tenure]] = {}
    for tenure in tenures:
        seats.setdefault(tenure.game_id, []).append(tenure)
    logs: dict[int, list[Answer]] = {}
    for answer in await store.answers(game_ids, user_id):
        logs.setdefault(answer.game_id, []).append(answer)
    firsts = await store.first_actions(game_ids)
    tally = _Tally(user_id)
    for game_id in game_ids:
        played = firsts.get(game_id)
        if played is not None:
            log = logs.get(game_id, [])
            tally.game(seats[game_id], log, played, finished=game_id in finished)
    return tally.result()


async def require_level(store: Store, game_id: int, user_id: int) -> None:
    """ReliabilityError when the game requires a level ``user_id`` has not reached."""
    record = await store.game(game_id)
    required = record.settings.required_level
    if required is None or required not in REQUIREMENTS:
        return
    accepted, who = REQUIREMENTS[required]
    player = await reliability(store, record.guild_id, user_id)
    if player.level not in accepted:
        raise ReliabilityError(
            f"game #{game_id} seats only {who}, and <@{user_id}> is {player.level.value} in "
            f"this server ({summary(player)}; `/profile` shows it)"
        )


def summary(player: Reliability) -> str:
    """The figures behind a level, in one line."""
    faced = player.answered + player.missed
    return (
        f"{_count(player.played, 'game')} played, {player.finished} finished; "
        f"{player.missed} of {_count(faced, 'deadline')} missed; "
        f"{_count(player.abandoned, 'seat')} abandoned"
    )


def profile_text(player: Reliability) -> str:
    """``/profile``: the level, the figures and the thresholds, in words."""
    median = player.median_answer
    answer = "no answers yet" if median is None else duration(median)
    return (
        f"<@{player.user_id}> is **{player.level.value}** in this server.\n"
        f"- Games: {player.played} played, {player.finished} finished.\n"
        f"- Deadlines: {player.missed} missed of {player.answered + player.missed} "
        f"(answered in time {player.answered}).\n"
        f"- Median time to answer: {answer}.\n"
        f"- Seats abandoned: {player.abandoned}.\n"
        f"Levels: New under {MIN_GAMES} games played; Unreliable when more than "
        f"{_share(MAX_MISSED)} of the deadlines were missed or more than "
        f"{_share(MAX_ABANDONED)} of the games' seats abandoned; Reliable otherwise."
    )


@dataclass(frozen=True, slots=True)
class _Held:
    """A tenure with its end (None: still held)."""

    faction: Faction
    user_id: int
    since: datetime
    until: datetime | None


class _Tally:
    """Adds up one player's games, one at a time."""

    def __init__(self, user_id: int) -> None:
        self.user_id = user_id
        self.played = self.finished = self.answered = self.missed = self.abandoned = 0
        self.times: list[timedelta] = []

    def game(
        self, tenures: Sequence[Tenure], log: Sequence[Answer], first: datetime, *, finished: bool
    ) -> None:
        """One game whose first action was logged at ``first``; ``log`` holds the player's
        actions and the deadlines' defaults."""
        held = _held(tenures)
        mine = [h for h in held if h.user_id == self.user_id]
        if not any(h.until is None or h.until > first for h in mine):
            return  # never at the table while the game was played
        self.played += 1
        self.finished += finished and any(h.until is None for h in mine)
        self.abandoned += sum(1 for h in mine if h.until is not None and h.until > first)
        for entry in log:
            if entry.faction is None or _holder(held, entry.faction, entry.at) != self.user_id:
                continue
            if entry.actor == SYSTEM_ACTOR and DEADLINE_KEY in entry.key:
                self.missed += 1
            elif entry.actor == self.user_id:
                self.answered += 1
                self.times.append(entry.at - entry.previous)

    def result(self) -> Reliability:
        return Reliability(
            self.user_id,
            self.played,
            self.finished,
            self.answered,
            self.missed,
            self.abandoned,
            tuple(self.times),
        )


def _held(tenures: Iterable[Tenure]) -> list[_Held]:
    """Each seat's tenures with their ends; a player seated again in their own seat keeps
    one tenure."""
    out: list[_Held] = []
    by_faction: dict[Faction, list[Tenure]] = {}
    for tenure in tenures:
        by_faction.setdefault(tenure.faction, []).append(tenure)
    for faction, seq in by_faction.items():
        merged = [t for n, t in enumerate(seq) if n == 0 or seq[n - 1].user_id != t.user_id]
        for n, tenure in enumerate(merged):
            until = merged[n + 1].since if n + 1 < len(merged) else None
            out.append(_Held(faction, tenure.user_id, tenure.since, until))
    return out


def _holder(held: Sequence[_Held], faction: Faction, at: datetime) -> int | None:
    for h in held:
        if h.faction is faction and h.since <= at and (h.until is None or at < h.until):
            return h.user_id
    return None


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'s' * (n != 1)}"


def _share(fraction: float) -> str:
    return f"1 in {round(1 / fraction)}"
