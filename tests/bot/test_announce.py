"""Issue 11, fast notices: the words of an accepted action go out before its map is drawn;
the map follows, attached to the posted messages, in the order of the announcements."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.clock import FakeClock
from bot.delivery import MAP_ABOVE, NO_MAP, Delivery
from bot.publisher import (
    AttachmentRefusedError,
    ChannelGoneError,
    DeliveryError,
    PublicNotice,
    RecordingPublisher,
)
from bot.record.announce import Renderer, draw_maps
from bot.render import StormPath, WormSign, render_map
from bot.render.maps import RENDER_NICENESS, MapMaker, start_render_worker
from bot.render.marks import last_shipment_of
from bot.render.turn_example import mid_turn, whole_turn_steps
from bot.session.session import PhaseSession
from bot.settings import Timing
from bot.store import Store
from rules.actions import FactionAction, Pass, Ship
from rules.events import Event
from rules.factions import Faction
from rules.scenario import load_scenario
from rules.storm.events import StormMoved
from rules.view import PublicView

ATREIDES, EMPEROR = Faction.ATREIDES, Faction.EMPEROR
BASIC: dict[str, Any] = {  # basic game, no alliance, no Guild: no prompt opens
    "format": "dune-scenario/1",
    "advanced": False,
    "variants": {},
    "storm_sector": 10,
    "seats": ["atreides", "emperor", "harkonnen", None, None, None],
    "alliances": [],
    "factions": {f: {"spice": 10, "reserves": 10} for f in ("atreides", "emperor", "harkonnen")},
    "board": [],
}
SHIP = Ship(ATREIDES, to="Arrakeen", sector=None, forces=2)


class GatedRenderer:
    """A slow renderer: each map is drawn only once the test opens its gate."""

    def __init__(self) -> None:
        self.gates: list[asyncio.Event] = []
        self.drawn = 0

    async def __call__(self, view: PublicView, events: list[Event]) -> bytes | None:
        gate = asyncio.Event()
        self.gates.append(gate)
        number = len(self.gates)
        await gate.wait()
        self.drawn += 1
        return f"map {number}".encode()


class BrokenRenderer:
    async def __call__(self, view: PublicView, events: list[Event]) -> bytes | None:
        raise RuntimeError("the worker died")


class Flaky(RecordingPublisher):
    """Fails the next map edits of the table as told (``edit_failures``); takes no files
    if told."""

    def __init__(self) -> None:
        super().__init__()
        self.edit_failures: list[DeliveryError] = []
        self.no_files = False

    async def attach_map(self, game_id: int, ref: str, notice: PublicNotice) -> None:
        if self.edit_failures and ref.startswith("public:"):
            raise self.edit_failures.pop(0)
        if self.no_files and notice.picture is not None:
            raise AttachmentRefusedError("table", "no Attach Files")
        await super().attach_map(game_id, ref, notice)


class Game:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.clock = FakeClock()
        self.publisher = Flaky()
        self.store: Store | None = None
        self.session: PhaseSession | None = None
        self.keys = 0

    async def open(self, renderer: Renderer | None) -> PhaseSession:
        self.store = await Store.open(self.path)
        game_id = await self.store.create_game(1, load_scenario(BASIC).initial_state())
        self.session = PhaseSession(
            game_id,
            store=self.store,
            publisher=self.publisher,
            clock=self.clock,
            timing=Timing(),
            renderer=renderer,
        )
        await self.session.start()
        return self.session

    def submit(self, action: FactionAction) -> asyncio.Task[Any]:
        """Submit in a task of its own (a request returns once its map is attached)."""
        assert self.session is not None
        self.keys += 1
        call = self.session.submit(action.faction, action, actor=1, key=f"k{self.keys}")
        return asyncio.create_task(call)

    def table(self) -> list[PublicNotice]:
        return [n for _, n in self.publisher.public_notices]

    def spectators(self) -> list[PublicNotice]:
        return [n for _, n in self.publisher.spectator_notices]

    async def close(self) -> None:
        if self.session is not None:
            await self.session.stop()
        if self.store is not None:
            await self.store.close()


@pytest.fixture
async def game(tmp_path: Path) -> AsyncIterator[Game]:
    g = Game(tmp_path / "mentat.db")
    try:
        yield g
    finally:
        await g.close()


async def until(condition: Callable[[], bool]) -> None:
    """Let the other tasks (and the store's thread) run until ``condition`` holds; fails
    if it does not within 10 seconds."""
    for _ in range(10_000):
        if condition():
            return
        await asyncio.sleep(0.001)
    raise AssertionError("never happened")


async def test_the_text_is_published_before_the_map_is_drawn(game: Game) -> None:
    renderer = GatedRenderer()
    session = await game.open(renderer)
    submitted = game.submit(SHIP)
    await until(lambda: any("Atreides ships 2" in n.text for n in game.table()))
    shipped = game.table()[-1]
    assert shipped.picture is None and renderer.drawn == 0  # the words did not wait
    assert game.spectators() == []  # the spectators read the turn once it is over
    assert len(renderer.gates) == 1 and not submitted.done()
    renderer.gates[0].set()
    await submitted
    await session.delivery.settled()  # the delivery's own task made the edit
    # the map came to the same message
    assert game.table()[-1] == PublicNotice(shipped.text, picture=b"map 1", game_id=1)
    assert game.publisher.attached == [f"public:{len(game.table()) - 1}"]
    ended = game.submit(Pass(ATREIDES))  # the turn ends: the spectators' record, words first
    await until(lambda: bool(game.spectators()))
    record = game.spectators()[-1]
    assert record.text.startswith("**Atreides' turn**\nAtreides ships 2")
    assert record.picture is None and not ended.done()
    renderer.gates[1].set()
    await ended
    assert game.spectators()[-1] == PublicNotice(record.text, picture=b"map 2", game_id=1)
    assert game.publisher.attached[-2:] == [f"public:{len(game.table()) - 1}", "spectators:0"]


async def test_the_session_goes_on_while_a_map_is_drawn_and_maps_keep_the_order(
    game: Game,
) -> None:
    renderer = GatedRenderer()
    session = await game.open(renderer)
    first = game.submit(SHIP)
    second = game.submit(Pass(ATREIDES))  # the movement: the turn passes to the Emperor
    await until(lambda: len(renderer.gates) == 2 and "Emperor" in game.table()[-1].text)
    assert session.state is not None and session.state.to_act() is EMPEROR
    texts = [n.text for n in game.table()]
    assert "Atreides ships 2" in texts[-2] and renderer.drawn == 0
    renderer.gates[1].set()  # the later map is drawn first ...
    await asyncio.sleep(0.05)
    assert game.publisher.attached == []  # ... and waits for the earlier one
    renderer.gates[0].set()
    await asyncio.gather(first, second)
    shipped, passed = (len(texts) - 2, len(texts) - 1)
    assert game.publisher.attached == [  # the turn's record takes the map of its end
        f"public:{shipped}",
        f"public:{passed}",
        "spectators:0",
    ]
    assert [n.picture for n in game.table()[-2:]] == [b"map 1", b"map 2"]


async def test_a_map_the_policy_does_not_want_is_never_drawn(game: Game) -> None:
    await game.open(MapMaker("turn", turn=1))  # a map after each turn, not each action
    await game.submit(SHIP)
    assert game.table()[-1].picture is None and game.publisher.attached == []
    await game.submit(Pass(ATREIDES))  # the turn ends: its map, and the turn's close-up
    ended = game.table()[-1]
    assert ended.picture is not None and ended.picture.startswith(b"\x89PNG")
    assert ended.closeup is not None and ended.closeup.startswith(b"\x89PNG")
    assert ended.caption == "Close-up of Arrakeen: the shipments and moves since the last map."
    await game.submit(Pass(Faction.EMPEROR))  # a turn of passes: its map, nothing to close in
    await game.submit(Pass(Faction.EMPEROR))
    assert game.table()[-1].picture is not None and game.table()[-1].closeup is None


async def test_a_map_that_cannot_be_drawn_leaves_the_text_and_the_game_going(
    game: Game,
) -> None:
    await game.open(BrokenRenderer())
    await game.submit(SHIP)
    await game.submit(Pass(ATREIDES))
    assert [n.picture for n in game.table()[-2:]] == [None, None]
    assert "Atreides ships 2" in game.table()[-2].text


async def test_a_failed_map_edit_leaves_the_text_and_is_tried_again(game: Game) -> None:
    renderer = GatedRenderer()
    session = await game.open(renderer)
    game.publisher.edit_failures = [DeliveryError("HTTP 503", retryable=True)] * 2
    submitted = game.submit(SHIP)
    await until(lambda: len(renderer.gates) == 1)
    renderer.gates[0].set()
    await until(lambda: session.delivery.failures == 1)  # the table's edit failed
    assert game.table()[-1].picture is None and "Atreides ships 2" in game.table()[-1].text
    await session.delivery.settled()
    await game.clock.advance(2.5, settle=session.next_idle)  # the first pause: fails again
    await until(lambda: session.delivery.failures == 2)  # (its own task: before time moves on)
    assert game.table()[-1].picture is None
    await game.clock.advance(4.5, settle=session.next_idle)
    await submitted  # it returned once its messages were tried (the first time)
    await session.delivery.settled()  # the delivery's own task made the retried edit
    assert game.table()[-1].picture == b"map 1"
    assert session.delivery.failures == 2


async def test_a_channel_that_takes_no_files_gets_the_note_instead(game: Game) -> None:
    renderer = GatedRenderer()
    session = await game.open(renderer)
    game.publisher.no_files = True
    submitted = game.submit(SHIP)
    await until(lambda: len(renderer.gates) == 1)
    renderer.gates[0].set()
    await submitted
    await session.delivery.settled()  # the delivery's own task made the edit
    edited = game.table()[-1]
    assert edited.picture is None and edited.text.endswith(NO_MAP)
    assert "Atreides ships 2" in edited.text


# -- the delivery: a map drawn after its text was handed over ------------------------------


class Gated(RecordingPublisher):
    """Posts to the table only once ``gate`` opens (a slow Discord); fails as told; gives
    no reference to posted messages if told."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.gate.set()
        self.failures: list[DeliveryError] = []
        self.posting = 0
        self.references = True

    async def public(self, game_id: int, notice: PublicNotice) -> str | None:
        self.posting += 1
        await self.gate.wait()
        if self.failures:
            raise self.failures.pop(0)
        ref = await super().public(game_id, notice)
        return ref if self.references else None


async def _delivery(publisher: Gated) -> tuple[Delivery, FakeClock]:
    clock = FakeClock()
    delivery = Delivery(1, publisher, clock)
    delivery.start()
    return delivery, clock


async def test_a_map_drawn_before_its_text_went_out_goes_with_it() -> None:
    publisher = Gated()
    publisher.failures = [DeliveryError("HTTP 503", retryable=True)]
    delivery, clock = await _delivery(publisher)
    job = delivery.public(PublicNotice("Atreides ships."))
    await delivery.settled()  # the post failed: it waits to be tried again
    delivery.attach(job, b"map", b"closeup")
    await clock.advance(3, settle=delivery.activity.next_quiet)
    await delivery.settled()
    assert [n for _, n in publisher.public_notices] == [
        PublicNotice("Atreides ships.", picture=b"map", closeup=b"closeup")
    ]
    assert publisher.attached == []  # one message, no edit
    await delivery.stop()


async def test_a_map_drawn_while_its_text_is_being_posted_comes_by_an_edit_after_it() -> None:
    publisher = Gated()
    publisher.gate.clear()
    delivery, _ = await _delivery(publisher)
    job = delivery.public(PublicNotice("Atreides ships."))
    await until(lambda: publisher.posting == 1)
    delivery.attach(job, b"map")
    later = delivery.public(PublicNotice("Emperor ships."))
    publisher.gate.set()
    await delivery.settled()
    assert [(n.text, n.picture) for _, n in publisher.public_notices] == [
        ("Atreides ships.", b"map"),
        ("Emperor ships.", None),
    ]
    assert publisher.attached == ["public:0"] and later.sent
    await delivery.stop()


async def test_a_map_for_a_kept_text_goes_out_with_it_after_the_repair() -> None:
    publisher = Gated()
    publisher.failures = [ChannelGoneError("table", "it is gone")]
    delivery, _ = await _delivery(publisher)
    job = delivery.public(PublicNotice("Atreides ships."))
    await delivery.settled()
    assert len(delivery.kept) == 1
    delivery.attach(job, b"map")
    assert delivery.redeliver() == 1
    await delivery.settled()
    assert [(n.text, n.picture) for _, n in publisher.public_notices] == [
        ("Atreides ships.", b"map")
    ]
    await delivery.stop()


async def test_without_a_reference_to_the_posted_text_the_map_follows_it() -> None:
    publisher = Gated()
    publisher.references = False
    delivery, _ = await _delivery(publisher)
    job = delivery.public(PublicNotice("Atreides ships."))
    await delivery.settled()
    delivery.attach(job, b"map")
    await delivery.settled()
    assert [(n.text, n.picture) for _, n in publisher.public_notices] == [
        ("Atreides ships.", None),
        (MAP_ABOVE, b"map"),
    ]
    await delivery.stop()


def test_render_workers_yield_the_cpu_to_the_bot() -> None:
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=spawn, initializer=start_render_worker) as pool:
        worker = pool.submit(os.nice, 0).result()
    assert worker == min(os.nice(0) + RENDER_NICENESS, 19)


async def test_a_turns_marks_are_noted_when_announced_and_a_late_map_keeps_its_own() -> None:
    maker = MapMaker("never")  # no step gets a map: their marks still count
    drawn = [draw_maps(maker, s.view, list(s.events)) for s in whole_turn_steps()[:-1]]
    assert drawn == [None] * len(drawn)
    view, events = mid_turn().view, list(mid_turn().events)
    path, worms = StormPath(2, 6, 4), (WormSign("Funeral Plain", 8, 6),)
    assert maker.turn_marks(view, []) == (path, worms)
    maker.policy = "action"
    draw = draw_maps(maker, view, events)
    assert draw is not None
    game = view.game
    assert game is not None
    next_turn = replace(view, game=replace(game, turn=4, phase="storm"))
    draw_maps(maker, next_turn, [StormMoved(6, 8, 2, "1.01.02")])  # announced before it
    maps = await draw()  # ... the earlier map is drawn
    assert maps is not None
    assert maps.picture == render_map(
        view, last_shipment=last_shipment_of(events), storm_path=path, worms=worms
    )
    assert maker.turn_marks(next_turn, []) == (StormPath(6, 8, 2), ())
