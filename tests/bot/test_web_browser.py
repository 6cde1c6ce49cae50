"""The live page in a real browser: Debian's headless Chromium driven by Playwright's
Python API (its own driver, Debian's browser: nothing downloaded). The page loads, steps
through the actions by its links and the arrow keys, the map zooms, the map and a battle's
picture render at 400 px and 1400 px wide, and the browser's console stays free of errors.
Skipped, with the reason, only where Chromium is not installed (``make chromium``)."""

from __future__ import annotations

import os
import random
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestServer

from bot.store import Store
from bot.web.server import LiveSite
from tests.bot.web_games import Played, play
from tests.rules.random_play import choose

playwright = pytest.importorskip("playwright.async_api", reason="playwright is not installed")

pytestmark = pytest.mark.timeout(300)

CHROMIUM = os.environ.get("MENTAT_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = os.environ.get("MENTAT_SCREENSHOTS")  # a folder to keep the screenshots in


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[tuple[str, Played]]:
    if shutil.which(CHROMIUM) is None:
        pytest.skip(f"Chromium is not installed at {CHROMIUM} (make chromium installs it)")
    async with await Store.open(tmp_path / "browser.db") as store:
        game = await play(store, game=3)
        server = TestServer(LiveSite.over(store).app(), host="127.0.0.1")
        await server.start_server()
        try:
            yield str(server.make_url(f"/games/{game.game_id}")), game
        finally:
            await server.close()


async def test_the_page_in_chromium_steps_zooms_and_renders_at_400_and_1400_px(
    served: tuple[str, Played], tmp_path: Path
) -> None:
    url, _ = served
    shots = Path(SHOTS) if SHOTS else tmp_path
    problems: list[str] = []
    async with playwright.async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            for width, height in ((400, 860), (1400, 1000)):
                page = await browser.new_page(viewport={"width": width, "height": height})
                page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
                page.on("pageerror", lambda e: problems.append(str(e)))
                page.on(
                    "response",
                    lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None,
                )
                await step_through(page, url, width)
                await page.screenshot(path=str(shots / f"live-page-{width}.png"))
                await page.close()
        finally:
            await browser.close()
    assert problems == []


async def step_through(page: object, url: str, width: int) -> None:
    assert isinstance(page, playwright.Page)
    await page.goto(f"{url}?action=10")
    await map_shown(page, width)
    assert await page.locator(".at").inner_text() == "Action 10 of " + last_of(
        await page.locator(".at").inner_text()
    )
    await page.click("#next")
    await page.wait_for_url("**action=11")
    await page.keyboard.press("ArrowLeft")
    await page.wait_for_url("**action=10")
    await map_shown(page, width)
    await page.click("#zoom-in")
    transform = await page.eval_on_selector("#map", "m => m.style.transform")
    assert "scale(1.5)" in transform
    await page.click("#zoom-reset")
    await page.click("#latest")
    await page.wait_for_load_state("load")
    await map_shown(page, width)
    battle = page.locator("img.battle").first  # the record's battle pictures
    await battle.scroll_into_view_if_needed()
    await page.wait_for_function(
        "() => [...document.querySelectorAll('img.battle')]"
        ".some(i => i.complete && i.naturalWidth > 0)"
    )
    assert await page.locator("svg.chart").count() == 2
    await page.locator("#map").scroll_into_view_if_needed()


def last_of(text: str) -> str:
    return text.rsplit(" ", 1)[-1]


async def map_shown(page: object, width: int) -> None:
    """The map is loaded (decoded at its full 1400 px) and fills the page's map box."""
    assert isinstance(page, playwright.Page)
    await page.wait_for_function(
        "() => { const m = document.getElementById('map'); "
        "return m.complete && m.naturalWidth > 0; }"
    )
    natural = await page.eval_on_selector("#map", "m => m.naturalWidth")
    assert natural == 1400
    box = await page.locator("#map").bounding_box()
    assert box is not None and await page.locator("#map").is_visible()
    assert (
        0.6 * width < box["width"] <= width if width < 900 else 0.45 * width < box["width"] < width
    )


async def test_a_running_games_latest_page_follows_the_game(tmp_path: Path) -> None:
    """Left open on the latest moment, the page shows each new one by itself."""
    if shutil.which(CHROMIUM) is None:
        pytest.skip(f"Chromium is not installed at {CHROMIUM} (make chromium installs it)")
    async with await Store.open(tmp_path / "live.db") as store:
        game = await play(store, game=2, limit=60, finish=False)
        site = LiveSite.over(store)
        site.watch_ms = 200
        server = TestServer(site.app(), host="127.0.0.1")
        await server.start_server()
        problems: list[str] = []
        try:
            async with playwright.async_playwright() as driver:
                browser = await driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = await browser.new_page(viewport={"width": 400, "height": 860})
                page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
                page.on("pageerror", lambda e: problems.append(str(e)))
                await page.goto(str(server.make_url(f"/games/{game.game_id}")))
                before = await page.locator(".at").inner_text()
                await more(game, 10)
                await page.wait_for_function(
                    "before => document.querySelector('.at').innerText !== before",
                    arg=before,
                    timeout=20_000,
                )
                after = await page.locator(".at").inner_text()
                assert int(last_of(after)) > int(last_of(before))
                await browser.close()
        finally:
            await server.close()
    assert problems == []


async def more(game: Played, actions: int) -> None:
    rng = random.Random(5)
    for n in range(actions):
        action = choose(game.state, rng)
        assert action is not None
        await game.ledger.submit(action, actor=1, key=f"live-{n}")
