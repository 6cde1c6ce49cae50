"""MapMaker: when a map is wanted, and where it is drawn (default threads or an executor)."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest

from bot.render.board_image import board_image
from bot.render.examples import busy_view
from bot.render.maps import MapMaker, start_render_worker, start_render_workers
from bot.render.marks import last_move_of, last_shipment_of
from rules.events import Moved, PromptDeclined, Shipped, TurnEnded
from rules.factions import Faction

PNG = b"\x89PNG\r\n\x1a\n"
TURN_ENDED = [TurnEnded(Faction.ATREIDES)]
DECLINED = [PromptDeclined(Faction.FREMEN, ())]


def test_turn_policy_wants_a_map_only_after_a_turn() -> None:
    maker = MapMaker("turn")
    assert maker.wanted(TURN_ENDED)
    assert not maker.wanted(DECLINED)
    assert not MapMaker("never").wanted(TURN_ENDED)


def test_unknown_policy_is_refused() -> None:
    with pytest.raises(ValueError, match="maps"):
        MapMaker("always")


async def test_default_draws_in_a_thread() -> None:
    picture = await MapMaker("turn", turn=2)(busy_view(stack_count=8), TURN_ENDED)
    assert picture is not None and picture.startswith(PNG)
    assert await MapMaker("turn")(busy_view(stack_count=8), DECLINED) is None


async def test_draws_in_the_given_executor() -> None:
    with ThreadPoolExecutor(1, thread_name_prefix="maps-test") as pool:
        maker = MapMaker("turn", executor=pool)
        picture = await maker(busy_view(stack_count=8), TURN_ENDED)
    assert picture is not None and picture.startswith(PNG)


async def test_draws_in_a_process_pool() -> None:
    """What is sent to the worker (the view, the last move and shipment) pickles."""
    view = busy_view(stack_count=8)
    events = [
        Shipped(Faction.HARKONNEN, "Carthag", 10, 2, 0, 0, "spice_bank", None, 0, None),
        Moved(
            faction=Faction.ATREIDES,
            from_territory="Arrakeen",
            to="Imperial Basin",
            sector=9,
            forces=3,
            special=0,
            advisors=False,
            path=("Arrakeen", "Imperial Basin"),
        ),
        *TURN_ENDED,
    ]
    assert last_move_of(events) is not None and last_shipment_of(events) is not None
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        in_process = await MapMaker("turn", turn=1, executor=pool)(view, events)
    in_thread = await MapMaker("turn", turn=1)(view, events)
    assert in_process == in_thread


MOVED = [
    Moved(Faction.ATREIDES, "Arrakeen", "Old Gap", 9, 5, 0, False, ("Arrakeen", "Old Gap")),
    *TURN_ENDED,
]


async def test_a_close_up_is_made_of_the_last_move_and_only_when_there_is_one() -> None:
    maker = MapMaker("action", turn=1)
    closeup = await maker.closeup(busy_view(stack_count=8), MOVED)
    assert closeup is not None and closeup.startswith(PNG)
    whole = await maker(busy_view(stack_count=8), MOVED)
    assert whole is not None and len(closeup) < len(whole)
    assert await maker.closeup(busy_view(stack_count=8), TURN_ENDED) is None
    assert await MapMaker("never").closeup(busy_view(stack_count=8), MOVED) is None


def drawn_boards() -> int:
    """How many static boards this process has drawn and kept (run in a render worker)."""
    return board_image.cache_info().currsize


def test_render_workers_start_with_the_bot_each_warmed_before_its_first_map() -> None:
    """A restarted bot's first map does not wait for a worker to start and draw the board."""
    spawn = multiprocessing.get_context("spawn")
    before = set(multiprocessing.active_children())
    with ProcessPoolExecutor(2, mp_context=spawn, initializer=start_render_worker) as pool:
        start_render_workers(pool, 2)
        assert len(set(multiprocessing.active_children()) - before) == 2  # no map asked yet
        assert pool.submit(drawn_boards).result(timeout=60) == 1


KILLED_BOT = """
import multiprocessing, os
from concurrent.futures import ProcessPoolExecutor
from bot.render.maps import render_worker_id, start_render_worker
spawn = multiprocessing.get_context("spawn")
pool = ProcessPoolExecutor(1, mp_context=spawn, initializer=start_render_worker)
print(pool.submit(render_worker_id).result(timeout=60), flush=True)
os._exit(9)  # killed: no shutdown of its pool
"""


def test_a_render_worker_exits_when_its_bot_is_killed() -> None:
    done = subprocess.run(
        [sys.executable, "-c", KILLED_BOT], capture_output=True, text=True, timeout=60, check=False
    )
    worker = int(done.stdout.strip())
    try:
        for _ in range(100):
            if not _running(worker):
                return
            time.sleep(0.1)
        raise AssertionError("the render worker outlived its bot")
    finally:
        if _running(worker):
            os.kill(worker, signal.SIGKILL)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
