"""Announcements: the words of an accepted action at once, its map when it is drawn.

Drawing a map takes a worker tens to hundreds of milliseconds, more when many games draw
at once; the words must not wait for it. So the session hands the text of a public notice
to the delivery (table and spectators) straight away, and the map (with its close-up) is
drawn in a task of its own, off the session's serial task. Once drawn, it is attached to
the messages already handed over (:meth:`bot.delivery.Delivery.attach`): by an edit of the
posted message, or joined to the text if that has not gone out yet.

Maps are attached in the order of their announcements: a map drawn early waits for the maps
announced before it, so every channel receives the edits in a fixed order whatever the
workers finish first. A map that cannot be drawn leaves its text alone (logged). The maps
being drawn are part of the game's :class:`~bot.activity.Activity` ("maps"), so that a
request returns (and tests look) once its map is attached, as before.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from bot.activity import Activity
from bot.delivery import Delivery, Job
from bot.publisher import PublicNotice, ScenePicture
from bot.record.record import Entry
from bot.render.maps import MapMaker, closeup_caption
from rules.events import Event
from rules.view import PublicView

log = logging.getLogger(__name__)

Renderer = Callable[[PublicView, list[Event]], Awaitable[bytes | None]]


@dataclass(frozen=True, slots=True)
class Maps:
    """What is drawn for one announcement: the whole map and, maybe, a close-up; for a
    phase's moment (a battle's reveal or resolution), its scene's picture, with its words
    (with or without the map)."""

    picture: bytes | None
    closeup: bytes | None = None
    scene: ScenePicture | None = None
    caption: str | None = None  # what the close-up shows
    record_closeup: bytes | None = None  # the record's own, when it shows more (a turn's)
    record_caption: str | None = None

    def for_record(self) -> Maps:
        """The pictures as the spectators' record takes them: its own close-up, if any."""
        if self.record_closeup is None:
            return self
        return Maps(self.picture, self.record_closeup, self.scene, self.record_caption)


Draw = Callable[[], Awaitable[Maps | None]]


def draw_maps(
    renderer: Renderer | None,
    view: PublicView,
    events: list[Event],
    record: Sequence[Entry] | None = None,
    *,
    shown: PublicView | None = None,
) -> Draw | None:
    """How to draw the maps of an announcement; None when the game wants none for it.

    Called when the events are announced, in their order: a :class:`~bot.render.maps.MapMaker`
    takes note of the turn's marks (the storm's path, the worms), of the battle under
    way (its scene makers, :mod:`bot.render.scenes`) and of the pieces shipped to and moved
    through (:meth:`~bot.render.maps.MapMaker.touched`) now, from every announcement,
    whether it draws a map or not, and draws the close-up of the pieces touched since the
    last map (captioned) and a scene's picture beside the whole map
    (at the same time, each in a worker of its own); another renderer draws the map alone.
    ``view`` is the position now; ``shown`` (by default the same) the one the maps show:
    the end of the phase the events began in, when they ran on into later phases
    (:meth:`rules.game.GameState.public_view_at_phase_end`), so a map's heading names the
    moment of the line it is placed under.
    """
    if renderer is None:
        return None
    drawn = view if shown is None else shown
    if not isinstance(renderer, MapMaker):
        return lambda: _draw_map(renderer, drawn, events)
    marks = renderer.turn_marks(view, events, shown=drawn)
    scene = renderer.scene(view, events)
    wanted = renderer.wanted(events)
    takes = record is not None and any(entry.with_map for entry in record)
    pieces, kept = renderer.touched(events, take=wanted, record=takes)
    own = wanted and kept != pieces and bool(kept)  # the record's turn shows more
    if not wanted and scene is None:
        return None

    async def draw() -> Maps | None:
        picture, closeup, pictured, turn = await asyncio.gather(
            renderer(drawn, events, marks=marks) if wanted else _nothing(),
            renderer.closeup(drawn, events, marks=marks, pieces=pieces) if wanted else _nothing(),
            renderer.draw_scene(scene),
            renderer.closeup(drawn, events, marks=marks, pieces=kept) if own else _nothing(),
        )
        if not (picture or pictured):
            return None
        shown = closeup if picture else None
        caption = closeup_caption(pieces) if shown else None
        if picture and turn:
            return Maps(picture, shown, pictured, caption, turn, closeup_caption(kept))
        return Maps(picture, shown, pictured, caption)

    return draw


async def _nothing() -> bytes | None:
    return None


async def _draw_map(renderer: Renderer, view: PublicView, events: list[Event]) -> Maps | None:
    picture = await renderer(view, events)
    return Maps(picture) if picture else None


class Announcer:
    """One game's public announcements: text now, map later (see the module's description)."""

    def __init__(self, game_id: int, delivery: Delivery, activity: Activity) -> None:
        self.game_id = game_id
        self.delivery = delivery
        self.activity = activity
        self._drawing: set[asyncio.Task[None]] = set()
        self._last: asyncio.Task[None] | None = None  # the latest announcement's map

    def announce(
        self, notice: PublicNotice, draw: Draw | None, record: Sequence[Entry] | None = None
    ) -> None:
        """Hand ``notice`` to the table and the spectators now; draw its maps (``draw``)
        in the background and attach them to both messages. With ``record`` (the
        spectators' record, :mod:`bot.record.record`), the spectators get its messages instead,
        and the maps go to those that take them (a turn's message)."""
        posted = [(self.delivery.public(notice), False)]  # (a message, of the record)
        if record is None:
            posted.append((self.delivery.spectators(notice), False))
        for entry in record or ():
            if entry.table:
                self.delivery.public(entry.notice)
            job = self.delivery.spectators(entry.notice)
            if entry.with_map:
                posted.append((job, True))
        if draw is None:
            return
        task = asyncio.create_task(
            self._draw_and_attach(draw, posted, self._last), name=f"maps-{self.game_id}"
        )
        self._last = task
        self._drawing.add(task)
        self.activity.mark("maps", idle=False)
        task.add_done_callback(self._drawn)

    @property
    def drawing(self) -> int:
        """How many announcements' maps are being drawn (or wait to be attached)."""
        return len(self._drawing)

    async def stop(self) -> None:
        """Give up the maps not drawn yet (their texts stay as they are)."""
        tasks = list(self._drawing)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._last = None

    async def _draw_and_attach(
        self, draw: Draw, posted: list[tuple[Job, bool]], before: asyncio.Task[None] | None
    ) -> None:
        try:
            maps = await draw()
        except Exception:
            log.exception("game %d: a map could not be drawn; its text stays alone", self.game_id)
            maps = None
        if before is not None and not before.done():
            await asyncio.wait([before])  # the earlier announcement's map goes first
        if maps is None:
            return
        for job, recorded in posted:
            own = maps.for_record() if recorded else maps
            self.delivery.attach(job, own.picture, own.closeup, own.scene, own.caption)

    def _drawn(self, task: asyncio.Task[None]) -> None:
        self._drawing.discard(task)
        if self._last is task:
            self._last = None
        if not self._drawing:
            self.activity.mark("maps", idle=True)
