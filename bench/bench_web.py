"""The live page's response times with 200 live games (issue 26).

Run ``.venv/bin/python bench/bench_web.py [--games 200] [--requests 3000] [--clients 16]``.

``--games`` random whole games (``tests/bot/web_games.py``, 30 to 300 actions each) are
played into one SQLite file through the ledger; the pages are served in-process by
:class:`bot.web.server.LiveSite` on 127.0.0.1 (a free port), maps drawn by two render
worker processes as ``mentat run`` does (started and warm before the requests begin).
``--clients`` browsers then fetch ``--requests`` pages, each followed by its map (as a
browser does): a game chosen at random, its latest moment (two times in three) or a random
past one (``?action=N``). Meanwhile the games stay live: a writer plays one more action in
a random game every 50 ms. The run stops by itself once the requests are done.

Measured (milliseconds, from the request to the whole body read):

- ``page_ms_*``: the pages; ``first_page_ms_*``: each game's first page (its log replayed),
  counted apart; ``map_ms_*``: the maps (drawn, or kept from an earlier request).

Prints one JSON object on its last line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp
from aiohttp import web

from bot.render.maps import render_worker_id, start_render_worker, start_render_workers
from bot.store import Store
from bot.web.server import LiveSite
from tests.bot.web_games import Played, play
from tests.rules.random_play import choose

WRITE_EVERY_S = 0.05


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def figures(name: str, values: list[float]) -> dict[str, float]:
    return {
        f"{name}_p50": round(statistics.median(values), 1) if values else 0.0,
        f"{name}_p99": round(percentile(values, 0.99), 1),
        f"{name}_max": round(max(values, default=0.0), 1),
    }


async def make_games(store: Store, count: int) -> list[Played]:
    rng = random.Random(26)
    return [
        await play(store, game=n % 12, limit=rng.randint(30, 300), finish=False)
        for n in range(count)
    ]


async def workers_ready(workers: ProcessPoolExecutor, count: int) -> None:
    """Wait until ``count`` render workers have started and warmed (as after a bot's
    start-up), so that the figures are the pages', not the workers' start."""
    loop = asyncio.get_running_loop()
    pids: set[int] = set()
    while len(pids) < count:
        jobs = [loop.run_in_executor(workers, render_worker_id) for _ in range(count * 2)]
        pids |= set(await asyncio.gather(*jobs))


async def keep_playing(games: list[Played], stop: asyncio.Event) -> int:
    """One action in a random game every WRITE_EVERY_S, until ``stop``."""
    rng, played = random.Random(7), 0
    while not stop.is_set():
        game = rng.choice(games)
        action = choose(game.state, rng)
        if action is not None:
            await game.ledger.submit(action, actor=1, key=f"bench-{played}")
            played += 1
        await asyncio.sleep(WRITE_EVERY_S)
    return played


async def browse(
    http: aiohttp.ClientSession,
    base: str,
    games: list[Played],
    jobs: asyncio.Queue[int],
    times: dict[str, list[float]],
    seen: set[int],
) -> None:
    rng = random.Random()
    while not jobs.empty():
        jobs.get_nowait()
        game = rng.choice(games)
        url = f"{base}/games/{game.game_id}"
        if rng.random() < 1 / 3:
            url += f"?action={rng.randint(0, 20)}"
        first = game.game_id not in seen
        seen.add(game.game_id)
        started = time.perf_counter()
        async with http.get(url) as response:
            page = await response.text()
            assert response.status == 200, (url, response.status)
        times["first_page" if first else "page"].append((time.perf_counter() - started) * 1000)
        src = page.split("<img id='map' src='", 1)[1].split("'", 1)[0]
        started = time.perf_counter()
        async with http.get(base + src) as response:
            await response.read()
            assert response.status == 200, (src, response.status)
        times["map"].append((time.perf_counter() - started) * 1000)


async def run(games_count: int, requests: int, clients: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "web.db")
        began = time.perf_counter()
        games = await make_games(store, games_count)
        made_s = time.perf_counter() - began
        workers = ProcessPoolExecutor(
            2, mp_context=get_context("spawn"), initializer=start_render_worker
        )
        start_render_workers(workers, 2)
        await workers_ready(workers, 2)
        runner = web.AppRunner(LiveSite.over(store, workers).app(), access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = runner.addresses[0][1]
        times: dict[str, list[float]] = {"page": [], "first_page": [], "map": []}
        jobs: asyncio.Queue[int] = asyncio.Queue()
        for n in range(requests):
            jobs.put_nowait(n)
        stop = asyncio.Event()
        writer = asyncio.create_task(keep_playing(games, stop))
        began = time.perf_counter()
        try:
            async with aiohttp.ClientSession() as http:
                seen: set[int] = set()
                await asyncio.gather(
                    *(
                        browse(http, f"http://127.0.0.1:{port}", games, jobs, times, seen)
                        for _ in range(clients)
                    )
                )
        finally:
            stop.set()
            written = await writer
            await runner.cleanup()
            workers.shutdown()
            await store.close()
        seconds = time.perf_counter() - began
    return {
        "games": games_count,
        "requests": requests,
        "clients": clients,
        "actions_played_meanwhile": written,
        "games_made_s": round(made_s, 1),
        "run_s": round(seconds, 1),
        **figures("page_ms", times["page"]),
        **figures("first_page_ms", times["first_page"]),
        **figures("map_ms", times["map"]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--clients", type=int, default=16)
    args = parser.parse_args()
    result = asyncio.run(run(args.games, args.requests, args.clients))
    print(
        f"live page, {result['games']} live games: page p50 {result['page_ms_p50']} ms, "
        f"p99 {result['page_ms_p99']} ms; map p50 {result['map_ms_p50']} ms, "
        f"p99 {result['map_ms_p99']} ms; a game's first page p99 {result['first_page_ms_p99']} ms"
    )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
