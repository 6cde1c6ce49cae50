"""``mentat demo``: a six-faction advanced phase played offline through the real
session, store (a temporary SQLite file) and renderer by scripted players.

Prints the public log; writes one map per announcement and each faction's
private log to ``./demo-out/``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from dataclasses import dataclass, field
from datetime import timedelta
from importlib import resources
from pathlib import Path
from typing import Any, TextIO

from bot.clock import SystemClock
from bot.maps import MapMaker
from bot.orders import StandingOrders
from bot.publisher import ModeratorNotice, PrivateNotice, PublicNotice
from bot.session import PhaseSession
from bot.settings import Timing
from bot.store import Store
from rules.actions import FactionAction, Pass, action_from_dict
from rules.errors import RulesError
from rules.factions import Faction
from rules.scenario import load_scenario

DEMO_TIMING = Timing(step=timedelta(hours=1), prompt=timedelta(hours=1), reminder=timedelta(0))


@dataclass
class ConsolePublisher:
    """Public log to the console; maps and private logs to files."""

    out: Path
    stream: TextIO = sys.stdout
    maps: int = 0
    private_logs: dict[Faction, list[str]] = field(default_factory=dict)

    async def public(self, game_id: int, notice: PublicNotice) -> None:
        print(notice.text, file=self.stream)
        if notice.picture is not None:
            self.maps += 1
            path = self.out / f"map-{self.maps:03d}.png"
            path.write_bytes(notice.picture)
            print(f"  [map: {path}]", file=self.stream)
        print(file=self.stream)

    async def spectators(self, game_id: int, notice: PublicNotice) -> None:
        """Spectators see the same public log; the console shows it once."""

    async def private(self, game_id: int, notice: PrivateNotice) -> None:
        self.private_logs.setdefault(notice.faction, []).append(notice.text)
        path = self.out / f"private-{notice.faction.value}.txt"
        with path.open("a", encoding="utf-8") as log:
            log.write(notice.text + "\n\n")

    async def moderators(self, game_id: int, notice: ModeratorNotice) -> None:
        print(f"[moderators] {notice.text}", file=self.stream)


def demo_scenario() -> dict[str, Any]:
    text = resources.files("bot").joinpath("data/demo-phase.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


async def play_demo(out: Path, *, stream: TextIO = sys.stdout) -> ConsolePublisher:
    """Play the bundled phase; return the publisher that recorded it."""
    out.mkdir(parents=True, exist_ok=True)
    for old in [*out.glob("map-*.png"), *out.glob("private-*.txt")]:
        old.unlink()
    data = demo_scenario()
    publisher = ConsolePublisher(out, stream)
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "demo.db")
        try:
            game_id = await store.create_game(0, load_scenario(data).initial_state())
            session = PhaseSession(
                game_id,
                store=store,
                publisher=publisher,
                clock=SystemClock(),
                timing=DEMO_TIMING,
                renderer=MapMaker("action", turn=1),
            )
            await session.start()
            try:
                await ScriptedPlayers(session).play(data["actions"])
            finally:
                await session.stop()
        finally:
            await store.close()
    return publisher


@dataclass
class ScriptedPlayers:
    """Players following a script; they say no to every prompt the script skips."""

    session: PhaseSession
    keys: int = 0

    async def play(self, script: list[dict[str, Any]]) -> None:
        await self.session.set_orders(
            Faction.EMPEROR,
            StandingOrders(karama="never"),  # a standing order in use
        )
        for raw in script:
            action = action_from_dict(raw)
            assert isinstance(action, FactionAction)
            await self.decline_until_answered(action)
            await self.submit(action)
        await self.decline_until_answered(None)

    async def decline_until_answered(self, action: FactionAction | None) -> None:
        session = self.session
        while session.state is not None and session.state.open_prompts():
            if action is not None and session.state.answers_open_prompt(action):
                return
            prompt = session.state.open_prompts()[0]
            for faction in prompt.waiting_on():
                await self.submit(Pass(faction, prompt=prompt.kind.value))

    async def submit(self, action: FactionAction) -> None:
        self.keys += 1
        try:
            await self.session.submit(action.faction, action, actor=0, key=f"demo-{self.keys}")
        except RulesError as error:
            print(f"(refused for {action.faction.label}: {error} [{error.rule}])")


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "demo", help="play a bundled six-faction advanced phase offline (no Discord)"
    )
    parser.add_argument("--out", type=Path, default=Path("demo-out"), help="output folder")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    publisher = asyncio.run(play_demo(args.out))
    print(
        f"Wrote {publisher.maps} maps and {len(publisher.private_logs)} private logs to {args.out}/"
    )
    return 0
