"""``mentat demo``: a six-faction advanced phase played offline through the real
session, store (a temporary SQLite file) and renderer by scripted players.

Prints the table's log; writes the spectators' record (one message per faction's turn,
with its map, and the phase's summary) to ``public.md`` (Markdown that GitHub renders), the
maps and each faction's private log into ``--out`` (``./demo-out/``); the whole game's demo
also writes its live page as static files (``web/index.html``, :mod:`bot.web.static`).
Players are written "@Atreides" (on Discord, mentions of the seated users).

The demo writes only into a new or empty folder, so it never deletes a file of the
user's. The one exception is the default ``./demo-out/`` after an earlier demo: the
``.mentat-demo`` file there lists what that demo wrote, and those files (and only those)
are replaced, so ``make demo`` can run again.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import Any, TextIO

from bot.clock import FakeClock
from bot.delivery import NO_MAP
from bot.orders import StandingOrders
from bot.publisher import ModeratorNotice, PrivateNotice, PublicNotice, fill_players
from bot.render.maps import MapMaker
from bot.session.session import PhaseSession
from bot.session.windows import is_window
from bot.settings import Timing
from bot.store import Store
from bot.words.stamps import stamps_in_words
from rules.actions import Decline, FactionAction, action_from_dict
from rules.errors import RulesError
from rules.factions import Faction
from rules.scenario import load_scenario

DEMO_TIMING = Timing(step=timedelta(hours=1), prompt=timedelta(hours=1), reminder=timedelta(0))
DEFAULT_OUT = Path("demo-out")
MARKER = ".mentat-demo"  # lists the files a demo wrote into its folder
WEB = "web"  # the live page's static copy (bot.web.static), a folder of the demo's own
OWN_FILE = re.compile(r"[a-z]+-\d{3,}\.png|private-[a-z_]+\.txt|public\.md|web")
PUBLIC_LOG = "public.md"
DEMO_START = datetime(2026, 1, 1, 12, tzinfo=UTC)  # the table sits down: each run reads alike


class DemoFolderError(Exception):
    """The output folder holds files the demo must not overwrite; the message says which."""


def claim_folder(out: Path, *, replace_own: bool) -> None:
    """Make ``out`` a new or empty folder for the demo, or raise :class:`DemoFolderError`.

    With ``replace_own``, the files an earlier demo listed in its marker are deleted first
    (provided the folder holds nothing else)."""
    if out.exists() and not out.is_dir():
        raise DemoFolderError(f"{out} is a file, not a folder")
    out.mkdir(parents=True, exist_ok=True)
    present = {p.name for p in out.iterdir()}
    if present and not (replace_own and MARKER in present):
        raise DemoFolderError(
            f"{out} is not empty; the demo writes only into a new or empty folder "
            "(give another with --out)"
        )
    own = _own_files(out) if present else set()
    others = sorted(present - own - {MARKER})
    if others:
        listed = ", ".join(others[:3]) + (", ..." if len(others) > 3 else "")
        raise DemoFolderError(
            f"{out} holds files an earlier demo did not write ({listed}); "
            "move them or give another folder with --out"
        )
    for name in [*own, MARKER] if present else []:
        if (out / name).is_dir():
            shutil.rmtree(out / name)  # the demo's own web folder
        else:
            (out / name).unlink()
    (out / MARKER).write_text("# files written by `mentat demo` (replaced by the next one)\n")


def _own_files(out: Path) -> set[str]:
    lines = (out / MARKER).read_text(encoding="utf-8", errors="replace").splitlines()
    return {n for n in lines if OWN_FILE.fullmatch(n) and _is_own(out / n)}


def _is_own(path: Path) -> bool:
    return path.is_dir() if path.name == WEB else path.is_file()


@dataclass
class ConsolePublisher:
    """Public log to the console; maps and private logs to files."""

    out: Path
    stream: TextIO = sys.stdout
    maps: int = 0
    scenes: dict[str, int] = field(default_factory=dict)  # the phases' pictures, by name
    closeups: int = 0  # the close-ups of the maps, for phones (closeup-001.png...)
    charts: int = 0  # the charts written (charts-001.png: the game's, at its end)
    private_logs: dict[Faction, list[str]] = field(default_factory=dict)
    written: set[str] = field(default_factory=set)
    record: list[list[str]] = field(default_factory=list)  # public.md: each message's blocks
    reader_gone: bool = False
    clock: FakeClock = field(default_factory=lambda: FakeClock(DEMO_START))  # moves as they wait
    title: str = "# Mentat demo: the spectators' record"  # public.md's heading

    def words(self, text: str) -> str:
        """A message as the demo's reader sees it: players by name, times in words."""
        return stamps_in_words(fill_players(text, player_name), self.clock.now())

    def say(self, text: str = "") -> None:
        """Print to the console; once its reader has gone (``| head``), only the files."""
        if self.reader_gone:
            return
        try:
            print(text, file=self.stream)
        except BrokenPipeError:
            self.reader_gone = True  # `mentat` itself then exits quietly (mentat.cli)

    def file(self, name: str) -> Path:
        """The path of one of the demo's files; the marker lists it before it is written."""
        if name not in self.written:
            self.written.add(name)
            with (self.out / MARKER).open("a", encoding="utf-8") as marker:
                marker.write(name + "\n")
        return self.out / name

    async def public(self, game_id: int, notice: PublicNotice) -> str | None:
        """The table's log, on the console (its maps are the spectators')."""
        self.say(self.words(notice.text))
        self.say()
        return "public"

    async def spectators(self, game_id: int, notice: PublicNotice) -> str | None:
        """The spectators' record, to ``public.md``; its map comes with it or after it
        (:meth:`attach_map`), in its place."""
        self.record.append([" \\\n".join(self.words(notice.text).splitlines())])
        ref = f"spectators:{len(self.record) - 1}"
        if any(p is not None for p in (notice.picture, notice.scene, notice.charts)):
            await self.attach_map(game_id, ref, notice)
        else:
            self.write_record()
        return ref

    async def attach_map(self, game_id: int, ref: str, notice: PublicNotice) -> None:
        """The map of a message of the spectators' record, saved beside ``public.md``."""
        if not ref.startswith("spectators:"):
            return  # the table's copy of the same map: the record keeps it
        block = self.record[int(ref.split(":")[1])]
        pictures = self.save_pictures(notice)
        block.extend(pictures or [NO_MAP.strip()])
        self.write_record()

    def save_pictures(self, notice: PublicNotice) -> list[str]:
        """Write the notice's pictures beside ``public.md``: a phase's picture of the moment
        (a scene: ``battle-001.png``, named and captioned by its words), the map, the
        close-up, the charts; their links."""
        links: list[str] = []
        if notice.scene is not None:
            words = notice.scene.words
            self.scenes[words.name] = number = self.scenes.get(words.name, 0) + 1
            links.append(self._save(words.name, number, notice.scene, words.caption))
        if notice.picture is not None:
            self.maps += 1
            links.append(self._save("map", self.maps, notice.picture, f"Map {self.maps}"))
        if notice.closeup is not None:
            self.closeups += 1
            caption = notice.caption or f"Close-up of map {self.maps}"
            png = self._save("closeup", self.closeups, notice.closeup, f"Close-up {self.maps}")
            links.append(f"{png} \\\n*{caption}*")
        if notice.charts is not None:
            self.charts += 1
            title = "Strongholds and treachery cards held, turn by turn"
            links.append(self._save("charts", self.charts, notice.charts, title))
        return links

    def _save(self, kind: str, number: int, png: bytes, title: str) -> str:
        """Write ``png`` as ``kind-NNN.png`` (said on the console); its Markdown link."""
        name = f"{kind}-{number:03d}.png"
        path = self.file(name)
        path.write_bytes(png)
        self.say(f"  [{kind}: {path}]")
        return f"![{title}]({name})"

    def write_record(self) -> None:
        """``public.md``, written whole: the spectators' record as Markdown GitHub renders."""
        blocks = [self.title, *map("\n\n".join, self.record)]
        self.file(PUBLIC_LOG).write_text("\n\n".join(blocks) + "\n", encoding="utf-8")

    async def private(self, game_id: int, notice: PrivateNotice) -> None:
        self.private_logs.setdefault(notice.faction, []).append(notice.text)
        path = self.file(f"private-{notice.faction.value}.txt")
        with path.open("a", encoding="utf-8") as log:
            log.write(self.words(notice.text) + "\n\n")

    async def moderators(self, game_id: int, notice: ModeratorNotice) -> None:
        self.say(f"[moderators] {self.words(notice.text)}")

    async def ask(self, game_id: int, notice: PrivateNotice) -> str | None:
        """A prompt goes to the faction's private log; its reference names the faction."""
        await self.private(game_id, notice)
        return notice.faction.value

    async def edit_prompt(self, game_id: int, ref: str, notice: PrivateNotice) -> None:
        await self.private(game_id, PrivateNotice(notice.faction, f"(updated) {notice.text}"))

    async def close_prompt(self, game_id: int, ref: str, text: str) -> None:
        await self.private(game_id, PrivateNotice(Faction(ref), text))


def player_name(faction: Faction) -> str:
    """A player as the demo writes them (it has no users): "@Atreides"."""
    return f"@{faction.label}"


def demo_scenario() -> dict[str, Any]:
    text = resources.files("bot").joinpath("data/demo-phase.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


async def play_demo(
    out: Path, *, stream: TextIO | None = None, replace_own: bool = False
) -> ConsolePublisher:
    """Play the bundled phase into ``out`` (see :func:`claim_folder`); return the publisher
    that recorded it. Raises :class:`DemoFolderError` before playing when ``out`` is taken."""
    claim_folder(out, replace_own=replace_own)
    data = demo_scenario()
    publisher = ConsolePublisher(out, stream or sys.stdout)
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "demo.db")
        try:
            game_id = await store.create_game(0, load_scenario(data).initial_state())
            clock = publisher.clock
            session = PhaseSession(
                game_id,
                store=store,
                publisher=publisher,
                clock=clock,
                timing=DEMO_TIMING,
                renderer=MapMaker("turn", turn=1),  # the spectators see a map per turn
            )
            await session.start()
            await session.open_phase()
            try:
                await ScriptedPlayers(session, clock).play(data["actions"])
            finally:
                await session.stop()
        finally:
            await store.close()
    return publisher


@dataclass
class ScriptedPlayers:
    """Players following a script; they say no to every prompt the script skips."""

    session: PhaseSession
    clock: FakeClock
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
        """Say no to the open prompts; a Karama window runs its time (the players wait)."""
        session = self.session
        while session.state is not None and session.state.open_prompts():
            if action is not None and session.state.answers_open_prompt(action):
                return
            if is_window(session.state.open_prompts()):
                await session.until_idle()
                await self.clock.advance(
                    DEMO_TIMING.window.total_seconds() + 1, settle=session.next_idle
                )
                continue
            prompt = session.state.open_prompts()[0]
            for faction in prompt.waiting_on():
                await self.submit(Decline(faction, prompt.kind))

    async def submit(self, action: FactionAction) -> None:
        self.keys += 1
        try:
            await self.session.submit(action.faction, action, actor=0, key=f"demo-{self.keys}")
        except RulesError as error:
            print(f"(refused for {action.faction.label}: {error} [{error.rule}])")
