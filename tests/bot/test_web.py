"""The live page through aiohttp's own test server and client: a real SQLite store holding
random whole games played through the ledger, every page and picture fetched by URL."""

from __future__ import annotations

import html
import io
import random
import re
from collections.abc import AsyncIterator
from itertools import pairwise
from pathlib import Path

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from PIL import Image

from bot.ledger import Ledger
from bot.store import Store
from bot.web.server import LiveSite
from bot.web.sources import MAP_SIZE
from rules.actions import action_from_dict
from rules.factions import Faction
from tests.bot.phase_script import random_phase, start_position
from tests.bot.web_games import Played, play
from tests.rules.random_play import choose

Client = TestClient[web.Request, web.Application]
RUNNING_ACTIONS = 150  # a game cut short: it is still running


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    store = await Store.open(tmp_path / "web.db")
    yield store
    await store.close()


@pytest.fixture
async def site(store: Store) -> LiveSite:
    return LiveSite.over(store)


@pytest.fixture
async def client(site: LiveSite) -> AsyncIterator[Client]:
    async with TestClient(TestServer(site.app())) as client:
        yield client


async def text(client: Client, url: str, status: int = 200) -> str:
    response = await client.get(url)
    body = await response.text()
    assert response.status == status, (url, response.status, body[:500])
    assert "Traceback" not in body
    return body


def latest(page: str) -> int:
    found = re.search(r"Action (\d+) of (\d+)", page)
    assert found is not None
    return int(found.group(2))


async def test_the_page_shows_the_latest_moment_its_map_and_the_record(
    store: Store, client: Client
) -> None:
    game = await play(store, limit=RUNNING_ACTIONS)
    page = await text(client, f"/games/{game.game_id}")
    last = latest(page)
    assert f"Action {last} of {last}" in page and 0 < last <= RUNNING_ACTIONS
    assert f"/games/{game.game_id}/map/{last}.png" in page
    assert "Bene Gesserit writes down a secret prediction." in page  # the record, in words
    assert "{player:" not in page and "<t:" not in page  # players and times in words
    assert "<script" in page and "src='http" not in page  # nothing fetched elsewhere
    response = await client.get(f"/games/{game.game_id}/map/{last}.png")
    assert response.status == 200 and response.content_type == "image/png"
    picture = Image.open(io.BytesIO(await response.read()))
    assert picture.size == MAP_SIZE
    again = await client.get(
        f"/games/{game.game_id}/map/{last}.png", headers={"If-None-Match": response.headers["ETag"]}
    )
    assert again.status == 304


async def test_any_past_moment_by_its_action_number(store: Store, client: Client) -> None:
    game = await play(store, limit=RUNNING_ACTIONS)
    root = f"/games/{game.game_id}"
    page = await text(client, f"{root}?action=7")
    assert "Action 7 of" in page
    assert "id='a7' class='current'" in page and "id='a8'" not in page  # nothing later
    assert f"href='{root}?action=6'" in page and f"href='{root}?action=8'" in page
    start = await text(client, f"{root}?action=0")
    assert "The game begins." in start and "rel='prev'" not in start
    assert "secret prediction" not in start  # not yet made at the start


@pytest.mark.parametrize(
    ("url", "status", "words"),
    [
        ("?action=abc", 400, "an action is a whole number"),
        ("?action=-1", 400, "an action is a whole number"),
        ("?action=1e3", 400, "an action is a whole number"),
        ("?action=%C2%B2", 400, "an action is a whole number"),  # "²", a digit to Python
        ("?action=99999", 404, "There is no action 99999 yet"),
        ("?shields=maybe", 400, "the shields are 'open' or 'closed'"),
        ("?shields=open", 403, "The shields stay closed until the game is over"),
        ("/map/99999.png", 404, "There is no action 99999 yet"),
        ("/map/x.png", 400, "an action is a whole number"),
        ("/battle/0.png", 404, "Action 0 has no battle picture"),
        ("/duel/0.png", 404, "Action 0 has no duel picture"),
        ("/moment/99999.json", 404, "There is no action 99999 yet"),
        ("/nothing", 404, "Not Found"),
    ],
)
async def test_a_bad_address_is_answered_in_words(
    store: Store, client: Client, url: str, status: int, words: str
) -> None:
    game = await play(store, limit=20)
    page = await text(client, f"/games/{game.game_id}{url}", status)
    assert words in html.unescape(page)


async def test_an_unknown_game_is_not_found(client: Client) -> None:
    assert "There is no game 4242." in await text(client, "/games/4242", 404)
    assert "There is no game 'x1'" in html.unescape(await text(client, "/games/x1", 404))
    assert "There is no game 77." in await text(client, "/games/77/map/0.png", 404)
    assert "a game is named by its number" in await text(client, "/games/%C2%B2", 404)


async def test_a_live_game_grows_and_an_undo_replays_it(store: Store, client: Client) -> None:
    game = await play(store, limit=40)
    root = f"/games/{game.game_id}"
    before = latest(await text(client, root))
    first_map = await (await client.get(f"{root}/map/{before}.png")).read()
    await _more(game, 30)
    grown = latest(await text(client, root))
    assert grown > before
    undone_line = (await text(client, f"{root}?action={grown}")).split("id='a")[-1]
    await game.ledger.undo(1, "web-undo", authorised=True)
    after = await text(client, root)
    assert latest(after) < grown  # the undone action is no moment any more
    assert undone_line not in after
    assert await (await client.get(f"{root}/map/{before}.png")).read() == first_map


async def _more(game: Played, actions: int) -> None:
    rng = random.Random(99)
    for n in range(actions):
        action = choose(game.state, rng)
        assert action is not None
        await game.ledger.submit(action, actor=1, key=f"more-{n}")


async def test_a_battle_has_its_picture_in_the_record_and_at_its_moment(
    store: Store, client: Client
) -> None:
    game = await play(store, limit=2000, finish=True)
    root = f"/games/{game.game_id}"
    page = await text(client, root)
    battles = sorted({int(n) for n in re.findall(rf"{root}/battle/(\d+)\.png", page)})
    assert battles, "a whole game with no battle picture"
    moment = await text(client, f"{root}?action={battles[0]}")
    assert "<figure class='battle'>" in moment and ": both plans" in moment
    response = await client.get(f"{root}/battle/{battles[0]}.png")
    assert response.status == 200
    assert Image.open(io.BytesIO(await response.read())).format == "PNG"


async def test_the_charts_are_drawn_per_turn(store: Store, client: Client) -> None:
    game = await play(store)
    page = await text(client, f"/games/{game.game_id}")
    charts = re.findall(r"<svg class=\"chart\".*?</svg>", page, re.S)
    assert len(charts) == 2
    assert "Strongholds held, per turn" in charts[0] and "Treachery cards held" in charts[1]
    turns = game.state.turn or 0
    assert turns >= 2
    held = re.search(r"<title>Atreides: ([\d, ]+)</title>", charts[1])
    assert held is not None and len(held.group(1).split(", ")) == turns
    final = int(held.group(1).split(", ")[-1])
    assert final == len(game.state.factions[Faction.ATREIDES].cards)


async def test_after_the_end_the_shields_open_move_by_move(
    store: Store, site: LiveSite, client: Client
) -> None:
    game = await play(store, game=3)
    timeline = await site.timelines.get(game.game_id)
    opened_all = await site.timelines.shields(game.game_id)
    assert len(opened_all) == len(timeline.moments)  # counted alike, moment by moment
    for moment, behind in zip(timeline.moments, opened_all, strict=True):
        assert all(view.public == moment.view for view in behind.views)
    root = f"/games/{game.game_id}"
    latest_page = await text(client, root)
    last = latest(latest_page)
    assert f"href='{root}?action={last}&amp;shields=open'" in latest_page
    opened = html.unescape(await text(client, f"{root}?action={last}&shields=open"))
    assert f"Behind the shields, after action {last}" in opened
    for faction, own in game.state.factions.items():
        row = opened.split(f"<th>{faction.label}</th>", 1)[1].split("</tr>", 1)[0]
        assert f"Spice:</strong> {own.spice}<" in row
        assert f"Treachery cards:</strong> {', '.join(own.cards) or 'none'}<" in row
    bene_gesserit = opened.split("<th>Bene Gesserit</th>", 1)[1].split("</tr>", 1)[0]
    assert "Prediction:</strong>" in bene_gesserit
    early = html.unescape(await text(client, f"{root}?action=3&shields=open"))
    assert "Behind the shields, after action 3" in early and "Close the shields" in early
    assert f"href='{root}?action=4&shields=open'" in early  # stepping keeps them open


async def test_a_moment_shares_with_the_one_before_what_did_not_change(
    store: Store, site: LiveSite
) -> None:
    """Every moment's view is kept: what an action left as it was is kept once."""
    game = await play(store, limit=RUNNING_ACTIONS)
    moments = (await site.timelines.get(game.game_id)).moments
    pairs = list(pairwise(moments))
    same_board = [b for a, b in pairs if a.view.stacks == b.view.stacks]
    assert same_board and all(
        b.view.stacks is a.view.stacks for a, b in pairs if a.view.stacks == b.view.stacks
    )
    assert all(
        b.view.game.leaders is a.view.game.leaders
        for a, b in pairs
        if a.view.game and b.view.game and a.view.game.leaders == b.view.game.leaders
    )


async def test_a_moment_as_data(store: Store, client: Client) -> None:
    game = await play(store, limit=RUNNING_ACTIONS)
    response = await client.get(f"/games/{game.game_id}/moment/7.json")
    assert response.status == 200 and response.content_type == "application/json"
    data = await response.json()
    assert (data["game"], data["action"], data["finished"]) == (game.game_id, 7, False)
    assert data["lines"] and data["events"] and "stacks" in data["view"]
    assert "spice" not in data["view"]["factions"][0]  # behind the shields: not in the view


PUBLIC_MODULES = ("page", "charts", "server", "static", "pictures", "assets", "links")


@pytest.mark.parametrize("name", PUBLIC_MODULES)
def test_the_page_is_built_from_public_moments_never_the_position(name: str) -> None:
    """Only bot.web.timeline replays the position (and bot.web.shields reads the private
    views it opens after the end): the page's other modules never see a GameState."""
    source = (Path(__file__).parents[2] / "bot" / "web" / f"{name}.py").read_text()
    assert "GameState" not in source and "rules.game " not in source
    assert "PrivateView" not in source and "private_view" not in source


async def test_a_lone_shipment_and_movement_phase_has_its_page(
    store: Store, client: Client
) -> None:
    game_id = await store.create_game(0, start_position())
    ledger = await Ledger.open(store, game_id)
    script = random_phase(3, max_actions=40)
    for n, raw in enumerate(script):
        await ledger.submit(action_from_dict(raw), actor=1, key=f"phase-{n}")
    page = await text(client, f"/games/{game_id}")
    assert "Turn 1 of 1: Shipment &amp; Movement" in page  # a game of that one phase
    assert re.search(r" (ships|moves) \d+ forces? ", page)  # the record, in words
    last = latest(page)
    response = await client.get(f"/games/{game_id}/map/{last}.png")
    assert response.status == 200
    assert Image.open(io.BytesIO(await response.read())).size == MAP_SIZE


async def test_a_running_games_latest_page_watches_for_the_next_moment(
    store: Store, client: Client
) -> None:
    game = await play(store, limit=40)
    root = f"/games/{game.game_id}"
    page = await text(client, root)
    last = latest(page)
    assert f"data-latest='{root}/latest.json' data-action='{last}'" in page
    assert "data-latest" not in await text(client, f"{root}?action={last - 1}")  # the past
    response = await client.get(f"{root}/latest.json")
    assert await response.json() == {"action": last, "finished": False, "page": root}
    await _more(game, 10)
    assert (await (await client.get(f"{root}/latest.json")).json())["action"] > last
    await game.ledger.finish()
    assert "data-latest" not in await text(client, root)  # over: nothing more to watch
