"""Phase-session benchmark (issues 6, 11): many concurrent games through the real application.

Run ``.venv/bin/python bench/bench_session.py [--games 200] [--seconds 60] [--rate 40]``.

``--games`` games run at once in one :class:`~bot.app.Mentat` over one SQLite file (in a
temporary folder), each with ``maps: "turn"`` (a map rendered after every completed turn).
Each game has one scripted player submitting at random times (a Poisson process; ``--rate``
actions per second over all games, so 0.2/s, one every 5 s on average, per game by default).
A submission is the next action of a random legal phase (``tests/bot/phase_script.py``), or,
while prompts are open that this action does not answer, a ``Pass`` declining them (as
``bot.demo.phase.ScriptedPlayers`` does). When a game's phase is complete it is finished and a new
game takes its place, so the load stays constant.

Measured:

- ``loop_lag_ms_*``: a ticker task sleeps 10 ms again and again; the lag is how late it wakes.
- ``notice_latency_ms_*``: from the call to ``PhaseSession.submit`` to the moment the
  publisher receives the text of the action's public notice (its map follows, issue 11).
  A ``Pass`` that others still consider is not announced at all; those ``silent`` actions are
  counted apart, timed to the return of ``submit``.
- ``map_latency_ms_*``: from the call to ``submit`` to the moment the action's map (and
  close-up) is attached to the posted notice (``Publisher.attach_map``), for the actions
  that have one (or, when the map was drawn before the text went out, to the text's post).

- ``render_ms_*``: each drawing's await alone, a map or a close-up (queueing in the executor
  included).
- ``cpu_cores_used_by_others``: the mean CPU load of every other process on the machine
  during the run (from ``/proc/stat``): the numbers mean little when it is high.

``--render`` says where maps are drawn: ``thread`` (the default ``MapMaker``, as the
application runs it: ``asyncio.to_thread``), ``process`` (a spawned process pool of
``--workers``), ``thread-pool`` (a dedicated thread pool) or ``none`` (no maps).

``--processes N`` (issue 14) runs the games in N processes, as N ``mentat run`` processes
with one shard each: over one PostgreSQL database (a durable throw-away server started for
the run, ``tests/pg_server.py``), each process creating the games of its own servers and
playing ``--games / N`` of them at ``--rate / N``; at the end each process measures the load
of its share (``load_share_s``: ``Ledger.open_active`` of a fresh store for its shard, as
after a crash). ``--backend postgres`` alone runs one process on PostgreSQL. The JSON has
each process's figures under ``processes`` and the worst of each p99 beside them.

Progress and a short summary go to stderr and stdout; the last line of stdout is one JSON
object. Targets (issue 11, 200 games on the 2-core machine): ``notice_latency_ms_p99 <= 25``,
``map_latency_ms_p99 <= 400``, ``loop_lag_ms_p99 <= 20`` (``targets_met``).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import multiprocessing
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.app import Mentat  # noqa: E402
from bot.clock import SystemClock  # noqa: E402
from bot.ledger import Ledger  # noqa: E402
from bot.publisher import ModeratorNotice, PrivateNotice, PublicNotice  # noqa: E402
from bot.render.maps import MapMaker, start_render_worker  # noqa: E402
from bot.session.session import PhaseSession, SessionError  # noqa: E402
from bot.session.windows import is_window  # noqa: E402
from bot.settings import GameSettings, Timing  # noqa: E402
from bot.shards import Shards  # noqa: E402
from bot.store import Store  # noqa: E402
from rules.actions import Decline, FactionAction, Pass, action_from_dict  # noqa: E402
from rules.errors import RulesError  # noqa: E402
from tests.bot.phase_script import random_phase, start_position  # noqa: E402
from tests.pg_server import PostgresServer  # noqa: E402

TICK_S = 0.010
TARGET_LAG_MS = 20.0  # loop_lag_ms_p99
TARGET_NOTICE_MS = 25.0  # notice_latency_ms_p99
TARGET_MAP_MS = 400.0  # map_latency_ms_p99
TARGET_LOAD_SHARE_S = 2.0  # load_share_s, per process (issue 14)
PHASES = 40  # distinct random phases the games play, in turn
TIMING = Timing(
    timedelta(hours=1), timedelta(hours=1), timedelta(minutes=1), window=timedelta(seconds=1)
)  # no deadline fires; a secret window (docs/windows.md) runs one second
MODERATOR = 1
WAIT = "wait"  # choose(): nothing to do while a secret window runs its time
SPREAD = 25  # at the start, each game has made up to this many submissions (about a phase)


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def stats(name: str, values: Sequence[float]) -> dict[str, float]:
    return {
        f"{name}_p50": round(percentile(values, 50), 2),
        f"{name}_p99": round(percentile(values, 99), 2),
        f"{name}_max": round(max(values, default=0.0), 2),
    }


# -- the publisher: when does the public notice of an action arrive? ----------------


@dataclass
class TimingPublisher:
    """Records, per game, how long after its submission an action's public notice arrived,
    and its map.

    Each game has a single player who waits for one submission before the next, so the
    first public notice of a game after ``expect`` is that action's notice; its map comes
    to the reference ``public`` returned.
    """

    pending: dict[int, float] = field(default_factory=dict)
    posted: dict[str, float] = field(default_factory=dict)  # ref: when its action was sent
    latencies_ms: list[float] = field(default_factory=list)
    map_latencies_ms: list[float] = field(default_factory=list)
    silent_ms: list[float] = field(default_factory=list)
    public_notices: int = 0
    maps: int = 0
    map_bytes: int = 0
    private_notices: int = 0

    def reset(self) -> None:
        """Forget the warm-up."""
        for times in (self.latencies_ms, self.map_latencies_ms, self.silent_ms):
            times.clear()
        self.posted.clear()
        self.public_notices = self.maps = self.map_bytes = self.private_notices = 0

    def expect(self, game_id: int) -> None:
        self.pending[game_id] = time.perf_counter()

    def returned(self, game_id: int) -> None:
        """``submit`` returned: an action nobody announced is timed to here."""
        started = self.pending.pop(game_id, None)
        if started is not None:
            self.silent_ms.append((time.perf_counter() - started) * 1000)

    def forget(self, game_id: int) -> None:
        self.pending.pop(game_id, None)

    async def public(self, game_id: int, notice: PublicNotice) -> str | None:
        now = time.perf_counter()
        self.public_notices += 1
        ref = f"{game_id}:{self.public_notices}"
        started = self.pending.pop(game_id, None)
        if started is not None:
            self.latencies_ms.append((now - started) * 1000)
            self.posted[ref] = started
        if notice.picture is not None:  # drawn before the text went out: they go together
            self._map(ref, notice, now)
        return ref

    async def attach_map(self, game_id: int, ref: str, notice: PublicNotice) -> None:
        if not ref.startswith("spectators"):
            self._map(ref, notice, time.perf_counter())

    def _map(self, ref: str, notice: PublicNotice, now: float) -> None:
        if notice.picture is None:
            return
        self.maps += 1
        self.map_bytes += len(notice.picture) + len(notice.closeup or b"")
        started = self.posted.pop(ref, None)
        if started is not None:
            self.map_latencies_ms.append((now - started) * 1000)

    async def spectators(self, game_id: int, notice: PublicNotice) -> str | None:
        return "spectators"

    async def private(self, game_id: int, notice: PrivateNotice) -> None:
        self.private_notices += 1

    async def moderators(self, game_id: int, notice: ModeratorNotice) -> None:
        pass

    async def ask(self, game_id: int, notice: PrivateNotice) -> str | None:
        self.private_notices += 1
        return str(self.private_notices)

    async def edit_prompt(self, game_id: int, ref: str, notice: PrivateNotice) -> None:
        pass

    async def close_prompt(self, game_id: int, ref: str, text: str) -> None:
        pass


# -- the event-loop lag ---------------------------------------------------------------


async def ticker(lags_ms: list[float]) -> None:
    loop = asyncio.get_running_loop()
    while True:
        started = loop.time()
        await asyncio.sleep(TICK_S)
        lags_ms.append(max(0.0, (loop.time() - started - TICK_S) * 1000))


# -- the players ----------------------------------------------------------------------


@dataclass
class Counts:
    actions: int = 0
    refused: int = 0
    waited: int = 0  # turns skipped while a secret window ran its time
    phases_completed: int = 0
    games_created: int = 0
    create_ms: list[float] = field(default_factory=list)


class Player:
    """One game's scripted player; starts a new game each time the phase is complete."""

    def __init__(self, bench: Bench, index: int) -> None:
        self.bench = bench
        self.index = index
        self.rng = random.Random(index)
        self.session: PhaseSession | None = None
        self.script: Iterator[FactionAction] = iter(())
        self.next_action: FactionAction | None = None
        self.keys = itertools.count()
        self.busy = False

    async def new_game(self) -> None:
        bench = self.bench
        if self.session is not None:
            old = self.session
            await old.stop()
            bench.app.sessions.pop(old.game_id, None)
            await bench.store.finish_game(old.game_id)
        started = time.perf_counter()
        self.session = await bench.create_game(self.index)
        bench.counts.create_ms.append((time.perf_counter() - started) * 1000)
        bench.counts.games_created += 1
        phase = bench.phases[(self.index + bench.counts.games_created) % len(bench.phases)]
        self.script = iter(phase)
        self.next_action = next(self.script, None)

    async def advance(self) -> None:
        """Play part of the phase at once, without maps, so the games are spread over it."""
        assert self.session is not None
        renderer, self.session.renderer = self.session.renderer, None
        for _ in range(self.rng.randrange(SPREAD)):
            await self.act()
        self.session.renderer = renderer

    def choose(self) -> FactionAction | str | None:
        """What to submit now: the script's next action, or a Decline for an open prompt."""
        assert self.session is not None
        state = self.session.state
        assert state is not None
        if state.is_complete:
            return None
        prompts = state.open_prompts()
        action = self.next_action
        if prompts and not (action is not None and state.answers_open_prompt(action)):
            if is_window(prompts):
                return WAIT  # a secret window runs its time: the table waits
            prompt = prompts[0]
            return Decline(prompt.waiting_on()[0], prompt.kind)
        if action is None:  # the script ran out (a refusal on the way): pass the step
            faction = state.to_act()
            assert faction is not None
            return Pass(faction)
        self.next_action = next(self.script, None)
        return action

    async def play(self) -> None:
        """Act at random times until cancelled (never cancelled while acting)."""
        mean_wait = self.bench.games / self.bench.rate
        while True:
            await asyncio.sleep(self.rng.expovariate(1 / mean_wait))
            self.busy = True
            try:
                await self.act()
            finally:
                self.busy = False
            if self.bench.stopping:
                return

    async def act(self) -> None:
        bench = self.bench
        action = self.choose()
        if isinstance(action, str):  # WAIT
            bench.counts.waited += 1
            return
        if action is None:
            bench.counts.phases_completed += 1
            await self.new_game()
            action = self.choose()
            assert isinstance(action, FactionAction)
        session = self.session
        assert session is not None
        publisher = bench.publisher
        key = f"p{self.index}-{next(self.keys)}"
        publisher.expect(session.game_id)
        try:
            await session.submit(action.faction, action, actor=MODERATOR, key=key)
        except (RulesError, SessionError):
            bench.counts.refused += 1
            publisher.forget(session.game_id)
            return
        bench.counts.actions += 1
        publisher.returned(session.game_id)


# -- the benchmark ----------------------------------------------------------------------


class Bench:
    def __init__(self, args: argparse.Namespace, store: Store, executor: Executor | None) -> None:
        self.games: int = args.games
        self.rate: float = args.rate
        self.shards: Shards | None = store.shards
        self.store = store
        self.executor = executor
        self.render: str = args.render
        self.publisher = TimingPublisher()
        self.app = Mentat(store, self.publisher, SystemClock())
        self.counts = Counts()
        self.stopping = False
        self.render_ms: list[float] = []
        self.phases = [
            [_faction_action(raw) for raw in random_phase(seed)] for seed in range(PHASES)
        ]

    async def create_game(self, index: int) -> PhaseSession:
        """A new game through the application; its maps drawn where ``--render`` says."""
        settings = GameSettings(
            maps="never" if self.render == "none" else "turn", timing=TIMING, turn=1
        )
        guild = index
        if self.shards is not None:  # a server of this process's shard
            guild = (index * self.shards.count + self.shards.ids[0]) << 22
        session = await self.app.create_game(
            guild,
            start_position(),
            channels={"table": 10_000 + index},
            settings=settings,
            moderators=(MODERATOR,),
        )
        if self.render != "none":
            session.renderer = TimedMaps(self.render_ms, executor=self.executor)
        return session


class TimedMaps(MapMaker):
    """The application's maps (the whole map and the close-up), each drawing timed from its
    request to its return."""

    def __init__(self, times_ms: list[float], *, executor: Executor | None) -> None:
        super().__init__("turn", turn=1, executor=executor)
        self.times_ms = times_ms

    async def _run(self, draw: Callable[[], bytes]) -> bytes:
        started = time.perf_counter()
        picture = await super()._run(draw)
        self.times_ms.append((time.perf_counter() - started) * 1000)
        return picture


def _faction_action(raw: dict[str, Any]) -> FactionAction:
    action = action_from_dict(raw)
    assert isinstance(action, FactionAction)
    return action


@dataclass(frozen=True)
class CpuSample:
    """CPU seconds so far: this process (all its threads), its render processes, the machine."""

    own: float
    workers: float
    machine: float

    @classmethod
    def take(cls, executor: Executor | None) -> CpuSample:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        pids = list(getattr(executor, "_processes", None) or {})
        return cls(usage.ru_utime + usage.ru_stime, sum(map(_process_cpu, pids)), _machine_cpu())

    def minus(self, other: CpuSample) -> CpuSample:
        return CpuSample(
            self.own - other.own, self.workers - other.workers, self.machine - other.machine
        )

    @property
    def others(self) -> float:
        """CPU seconds of every other process on the machine (the load we do not control)."""
        return max(0.0, self.machine - self.own - self.workers)


def _process_cpu(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _machine_cpu() -> float:
    """Busy CPU seconds of the whole machine (``/proc/stat``; 0 where there is none)."""
    try:
        values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except OSError:
        return 0.0
    idle = values[3] + values[4]  # idle, iowait
    return (sum(values[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def db_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))


def make_executor(kind: str, workers: int) -> Executor | None:
    if kind == "process":
        # spawn, not fork: the store's thread and the default executor's already run here
        context = multiprocessing.get_context("spawn")
        return ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker)
    if kind == "thread-pool":
        return ThreadPoolExecutor(max_workers=workers, initializer=_warm_worker)
    return None


def _start_worker() -> None:
    """A render process as ``mentat run`` starts it (a lower priority), warmed up."""
    start_render_worker()
    _warm_worker()


def _warm_worker() -> None:
    """Draw the static board once in each worker, before the measured run."""
    from bot.render.examples import busy_view
    from bot.render.render import render_map

    render_map(busy_view(stack_count=8))


async def run(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.db"
        location: Path | str = args.database_url or path
        shards = Shards((args.shard,), args.processes) if args.database_url else None
        executor = make_executor(args.render, args.workers)
        store = await Store.open(location, shards=shards)
        bench = Bench(args, store, executor)
        try:
            result = await measure(bench, args.seconds)
        finally:
            await bench.app.stop()
            await store.close()
            if executor is not None:
                executor.shutdown()
        if args.database_url:
            result["load_share_s"] = await load_share(args.database_url, shards)
        else:
            result["db_bytes"] = db_bytes(path)
    return result


async def load_share(url: str, shards: Shards | None) -> float:
    """Seconds to load this process's share of the games (those still running) from a fresh
    store, as at a restart."""
    async with await Store.open(url, shards=shards) as store:
        started = time.perf_counter()
        await Ledger.open_active(store)
        return round(time.perf_counter() - started, 3)


def run_processes(args: argparse.Namespace) -> dict[str, Any]:
    """The games in ``args.processes`` processes over one PostgreSQL database."""
    server = PostgresServer.start(durable=True)
    try:
        url = asyncio.run(server.create_database("bench"))
        children = []
        for shard in range(args.processes):
            command = [
                sys.executable,
                __file__,
                "--games",
                str(args.games // args.processes),
                "--seconds",
                str(args.seconds),
                "--rate",
                str(args.rate / args.processes),
                "--render",
                args.render,
                "--workers",
                str(args.workers),
                "--database-url",
                url,
                "--processes",
                str(args.processes),
                "--shard",
                str(shard),
            ]
            children.append(subprocess.Popen(command, stdout=subprocess.PIPE, text=True))
        outputs = [child.communicate()[0] for child in children]
        if any(child.returncode for child in children):
            raise SystemExit(f"a benchmark process failed: {[c.returncode for c in children]}")
    finally:
        server.stop()
    results = [json.loads(out.strip().splitlines()[-1]) for out in outputs]
    worst = {
        key: max(r[key] for r in results)
        for key in (
            "loop_lag_ms_p99",
            "notice_latency_ms_p99",
            "map_latency_ms_p99",
            "load_share_s",
        )
    }
    return {
        "processes": results,
        "games": sum(r["games"] for r in results),
        "actions": sum(r["actions"] for r in results),
        **{f"worst_{key}": value for key, value in worst.items()},
        "targets_met": all(r["targets_met"] for r in results)
        and worst["load_share_s"] <= TARGET_LOAD_SHARE_S,
    }


async def measure(bench: Bench, seconds: float) -> dict[str, Any]:
    progress(f"warming up: {bench.games} games, render={bench.render}")
    if bench.executor is not None:
        loop = asyncio.get_running_loop()
        await asyncio.gather(
            *(loop.run_in_executor(bench.executor, _warm_worker) for _ in range(4))
        )
    else:
        await asyncio.to_thread(_warm_worker)
    await bench.app.start()
    players = [Player(bench, i) for i in range(bench.games)]
    for player in players:
        await player.new_game()
        await player.advance()
    bench.counts = Counts()
    bench.publisher.reset()
    bench.render_ms.clear()
    progress(f"running {seconds:.0f} s at {bench.rate:g} actions/s")

    lags: list[float] = []
    load_before = os.getloadavg()
    cpu_before = CpuSample.take(bench.executor)
    started = time.perf_counter()
    tick = asyncio.create_task(ticker(lags))
    tasks = [asyncio.create_task(p.play()) for p in players]
    await asyncio.sleep(seconds)
    for player, task in zip(players, tasks, strict=True):
        if not player.busy:
            task.cancel()
    bench.stopping = True
    await asyncio.gather(*tasks, return_exceptions=True)  # the last submissions finish
    tick.cancel()
    elapsed = time.perf_counter() - started
    cpu = CpuSample.take(bench.executor).minus(cpu_before)
    load_after = os.getloadavg()

    counts, publisher = bench.counts, bench.publisher
    lag_p99 = percentile(lags, 99)
    notice_p99 = percentile(publisher.latencies_ms, 99)
    map_p99 = percentile(publisher.map_latencies_ms, 99)
    return {
        "games": bench.games,
        "seconds": round(elapsed, 1),
        "render": bench.render,
        "actions": counts.actions,
        "actions_per_s": round(counts.actions / elapsed, 1),
        "announced": len(publisher.latencies_ms),
        "silent": len(publisher.silent_ms),
        "refused": counts.refused,
        "waited_for_windows": counts.waited,
        "maps": publisher.maps,
        "map_mb": round(publisher.map_bytes / 1e6, 1),
        "phases_completed": counts.phases_completed,
        "private_notices": publisher.private_notices,
        **stats("loop_lag_ms", lags),
        **stats("notice_latency_ms", publisher.latencies_ms),
        **stats("map_latency_ms", publisher.map_latencies_ms),
        **stats("silent_latency_ms", publisher.silent_ms),
        **stats("render_ms", bench.render_ms),
        **stats("new_game_ms", counts.create_ms),
        "cpu_s_bench": round(cpu.own, 1),
        "cpu_s_render_processes": round(cpu.workers, 1),
        "cpu_cores_used_by_others": round(cpu.others / elapsed, 2),
        "loadavg_1m_before": round(load_before[0], 2),
        "loadavg_1m_after": round(load_after[0], 2),
        "cores": os.cpu_count(),
        "targets_met": lag_p99 <= TARGET_LAG_MS
        and notice_p99 <= TARGET_NOTICE_MS
        and map_p99 <= TARGET_MAP_MS,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--rate", type=float, default=40.0, help="actions per second in all")
    parser.add_argument(
        "--render",
        choices=("thread", "process", "thread-pool", "none"),
        default="process",
        help="where maps are drawn: a process pool (as `mentat run` does), asyncio.to_thread "
        "(MapMaker without an executor), a dedicated thread pool, or no maps at all",
    )
    parser.add_argument(
        "--workers", type=int, default=2, help="process or thread pool size (mentat run: 2)"
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="processes (shards) over one PostgreSQL"
    )
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--database-url", help=argparse.SUPPRESS)  # a child process's
    parser.add_argument("--shard", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.database_url is None and (args.processes > 1 or args.backend == "postgres"):
        multi = run_processes(args)
        print(
            f"{multi['actions']} actions in {args.processes} processes; worst loop lag p99 "
            f"{multi['worst_loop_lag_ms_p99']} ms, notice latency p99 "
            f"{multi['worst_notice_latency_ms_p99']} ms, map latency p99 "
            f"{multi['worst_map_latency_ms_p99']} ms, load of a share "
            f"{multi['worst_load_share_s']} s"
        )
        print(json.dumps(multi))
        return 0
    result = asyncio.run(run(args))
    print(
        f"{result['actions']} actions ({result['actions_per_s']}/s), {result['maps']} maps, "
        f"{result['phases_completed']} phases completed, {result['refused']} refused; "
        f"loop lag p99 {result['loop_lag_ms_p99']} ms; notice latency p50 "
        f"{result['notice_latency_ms_p50']} ms, p99 {result['notice_latency_ms_p99']} ms; "
        f"map latency p50 {result['map_latency_ms_p50']} ms, p99 "
        f"{result['map_latency_ms_p99']} ms; "
        f"database {result.get('db_bytes', 0) / 1e6:.1f} MB"
    )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
