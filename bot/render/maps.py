"""Maps for the session: rendered off the event loop, from the public view only."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from typing import Any

from bot.publisher import ScenePicture
from bot.render import StormPath, WormSign, render_closeup, render_map
from bot.render.examples import all_pieces, busy_view
from bot.render.marks import (
    last_karama_of,
    last_move_of,
    last_shipment_of,
    storm_path_of,
    touched_pieces,
    worms_of,
)
from bot.render.render import check_public
from bot.render.scene import Scene
from bot.render.scenes import SceneWatch
from rules.board import Piece
from rules.events import Event, Landing, Moved, SpiritualAdvisor
from rules.view import PublicView

MAP_POLICIES = ("action", "turn", "never")
Marks = tuple[StormPath | None, tuple[WormSign, ...]]  # the turn's storm path and worms
PARENT_CHECK_S = 1.0  # how often a render worker checks that its bot is still there
RENDER_NICENESS = 10  # render workers yield the CPU to the event loop (bench_session)


def start_render_worker() -> None:
    """The initializer of a render worker process: a lower priority (a higher niceness),
    so that on a small machine the bot's own process (the words of every notice, the
    answers to clicks) gets a core first and a map waits a little instead; then the
    renderer is warmed, so that the worker's first map costs what the others do. A worker
    whose bot is killed (no shutdown) exits too, instead of waiting for maps forever."""
    bot = multiprocessing.parent_process()  # its pid, even when it died before this ran
    parent = bot.pid if bot is not None and bot.pid is not None else os.getppid()
    threading.Thread(target=_exit_with, args=(parent,), daemon=True, name="bot-watch").start()
    with contextlib.suppress(OSError):  # a platform or container that refuses: as it is
        os.nice(RENDER_NICENESS)
    warm_renderer()


def _exit_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_S)
    os._exit(0)


def warm_renderer() -> None:
    """Draw a map with a stack in every piece of the board and throw it away: the static
    board, the fonts, the territories' names and where tokens fit in each piece are cached
    by then (a first map pays about 200-350 ms for them, a warm one about 20 ms)."""
    render_map(busy_view(stack_count=len(all_pieces())))


def start_render_workers(executor: Executor, count: int) -> None:
    """Start ``count`` workers now, each warming itself while the bot logs in and loads its
    games, instead of at the first map of a restarted bot (the pool starts its processes
    one per job while none is idle)."""
    for _ in range(count):
        executor.submit(render_worker_id)


def render_worker_id() -> int:
    """The worker that ran this job (its process id): a job that only starts a worker."""
    return os.getpid()


class MapMaker:
    """Renders a map after every action, or after every completed turn.

    Drawing runs in ``executor`` when one is given, else in asyncio's default thread pool
    (``asyncio.to_thread``). Drawing and PNG encoding are CPU bound: a
    :class:`concurrent.futures.ProcessPoolExecutor` keeps them from contending for the GIL
    with the event loop (everything it is sent, a public view and the last move and
    shipment, pickles).

    In a whole game it remembers the turn's storm path and worms from the events it is
    shown (the storm moves in the Storm phase, the worm comes in the Spice Blow), so every
    map of that turn marks them; a new turn forgets them. A restarted bot has no memory:
    its maps show them again from the next storm on.

    It follows the phases' own pictures too (:class:`~bot.render.scenes.SceneWatch`): a
    moment a scene maker calls a picture for gets it (:meth:`scene`, :meth:`draw_scene`)
    whatever the policy but "never".
    """

    def __init__(
        self, policy: str = "action", *, turn: int | None = None, executor: Executor | None = None
    ) -> None:
        if policy not in MAP_POLICIES:
            raise ValueError(f"maps: {policy!r} is not one of {', '.join(MAP_POLICIES)}")
        self.policy = policy
        self.turn = turn
        self.executor = executor
        self._turn_marks: tuple[int, StormPath | None, tuple[WormSign, ...]] | None = None
        self._scenes = SceneWatch()
        self._touched: dict[Piece, None] = {}  # where forces arrived since the last map
        self._recorded: dict[Piece, None] = {}  # ... since the last map of the record

    def wanted(self, events: list[Event]) -> bool:
        if self.policy == "never":
            return False
        if self.policy == "turn":
            return any(e.kind in ("turn_ended", "phase_complete", "phase_began") for e in events)
        return any(e.kind not in ("prompts_closed", "prompt_declined") for e in events)

    def turn_marks(
        self, view: PublicView, events: Sequence[Event], *, shown: PublicView | None = None
    ) -> Marks:
        """This turn's storm path and worms: those of ``events``, else those seen earlier in
        the same turn of a whole game (never in a lone Shipment & Movement phase).
        ``shown``: the position the map shows, when it is an earlier turn's end (an action
        that ran on into the next turn): that turn's marks as seen before, not the new ones.

        Raises TypeError for anything but a :class:`PublicView`, before remembering."""
        check_public(view, "MapMaker")
        path, worms = storm_path_of(events), worms_of(events)
        if view.game.alone:
            return path, worms
        turn, earlier = view.game.turn, self._turn_marks
        known = self._turn_marks if self._turn_marks and self._turn_marks[0] == turn else None
        if known is not None:
            path = path or known[1]
            worms = tuple({w.territory: w for w in (*known[2], *worms)}.values())
        self._turn_marks = (turn, path, worms)
        if shown is not None and shown.game.turn != turn:
            check_public(shown, "MapMaker")
            if earlier is not None and earlier[0] == shown.game.turn:
                return earlier[1], earlier[2]
            return None, ()
        return path, worms

    def touched(
        self, events: Sequence[Event], *, take: bool, record: bool = False
    ) -> tuple[tuple[Piece, ...], tuple[Piece, ...]]:
        """The close-ups' pieces: where forces arrived (shipped, sent, moved), noted from
        every announcement's ``events`` in their order, since the last map (the table's) and
        since the last map the spectators' record took (a faction's whole turn, when a map
        follows each action). With ``take`` (a map is drawn for these events), those and
        the whole path of the events' own last move and shipment, then forgotten: the
        table's, and with ``record`` (the record takes this map) the record's."""
        landed = (e for e in events if isinstance(e, Landing | Moved | SpiritualAdvisor))
        arrived = dict.fromkeys((e.to, e.sector) for e in landed)
        self._touched.update(arrived)
        self._recorded.update(arrived)
        if not take:
            return (), ()
        last = touched_pieces(last_move_of(events), last_shipment_of(events))
        table, self._touched = tuple(dict.fromkeys([*self._touched, *last])), {}
        if not record:
            return table, ()
        kept, self._recorded = tuple(dict.fromkeys([*self._recorded, *last])), {}
        return table, kept

    def scene(self, view: PublicView, events: Sequence[Event]) -> Scene[Any] | None:
        """The scene these events call a picture for (None: none, or maps are off).

        Called once per announcement, in their order (a scene maker remembers what it
        needs for a later moment). Raises TypeError for anything but a PublicView."""
        check_public(view, "MapMaker")
        scene = self._scenes.see(view, events)
        return None if self.policy == "never" else scene

    async def draw_scene(self, scene: Scene[Any] | None) -> ScenePicture | None:
        """The scene's picture, with its words (None without a scene)."""
        if scene is None:
            return None
        return ScenePicture(await self._run(scene.job()), scene.words)

    async def __call__(
        self, view: PublicView, events: list[Event], *, marks: Marks | None = None
    ) -> bytes | None:
        """``marks``: the turn's marks as :meth:`turn_marks` gave them when the events were
        announced (a map drawn later must not take a later turn's); else asked now."""
        storm_path, worms = marks if marks is not None else self.turn_marks(view, events)
        if not self.wanted(events):
            return None
        draw = functools.partial(
            render_map,
            view,
            turn=self.turn,
            last_move=last_move_of(events),
            last_shipment=last_shipment_of(events),
            last_karama=last_karama_of(events),
            storm_path=storm_path,
            worms=worms,
        )
        return await self._run(draw)

    async def closeup(
        self,
        view: PublicView,
        events: Sequence[Event],
        *,
        marks: Marks | None = None,
        pieces: Sequence[Piece] | None = None,
    ) -> bytes | None:
        """A close-up of ``pieces`` (by default, those the events' last shipment and move
        touched; :meth:`touched`: all since the last map).

        None when there are none (or maps are off). Meant to be posted with the whole
        map, which stays for zooming.
        """
        if self.policy == "never":
            return None
        last_move, last_shipment = last_move_of(events), last_shipment_of(events)
        if pieces is None:
            pieces = touched_pieces(last_move, last_shipment)
        if not pieces:
            return None
        storm_path, worms = marks if marks is not None else self.turn_marks(view, events)
        draw = functools.partial(
            render_closeup,
            view,
            tuple(pieces),
            turn=self.turn,
            last_move=last_move,
            last_shipment=last_shipment,
            last_karama=last_karama_of(events),
            storm_path=storm_path,
            worms=worms,
        )
        return await self._run(draw)

    async def _run(self, draw: Callable[[], bytes]) -> bytes:
        if self.executor is None:
            return await asyncio.to_thread(draw)
        return await asyncio.get_running_loop().run_in_executor(self.executor, draw)


def closeup_caption(pieces: Sequence[Piece]) -> str:
    """What a close-up of ``pieces`` (:meth:`MapMaker.touched`) shows, in words."""
    names = list(dict.fromkeys(territory for territory, _ in pieces))
    names = [f"the {n}" if n == "Polar Sink" else n for n in names]
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return f"Close-up of {listed}: the shipments and moves since the last map."
