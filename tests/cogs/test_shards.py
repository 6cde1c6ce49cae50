"""Three ``mentat run`` processes, one shard each, over one PostgreSQL database and the
loopback fake Discord: six servers play their phase, one process is killed (SIGKILL) in the
middle and restarted, and nothing accepted is lost or applied twice."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import discord
import pytest
import yarl

from bot.app import standard_start
from bot.clock import FakeClock
from bot.ledger import Ledger
from bot.settings import GameSettings
from bot.shards import Shards
from bot.store import Store
from cogs.client import build
from rules.factions import Faction
from tests.cogs.fake_discord import FakeDiscord, Request
from tests.cogs.test_restart import PRIVATE_MARKS

pytestmark = pytest.mark.timeout(300)

ROOT = Path(__file__).resolve().parents[2]
SHARDS = 3
MODERATOR = 4242
STEP = 30.0  # seconds allowed for one exchange: three processes share two processors
KILLED = 1  # the shard whose process is killed


class Processes:
    """The ``mentat run`` processes, one per shard, their output in files."""

    def __init__(self, fake: FakeDiscord, url: str, folder: Path) -> None:
        self.fake, self.url, self.folder = fake, url, folder
        self.running: dict[int, subprocess.Popen[bytes]] = {}
        self.logs: list[Path] = []

    def start(self, shard: int) -> None:
        log = self.folder / f"shard{shard}-{len(self.logs)}.log"
        self.logs.append(log)
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "DISCORD_TOKEN": self.fake.token,
            "DEV_GUILD_ID": str(self.fake.guild_id),
            "DATABASE_URL": self.url,
            "SHARD_COUNT": str(SHARDS),
            "SHARD_IDS": str(shard),
            "RENDER_WORKERS": "1",
            "LOG_LEVEL": "INFO",
            "FAKE_DISCORD_API": self.fake.api_base,
            "FAKE_DISCORD_GATEWAY": self.fake.gateway_url,
        }
        with log.open("wb") as out:
            self.running[shard] = subprocess.Popen(
                [sys.executable, "-m", "tests.cogs.fake_run"],
                cwd=self.folder,  # no .env there
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    def kill(self, shard: int) -> None:
        process = self.running.pop(shard)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=STEP)

    def stop_all(self) -> None:
        for process in self.running.values():
            process.send_signal(signal.SIGINT)
        for process in self.running.values():
            try:
                process.wait(timeout=STEP)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.running.clear()

    def output(self) -> Iterator[tuple[Path, str]]:
        for log in self.logs:
            yield log, log.read_text(errors="replace")


@pytest.fixture
async def world(postgres_url: str, tmp_path: Path) -> AsyncIterator[tuple[FakeDiscord, Processes]]:
    async with FakeDiscord(lifetime=280, extra_guilds=5, shard_count=SHARDS) as fake:
        processes = Processes(fake, postgres_url, tmp_path)
        try:
            yield fake, processes
        finally:
            await asyncio.to_thread(processes.stop_all)


async def create_games(url: str, fake: FakeDiscord) -> dict[int, int]:
    """One two-faction game in each server; guild -> game id."""
    seats = (Faction.ATREIDES, None, Faction.HARKONNEN, None, None, None)
    games = {}
    async with await Store.open(url) as store:
        for guild in fake.guild_ids:
            channels = {
                role: fake.channel(name, guild).id
                for role, name in (
                    ("table", "dune-table"),
                    ("spectators", "dune-spectators"),
                    ("moderators", "dune-moderators"),
                    ("category", "dune"),
                )
            }
            games[guild] = await store.create_game(
                guild,
                standard_start(seats),
                channels=channels,
                settings=GameSettings(maps="never"),
                moderators=[MODERATOR],
            )
    return games


async def wait_ready(fake: FakeDiscord, shard: int, identified_before: int) -> None:
    """Until the shard's process has identified (its games were loaded before it connects)."""
    await fake.wait_for(
        lambda: (
            shard in fake.shard_sockets
            and sum(d["shard"][0] == shard for d in fake.identifies) > identified_before
        ),
        timeout=120,
        what=f"shard {shard} to identify",
    )


def identified(fake: FakeDiscord, shard: int) -> int:
    return sum(d["shard"][0] == shard for d in fake.identifies)


Turn = list[dict[str, object]]


async def next_to_act(store: Store, game_id: int) -> Turn | None:
    """The options of the ``/pass`` that ends the current step (None: the phase is over)."""
    ledger = await Ledger.open(store, game_id)
    view = ledger.state.public_view()
    if view.phase_complete or view.to_act is None:
        return None
    step = "shipment" if view.step == "ship" else "movement"
    return [
        {"name": "step", "type": 3, "value": step},
        {"name": "faction", "type": 3, "value": view.to_act.value},
    ]


async def pass_turn(fake: FakeDiscord, guild: int, turn: Turn) -> tuple[str, str | None]:
    """``/pass`` by the moderator in ``guild``: its key and the answer."""
    interaction_id, token = await fake.push_slash(
        "pass", user_id=MODERATOR, guild_id=guild, options=turn
    )
    followup: Request = await fake.wait_for(
        lambda: next(iter(fake.calls("POST", f"/webhooks/{fake.application_id}/{token}")), None),
        timeout=STEP,
        what=f"the answer to /pass in guild {guild}",
    )
    return f"discord:{interaction_id}", followup.payload.get("content")


async def test_three_shard_processes_survive_a_killed_one(
    world: tuple[FakeDiscord, Processes], postgres_url: str
) -> None:
    fake, processes = world
    games = await create_games(postgres_url, fake)
    assert sorted(fake.shard_of(g) for g in games) == [0, 0, 1, 1, 2, 2]
    for shard in range(SHARDS):
        processes.start(shard)
    for shard in range(SHARDS):
        await wait_ready(fake, shard, 0)

    accepted: dict[int, list[str]] = {g: [] for g in games}
    pushed: dict[int, set[str]] = {g: set() for g in games}
    async with await Store.open(postgres_url) as store:
        for round_ in range(20):
            if round_ == 2:  # mid-phase: one process dies, another (its restart) takes over
                victim = next(g for g in games if fake.shard_of(g) == KILLED)
                turn = await next_to_act(store, games[victim])
                assert turn is not None
                interaction_id, _ = await fake.push_slash(  # in flight when it dies
                    "pass", user_id=MODERATOR, guild_id=victim, options=turn
                )
                pushed[victim].add(f"discord:{interaction_id}")
                before = identified(fake, KILLED)
                processes.kill(KILLED)
                processes.start(KILLED)
                await wait_ready(fake, KILLED, before)
            playing = False
            for guild, game_id in games.items():
                turn = await next_to_act(store, game_id)
                if turn is None:
                    continue
                playing = True
                key, answer = await pass_turn(fake, guild, turn)
                pushed[guild].add(key)
                assert answer is not None and answer.startswith("Done"), answer
                accepted[guild].append(key)
            if not playing:
                break

        for guild, game_id in games.items():
            assert await next_to_act(store, game_id) is None  # the phase is over everywhere
            log = await store.log(game_id)
            keys = [entry.key for entry in log if entry.kind == "action"]
            assert len(keys) == len(set(keys))  # nothing applied twice
            assert set(accepted[guild]) <= set(keys)  # nothing accepted lost
            assert set(keys) <= pushed[guild]  # nothing from elsewhere

    table_ids = {fake.channel("dune-table", g).id for g in games}
    table_ids |= {fake.channel("dune-spectators", g).id for g in games}
    public = [r for r in fake.calls("POST", "/messages") if int(r.path.split("/")[2]) in table_ids]
    assert public  # the phases were told
    for message in public:
        content = (message.payload or {}).get("content") or ""
        assert not any(mark in content for mark in PRIVATE_MARKS), content
    syncs = fake.calls("PUT", f"/applications/{fake.application_id}/guilds/{fake.guild_id}/")
    assert len(syncs) == 1  # by the process of shard 0 only
    await asyncio.to_thread(processes.stop_all)
    for log, text in processes.output():
        assert "Traceback" not in text, f"{log.name}:\n{text[-3000:]}"
        shard = log.name[len("shard")]  # each process loaded its own two games only
        assert f"serving 2 games (the servers of shards {shard} of 3)" in text, text[-3000:]


async def test_a_process_of_one_shard_gets_only_its_servers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with FakeDiscord(lifetime=45, extra_guilds=1, shard_count=2) as fake:
        monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
        monkeypatch.setattr(
            discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url)
        )
        mine, theirs = sorted(fake.guild_ids, key=lambda g: fake.shard_of(g) != 1)
        shards = Shards((1,), 2)
        store = await Store.open(tmp_path / "mentat.db", shards=shards)
        bot = build(store, clock=FakeClock(), dev_guild_id=fake.guild_id, shards=shards)
        assert isinstance(bot, discord.AutoShardedClient)
        connection: asyncio.Task[None] | None = None
        try:
            await bot.login(fake.token)
            connection = asyncio.create_task(bot.connect(reconnect=False))
            await fake.wait_for(lambda: fake.identifies, timeout=STEP, what="IDENTIFY")
            await asyncio.wait_for(bot.wait_until_ready(), STEP)
            assert [d["shard"] for d in fake.identifies] == [[1, 2]]
            assert [g.id for g in bot.guilds] == [mine]  # READY for shard 1: its server only
            with pytest.raises(AssertionError, match="no gateway connection for the shard"):
                await fake.push_slash("status", user_id=MODERATOR, guild_id=theirs)
            assert not fake.calls("PUT", "/commands")  # shard 0's process syncs them
        finally:
            await bot.close()
            if connection is not None:
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await asyncio.wait_for(connection, STEP)
            await store.close()
