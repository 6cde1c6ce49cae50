"""The live page keeps every secret while a game runs: a whole game played into a real
store, then every page of every action and every picture fetched through the server, each
byte scanned for what was behind a shield (a card never shown, a traitor, the prediction,
a dial before the reveal, a spice total, the seed), as the Discord leak scan does; the
pictures' inputs too (what the render workers were given to draw). The shields open only
after the end, and the scan finds the secrets there: it looks where they would be."""

from __future__ import annotations

import json
import pickle
import re
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.render.battle.reveal import BattleReveal
from bot.store import Store
from bot.web.server import LiveSite
from rules.view import PublicView
from tests.bot.web_games import SEED, Played, play

pytestmark = pytest.mark.timeout(600)

Client = TestClient[web.Request, web.Application]
NAMES_A_RULE = {"Karama"}  # "Karama window" names a rule too


class WatchedWorkers(ThreadPoolExecutor):
    """Render workers that keep what each drawing was given (as it would be pickled for a
    worker process)."""

    def __init__(self) -> None:
        super().__init__(max_workers=2)
        self.inputs: list[tuple[Any, bytes]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        job = getattr(fn, "args", ())
        self.inputs.append((job[0] if job else None, pickle.dumps(fn)))
        return super().submit(fn, *args, **kwargs)


def public_strings(events: list[dict[str, Any]]) -> set[str]:
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list | tuple):
            for item in value:
                walk(item)

    walk(events)
    return found


def card_pattern(card: str) -> re.Pattern[str]:
    wall = r"(?! Wall)" if card == "Shield" else ""  # the Shield Wall is a place
    return re.compile(rf"\b{re.escape(card)}\b{wall}")


@pytest.fixture
async def finished(tmp_path: Path) -> AsyncIterator[tuple[Played, Store]]:
    store = await Store.open(tmp_path / "leaks.db")
    game = await play(store, game=3)
    yield game, store
    await store.close()


async def fetch(client: Client, url: str, status: int = 200) -> bytes:
    response = await client.get(url)
    body = await response.read()
    assert response.status == status, (url, response.status, body[:300])
    return body


async def test_no_page_or_picture_of_a_whole_game_shows_a_secret(
    finished: tuple[Played, Store],
) -> None:
    game, store = finished
    workers = WatchedWorkers()
    site = LiveSite.over(store, workers)
    log = await store.log(game.game_id)
    shown = public_strings([e.to_dict() for entry in log for e in entry.events])
    hidden = game.cards - game.shown - shown - NAMES_A_RULE  # never left a hand
    assert hidden, "every card was shown: the scan would prove nothing"
    timeline = await site.timelines.get(game.game_id)
    assert timeline.finished
    pages: list[str] = []
    async with TestClient(TestServer(site.app())) as client:
        root = f"/games/{game.game_id}"
        for number in range(len(timeline.moments)):
            page = (await fetch(client, f"{root}?action={number}")).decode()
            pages.append(page)
            scan(page, hidden, game)
            assert (await fetch(client, f"{root}/map/{number}.png")).startswith(b"\x89PNG")
            data = (await fetch(client, f"{root}/moment/{number}.json")).decode()
            scan_bytes(data, hidden)
            assert not PRIVATE_KEYS & keys(json.loads(data)["view"]), number
            if timeline.moments[number].scene is not None:
                await fetch(client, f"{root}/battle/{number}.png")
        opened = (await fetch(client, f"{root}?action={len(pages) - 1}&shields=open")).decode()
    workers.shutdown()
    battles = sum(m.scene is not None for m in timeline.moments)
    assert battles and len(workers.inputs) == len(pages) + battles  # each drawn once
    for what, pickled in workers.inputs:
        assert type(what) in (PublicView, BattleReveal)
        assert not any(card.encode() in pickled for card in hidden), what
        assert str(SEED + 3).encode() not in pickled
    # the scan would have caught them: behind the open shields, at the end
    assert any(card_pattern(card).search(opened) for card in hidden)
    assert any(name in opened for name in game.traitors)


def scan_bytes(page: str, hidden: set[str]) -> None:
    """No card never shown, no seed, no spice total anywhere in ``page``."""
    for card in hidden:
        assert not card_pattern(card).search(page), card
    assert str(SEED + 3) not in page and not re.search(r"\bseed\b", page, re.I)
    assert not re.search(r"\b(hold|holds|has) \d+ spice\b", page)  # behind the shields


PRIVATE_KEYS = {"cards", "traitors", "traitors_offered", "prediction", "dial", "secrets"}
PRIVATE_KEYS |= {"battle_plan", "spice", "storm_next", "card_on_offer"}  # a faction's own


def keys(data: Any) -> set[str]:
    """Every key of a JSON document, at any depth (the board's "spice" list aside)."""
    if isinstance(data, dict):
        own = {k for k in data if not (k == "spice" and isinstance(data[k], list))}
        return own.union(*(keys(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(keys(v) for v in data))
    return set()


def scan(page: str, hidden: set[str], game: Played) -> None:
    """Nothing secret in one page: its HTML and everything it says."""
    scan_bytes(page, hidden)
    assert "Behind the shields" not in page
    text = re.sub(r"<[^>]+>", "\n", page)
    won = re.search(r" wins? the game", text) is not None
    for line in text.splitlines():
        low = line.lower()
        if "traitor" in low and "called" not in low and "reveals" not in low:
            assert not any(name in line for name in game.traitors), line
        if "predict" in low and not won:
            for faction, turn in game.predictions:
                assert faction.label not in line and f"turn {turn}" not in low, line
        if "has dialed" in low:
            assert not re.search(r"\d", line), line  # a dial is told only at the reveal


async def test_the_shields_stay_closed_while_the_game_runs(tmp_path: Path) -> None:
    async with await Store.open(tmp_path / "running.db") as store:
        game = await play(store, game=1, limit=300)
        site = LiveSite.over(store)
        timeline = await site.timelines.get(game.game_id)
        assert not timeline.finished
        async with TestClient(TestServer(site.app())) as client:
            root = f"/games/{game.game_id}"
            latest = (await fetch(client, root)).decode()
            assert "Open the shields" not in latest and "shields=open" not in latest
            for number in range(0, len(timeline.moments), 7):
                refused = await fetch(client, f"{root}?action={number}&shields=open", 403)
                assert b"The shields stay closed until the game is over" in refused
            await game.ledger.finish()  # the game ends: now they open
            opened = (await fetch(client, f"{root}?shields=open")).decode()
            assert "Behind the shields" in opened and "Close the shields" in opened
