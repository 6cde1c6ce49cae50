"""A game's public moments, replayed from its log: what anyone could see after each action.

A *moment* is the position after an action in effect that changed something public (its
public events, or the public view): moment 0 is the start, moment N the N-th such action.
An action that changed nothing anyone sees (a secret choice) makes no moment, so the page
never tells that it happened. Undone actions are not in the record (the log in effect).

Hidden information is a type here too: a :class:`Moment` holds public events and a
:class:`~rules.view.PublicView` only; the position itself stays in this module. The
private views of "open the shields" are :class:`Shields`, built only for a finished game
(:meth:`Timelines.shields`).
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import UTC, datetime
from itertools import count
from typing import Any, TypeVar

from bot.web.sources import (
    Follower,
    History,
    Marks,
    Scene,
    Store,
    UnknownGameError,
    logged_action,
    own_lines,
    public_lines,
)
from rules.errors import MentatError
from rules.events import Event
from rules.factions import Faction
from rules.game import GameState
from rules.view import GameView, PrivateView, PublicView

DEFAULT_CAPACITY = 256  # games whose moments are kept in memory (200 live games fit)
DEFAULT_SHIELDS_CAPACITY = 4  # finished games whose private views are kept
_GENERATIONS = count(1)
INLINE_STEPS = 20  # a longer replay runs in a thread


class GameNotOverError(MentatError):
    """The shields open only once the game is over."""


@dataclass(frozen=True, slots=True)
class Moment:
    """What anyone could see after one action: its public events, the public view, the
    record's words, the map's marks (the turn's storm path and worms) and the phase's
    picture of the moment it called for (a scene, with its words)."""

    number: int
    events: tuple[Event, ...]
    view: PublicView
    lines: tuple[str, ...]
    marks: Marks
    scene: Scene[Any] | None

    @property
    def turn(self) -> int:
        return self.view.game.turn


@dataclass(frozen=True, slots=True)
class Timeline:
    """A game's moments so far, in order; ``finished``: the game is over. ``generation``
    changes when the game is replayed from its start (after an undo): a moment numbered
    alike may then differ, so what is kept of a moment is kept under both."""

    game_id: int
    finished: bool
    moments: tuple[Moment, ...]
    generation: int = 0

    @property
    def last(self) -> Moment:
        return self.moments[-1]


@dataclass(frozen=True, slots=True)
class Shields:
    """Every faction's own view at one moment, and what each learned by its action: what
    "open the shields" shows once the game is over."""

    views: tuple[PrivateView, ...]
    lines: tuple[tuple[Faction, tuple[str, ...]], ...]


@dataclass(slots=True)
class _Replay:
    """A game replayed up to its head: the position (never leaves this module)."""

    history: History
    state: GameState
    follower: Follower
    timeline: Timeline
    last_public: PublicView


Now = Callable[[], datetime]
V = TypeVar("V", PublicView, GameView)


def _utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass
class Timelines:
    """The games' timelines, replayed from the store and kept (least recently used first
    out, ``capacity`` games); a game's timeline grows with its log, and is replayed again
    after an undo."""

    store: Store
    capacity: int = DEFAULT_CAPACITY
    now: Now = _utc_now
    _games: OrderedDict[int, _Replay] = field(default_factory=OrderedDict)
    _locks: dict[int, asyncio.Lock] = field(default_factory=dict)
    _shields: OrderedDict[tuple[int, int], tuple[Shields, ...]] = field(default_factory=OrderedDict)

    async def get(self, game_id: int) -> Timeline:
        """The game's timeline now; raises :class:`UnknownGameError`."""
        lock = self._locks.setdefault(game_id, asyncio.Lock())
        async with lock:
            record = await self.store.game(game_id)
            headers = (await self.store.headers([game_id])).get(game_id, [])
            history = History.of(row[:3] for row in headers)
            if not history.effective:
                raise UnknownGameError(f"game #{game_id} has no start entry")
            replay = await self._replayed(game_id, history)
            finished = not record.is_active
            if replay.timeline.finished != finished:
                replay.timeline = replace(replay.timeline, finished=finished)
            self._games[game_id] = replay
            self._games.move_to_end(game_id)
            while len(self._games) > self.capacity:
                self._games.popitem(last=False)
            return replay.timeline

    async def _replayed(self, game_id: int, history: History) -> _Replay:
        known = self._games.get(game_id)
        if known is not None and known.history.last_seq == history.last_seq:
            return known
        if known is not None and _extends(known.history, history):
            await self._extend(game_id, known, history)
            return known
        return await self._replay(game_id, history)

    async def _replay(self, game_id: int, history: History) -> _Replay:
        state = GameState.from_dict(await self.store.body(game_id, history.start))
        state.limit_undo(0)
        view = state.public_view()
        follower = Follower()
        marks, scene = follower.see(view, ())
        start = Moment(0, (), view, (), marks, scene)
        timeline = Timeline(game_id, False, (start,), next(_GENERATIONS))
        replay = _Replay(History(), state, follower, timeline, view)
        replay.history = History([history.start], [], history.start)
        await self._extend(game_id, replay, history)
        return replay

    async def _extend(self, game_id: int, replay: _Replay, history: History) -> None:
        """Apply the actions in effect beyond the replay's head, adding their moments: a
        long replay (a game's first view) in a thread, so that the pages of the other
        games are served meanwhile (the game's lock keeps its replay to this one)."""
        head = replay.history.head
        bodies = (await self.store.action_bodies_after({game_id: head})).get(game_id, {})
        steps = history.replay_after(head)
        if len(steps) > INLINE_STEPS:
            await asyncio.to_thread(_advance, replay, steps, bodies, self.now())
        else:
            _advance(replay, steps, bodies, self.now())
        replay.history = history

    async def shields(self, game_id: int) -> tuple[Shields, ...]:
        """Every moment's private views (moment by moment, as :meth:`get` numbers them);
        raises :class:`GameNotOverError` while the game runs, UnknownGameError."""
        timeline = await self.get(game_id)
        if not timeline.finished:
            raise GameNotOverError(f"game #{game_id} is not over: its shields stay closed")
        key = (game_id, len(timeline.moments))
        if key not in self._shields:
            self._shields[key] = await self._open(game_id)
            while len(self._shields) > DEFAULT_SHIELDS_CAPACITY:
                self._shields.popitem(last=False)
        self._shields.move_to_end(key)
        return self._shields[key]

    async def _open(self, game_id: int) -> tuple[Shields, ...]:
        headers = (await self.store.headers([game_id])).get(game_id, [])
        history = History.of(row[:3] for row in headers)
        state = GameState.from_dict(await self.store.body(game_id, history.start))
        state.limit_undo(0)
        bodies = (await self.store.action_bodies_after({game_id: history.start})).get(game_id, {})
        steps = history.replay_after(history.start)
        return await asyncio.to_thread(_opened, state, steps, bodies, self.now())


def _opened(
    state: GameState, steps: Sequence[int], bodies: Mapping[int, str], now: datetime
) -> tuple[Shields, ...]:
    """Every moment's shields, opened: the game replayed from its start (in a thread)."""
    found = [_shields(state, (), now)]
    for events, _ in _public_steps(state, steps, bodies, state.public_view()):
        found.append(_shields(state, events, now))
    return tuple(found)


def _advance(
    replay: _Replay, steps: Sequence[int], bodies: Mapping[int, str], now: datetime
) -> None:
    """The replay moved past ``steps``, its timeline grown by their moments."""
    moments = list(replay.timeline.moments)
    for events, view in _public_steps(replay.state, steps, bodies, replay.last_public):
        replay.last_public = view
        marks, scene = replay.follower.see(view, events)
        lines = tuple(public_lines(events, view, now))
        moments.append(Moment(len(moments), events, view, lines, marks, scene))
    replay.timeline = replace(replay.timeline, moments=tuple(moments))


def _public_steps(
    state: GameState, seqs: Sequence[int], bodies: Mapping[int, str], last: PublicView
) -> Iterator[tuple[tuple[Event, ...], PublicView]]:
    """Apply the logged actions ``seqs`` to ``state``, yielding the public events and view
    of each that changed something anyone sees (a moment): the one rule both the public
    moments and the open shields count by."""
    for seq in seqs:
        events = tuple(state.apply(logged_action(json.loads(bodies[seq]))))
        view = state.public_view()
        if events or view != last:
            last = _shared(view, last)
            yield events, last


def _shared(view: V, last: V) -> V:
    """``view``, its parts equal to the last moment's taken from it (one level into the
    whole game's view too): a game keeps every moment's view, and most of a view is as it
    was one action before."""
    same: dict[str, Any] = {}
    for part in fields(view):
        mine, theirs = getattr(view, part.name), getattr(last, part.name)
        if mine == theirs:
            same[part.name] = theirs
        elif isinstance(mine, GameView) and isinstance(theirs, GameView):
            same[part.name] = _shared(mine, theirs)
    return replace(view, **same) if same else view


def _shields(state: GameState, events: Sequence[Event], now: datetime) -> Shields:
    views = tuple(state.view_for(f) for f in sorted(state.factions))
    lines = tuple((v.faction, tuple(own_lines(events, v, now))) for v in views)
    return Shields(views, lines)


def _extends(known: History, new: History) -> bool:
    """Whether ``new`` only adds actions on top of ``known`` (no undo, no new start)."""
    size = len(known.effective)
    return new.effective[:size] == known.effective and new.last_seq >= known.last_seq
