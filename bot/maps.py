"""Maps for the session: rendered off the event loop, from the public view only."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
from collections.abc import Callable, Sequence
from concurrent.futures import Executor

from bot.render import render_closeup, render_map
from bot.render.marks import last_karama_of, last_move_of, last_shipment_of, touched_pieces
from rules.events import Event
from rules.view import PublicView

MAP_POLICIES = ("action", "turn", "never")
RENDER_NICENESS = 10  # render workers yield the CPU to the event loop (bench_session)


def start_render_worker() -> None:
    """The initializer of a render worker process: a lower priority (a higher niceness),
    so that on a small machine the bot's own process (the words of every notice, the
    answers to clicks) gets a core first and a map waits a little instead."""
    with contextlib.suppress(OSError):  # a platform or container that refuses: as it is
        os.nice(RENDER_NICENESS)


class MapMaker:
    """Renders a map after every action, or after every completed turn.

    Drawing runs in ``executor`` when one is given, else in asyncio's default thread pool
    (``asyncio.to_thread``). Drawing and PNG encoding are CPU bound: a
    :class:`concurrent.futures.ProcessPoolExecutor` keeps them from contending for the GIL
    with the event loop (everything it is sent, a public view and the last move and
    shipment, pickles).
    """

    def __init__(
        self, policy: str = "action", *, turn: int | None = None, executor: Executor | None = None
    ) -> None:
        if policy not in MAP_POLICIES:
            raise ValueError(f"maps: {policy!r} is not one of {', '.join(MAP_POLICIES)}")
        self.policy = policy
        self.turn = turn
        self.executor = executor

    def wanted(self, events: list[Event]) -> bool:
        if self.policy == "never":
            return False
        if self.policy == "turn":
            return any(e.kind in ("turn_ended", "phase_complete") for e in events)
        return any(e.kind not in ("prompts_closed", "prompt_declined") for e in events)

    async def __call__(self, view: PublicView, events: list[Event]) -> bytes | None:
        if not self.wanted(events):
            return None
        draw = functools.partial(
            render_map,
            view,
            turn=self.turn,
            last_move=last_move_of(events),
            last_shipment=last_shipment_of(events),
            last_karama=last_karama_of(events),
        )
        return await self._run(draw)

    async def closeup(self, view: PublicView, events: Sequence[Event]) -> bytes | None:
        """A close-up of the territories the events' last shipment and move touched.

        None when the events hold neither (or maps are off). Meant to be posted
        with the whole map, which stays for zooming.
        """
        if self.policy == "never":
            return None
        last_move, last_shipment = last_move_of(events), last_shipment_of(events)
        pieces = touched_pieces(last_move, last_shipment)
        if not pieces:
            return None
        draw = functools.partial(
            render_closeup,
            view,
            pieces,
            turn=self.turn,
            last_move=last_move,
            last_shipment=last_shipment,
            last_karama=last_karama_of(events),
        )
        return await self._run(draw)

    async def _run(self, draw: Callable[[], bytes]) -> bytes:
        if self.executor is None:
            return await asyncio.to_thread(draw)
        return await asyncio.get_running_loop().run_in_executor(self.executor, draw)
