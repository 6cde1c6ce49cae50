"""The live page as static files (``mentat demo`` writes them beside ``public.md``): the
same pages (:func:`bot.web.page.page`), one file per action, ``index.html`` the last, so
the page is seen without a server. Fewer maps are drawn than moments: the start, each
turn's start and the end of its Shipment & Movement, and the end; a moment in between
shows the last map drawn before it (its caption says so)."""

from __future__ import annotations

import bisect
from collections.abc import Callable
from concurrent.futures import Executor
from datetime import datetime
from pathlib import Path

from bot.web import page
from bot.web.pictures import Pictures
from bot.web.sources import Store, map_drawing
from bot.web.timeline import Moment, Timeline, Timelines
from rules.events import PhaseBegan
from rules.game_model import TURN_PHASES, GamePhase

MOVED = TURN_PHASES[TURN_PHASES.index(GamePhase.SHIPMENT_MOVEMENT) + 1].value  # after S&M
MAPPED_PHASES = (GamePhase.STORM.value, MOVED)  # a turn's start, S&M's end


def page_file(number: int) -> str:
    return f"action-{number:04d}.html"


def map_file(number: int) -> str:
    return f"map-{number:04d}.png"


def scene_file(number: int, name: str) -> str:
    """A moment's scene (its words' ``name``): ``battle-0012.png``."""
    return f"{name}-{number:04d}.png"


def mapped(timeline: Timeline) -> list[int]:
    """The moments whose map is drawn, in order."""
    last = len(timeline.moments) - 1
    return [m.number for m in timeline.moments if m.number in (0, last) or _begins_turn(m)]


def _begins_turn(moment: Moment) -> bool:
    return any(isinstance(e, PhaseBegan) and e.phase in MAPPED_PHASES for e in moment.events)


def static_links(drawn: list[int]) -> page.Links:
    def map_of(number: int) -> tuple[str, int]:
        shown = drawn[bisect.bisect_right(drawn, number) - 1]
        return map_file(shown), shown

    return page.Links(moment=page_file, map=map_of, scene=scene_file)


async def write_site(
    store: Store,
    game_id: int,
    folder: Path,
    *,
    now: datetime,
    executor: Executor | None = None,
    written: Callable[[Path], None] = lambda path: None,
) -> Timeline:
    """Write the game's pages and pictures into ``folder`` (made if needed; ``written`` is
    told of each file first); returns the timeline they show."""
    timeline = await Timelines(store, now=lambda: now).get(game_id)
    folder.mkdir(parents=True, exist_ok=True)
    pictures = Pictures(executor, capacity_bytes=0)  # each drawn once, nothing kept

    def write(name: str, data: bytes) -> None:
        path = folder / name
        written(path)
        path.write_bytes(data)

    drawn = mapped(timeline)
    for number in drawn:
        moment = timeline.moments[number]
        job = map_drawing(moment.view, moment.events, moment.marks)
        write(map_file(number), await pictures.get(("map", number), job))
    for moment in timeline.moments:
        if moment.scene is not None:
            name, job = moment.scene.words.name, moment.scene.job()
            write(scene_file(moment.number, name), await pictures.get((name, moment.number), job))
    links = static_links(drawn)
    for moment in timeline.moments:
        html = page.page(timeline, moment.number, links, now=now).encode()
        write(page_file(moment.number), html)
        if moment.number == len(timeline.moments) - 1:
            write("index.html", html)
    return timeline
