"""``mentat demo``'s whole game: the bundled seeded game (``bot/data/demo-game.json``)
played offline through the real session, store (a temporary SQLite file) and renderer.

Scripted players answer every choice (traitors, the prediction, the Fremen's places,
dials, the Nexus, charity, bids and passes in the auction, revivals, the battles (plans,
traitors, cards kept, captures), shipments and moves), in the order the bundled log gives;
no phase is left for the moderator to record; no deadline is ever needed (the clock is a
:class:`bot.clock.FakeClock` that moves only to wait out a secret window, as a table would).

``public.md`` is exactly what the spectators' channel received, as Markdown: a heading
for each phase of each turn, the maps (each with its captioned close-up), the battles'
pictures and, at the end, the game's summary with its charts, linked as images.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, TextIO

from bot.clock import FakeClock
from bot.demo.phase import DEMO_TIMING, WEB, ConsolePublisher, claim_folder
from bot.publisher import PublicNotice
from bot.render.maps import MapMaker
from bot.session.session import PhaseSession
from bot.session.windows import SECRET, is_window
from bot.settings import GameSettings
from bot.starts import whole_game_start
from bot.store import Store
from bot.store.store import LogEntry
from bot.web.static import MOVED, write_site
from rules.actions import Action, Decline, FactionAction, PhaseDone, Record, action_from_dict
from rules.events import Event, PhaseBegan
from rules.factions import Faction
from rules.model import RuleSet

MODERATOR = 1  # the scripted moderator's user id
PLAYER = 2  # the scripted players' user id (each acts for its own faction)
PHASE_BEGINS = re.compile(r"^\*\*Turn (\d+): the (.+) phase begins\.\*\*$")
MENTION = re.compile(r"<@!?&?\d+>")


def demo_game() -> dict[str, Any]:
    """The bundled whole game: its seats, rules, seed and the log the players follow."""
    text = resources.files("bot").joinpath("data/demo-game.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


class DemoMaps(MapMaker):
    """A map as each turn's Shipment & Movement ends, with the close-up of where forces were
    shipped and moved in it, and one of the game's end: enough to follow the game, few
    enough to draw in seconds."""

    def __init__(self) -> None:
        super().__init__("turn")

    def wanted(self, events: list[Event]) -> bool:
        return any(
            (isinstance(e, PhaseBegan) and e.phase == MOVED) or e.kind == "game_won" for e in events
        )


def markdown_lines(text: str) -> str:
    """Discord's text as Markdown GitHub renders: mentions in words (timestamps are, by
    :meth:`ConsolePublisher.words`), each line its own (a hard break)."""
    text = "\n".join(
        MENTION.sub("the moderator", MENTION.sub("The moderator", line, count=1))
        if MENTION.match(line)
        else MENTION.sub("the moderator", line)
        for line in text.splitlines()
    )
    return " \\\n".join(line for line in text.splitlines() if line.strip())


@dataclass
class GamePublisher(ConsolePublisher):
    """The console shows the table's channel; ``public.md`` is the spectators' channel,
    with a heading wherever a phase begins."""

    spectator_notices: list[PublicNotice] = field(default_factory=list)
    log: list[LogEntry] = field(default_factory=list)  # the game's log in the store
    status: str = ""  # the game's status in the store at the end
    title: str = "# Mentat demo: a whole game, as the spectators saw it\n\n## Set-up"

    async def public(self, game_id: int, notice: PublicNotice) -> None:
        self.say(self.words(notice.text))
        self.say()

    async def spectators(self, game_id: int, notice: PublicNotice) -> str:
        """The spectators' message, a block of ``public.md`` under the headings of the
        phases it begins; its pictures, drawn later, come right after it (attach_map)."""
        self.spectator_notices.append(notice)
        parts: list[str] = []
        chunk: list[str] = []
        for line in self.words(notice.text).splitlines():
            begun = PHASE_BEGINS.match(line.strip())
            if begun is None:
                chunk.append(line)
                continue
            if chunk:
                parts.append(markdown_lines("\n".join(chunk)))
                chunk = []
            turn, phase = begun.groups()
            if phase == "Storm":
                parts.append(f"## Turn {turn}")
            parts.append(f"### Turn {turn}: {phase}")
        if chunk:
            parts.append(markdown_lines("\n".join(chunk)))
        parts += self.save_pictures(notice)
        self.record.append([p for p in parts if p])
        self.write_record()
        return f"spectators:{len(self.record) - 1}"


async def play_game_demo(
    out: Path,
    *,
    stream: TextIO | None = None,
    replace_own: bool = False,
    maps: bool = True,
    game: dict[str, Any] | None = None,
) -> GamePublisher:
    """Play the bundled whole game (or ``game``, shaped alike) into ``out`` (see
    :func:`bot.demo.phase.claim_folder`); return the publisher that recorded it
    (``.store_log`` holds the game's log entries)."""
    claim_folder(out, replace_own=replace_own)
    data = game or demo_game()
    publisher = GamePublisher(out, stream or sys.stdout)
    publisher.write_record()
    seats = tuple(Faction(f) for f in data["seats"])
    start = whole_game_start(
        seats, rules=RuleSet(advanced=bool(data["advanced"])), seed=int(data["seed"])
    )
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "demo.db")
        try:
            settings = GameSettings(timing=DEMO_TIMING, maps="turn" if maps else "never")
            game_id = await store.create_game(
                0, start, settings=settings, moderators=(MODERATOR,), created_by=MODERATOR
            )
            clock = publisher.clock
            session = PhaseSession(
                game_id,
                store=store,
                publisher=publisher,
                clock=clock,
                timing=DEMO_TIMING,
                renderer=DemoMaps() if maps else None,
            )
            await session.start()
            try:
                await ScriptedTable(session, clock).play(data["actions"])
                await session.until_idle()
            finally:
                await session.stop()
            publisher.log = list(await store.log(game_id))
            publisher.status = (await store.game(game_id)).status
            if maps:  # the live page, as files beside public.md
                await write_site(store, game_id, publisher.file(WEB), now=clock.now())
        finally:
            await store.close()
    return publisher


@dataclass
class ScriptedTable:
    """The players and the moderator, following the bundled log: each player submits its
    own faction's actions (its bids, revivals and battle plans too); the moderator's
    actions in the log (corrections, an early end of a phase) go through ``record``."""

    session: PhaseSession
    clock: FakeClock
    keys: int = 0

    async def play(self, script: list[dict[str, Any]]) -> None:
        for raw in script:
            await self.act(action_from_dict(raw))
        await self.wait_out_windows(None)

    async def wait_out_windows(self, action: Action | None) -> None:
        """A secret window (Karama, the Guild's stop) runs its time: the table waits it out
        unless ``action`` answers it (the script's "no" to a window is that wait)."""
        session = self.session
        while session.state is not None and is_window(session.state.open_prompts()):
            answers = isinstance(action, FactionAction) and not isinstance(action, Decline)
            if answers and session.state.answers_open_prompt(action):  # type: ignore[arg-type]
                return
            await session.until_idle()
            await self.clock.advance(
                DEMO_TIMING.window.total_seconds() + 1, settle=session.next_idle
            )

    async def act(self, action: Action) -> None:
        if isinstance(action, Decline) and action.prompt in SECRET:
            await self.wait_out_windows(action)
            return
        await self.wait_out_windows(action)
        self.keys += 1
        key = f"demo-{self.keys}"
        if isinstance(action, Record | PhaseDone):
            await self.session.record(MODERATOR, action, key=key)
        else:
            assert isinstance(action, FactionAction)
            await self.session.submit(action.faction, action, actor=PLAYER, key=key)
