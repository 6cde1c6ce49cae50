"""The live page's web server (aiohttp): one page per game, any moment of it.

- ``/games/{id}``: the game now; ``?action=N``: after its N-th public action (0: the
  start); ``&shields=open``: the shields opened, once the game is over;
- ``/games/{id}/map/{N}.png`` and ``/games/{id}/{scene}/{N}.png``: the moment's pictures
  (its map; a phase's picture of it, named by its words: ``/games/{id}/battle/{N}.png``);
- ``/games/{id}/moment/{N}.json``: the moment as data (its public events, words and view);
  ``/games/{id}/latest.json``: the latest moment's number, which a running game's latest
  page watches to reload itself.

An unknown game or moment is a 404 page, a malformed number a 400 one, open shields of a
running game a 403 one: words, never a traceback. Built from public moments only
(:mod:`bot.web.timeline`); the server listens where ``WEB_PORT`` says
(:func:`start`), off when it is unset.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from html import escape

from aiohttp import web

from bot.web import page, shields
from bot.web.assets import HEAD, STYLE
from bot.web.pictures import Pictures
from bot.web.sources import Store, UnknownGameError, map_drawing
from bot.web.timeline import GameNotOverError, Moment, Timeline, Timelines
from rules.errors import MentatError

log = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class PageError(MentatError):
    """A request the page cannot answer: its HTTP status and the words that say why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def game_path(game_id: int) -> str:
    """The page's address on the server, from its root (the base URL comes before)."""
    return f"/games/{game_id}"


def server_links(
    game_id: int, *, finished: bool, opened: bool, watch_ms: int = 15_000
) -> page.Links:
    root = game_path(game_id)
    return page.Links(
        moment=lambda n: f"{root}?action={n}" + ("&shields=open" if opened else ""),
        map=lambda n: (f"{root}/map/{n}.png", n),
        scene=lambda n, name: f"{root}/{name}/{n}.png",
        shields=(lambda n: f"{root}?action={n}&shields=open") if finished and not opened else None,
        shields_closed=(lambda n: f"{root}?action={n}") if opened else None,
        latest=None if opened else f"{root}/latest.json",
        watch_ms=watch_ms,
    )


@dataclass
class LiveSite:
    """The pages of the games in ``store``; maps drawn in ``executor`` (the bot's render
    workers) or in threads."""

    timelines: Timelines
    pictures: Pictures
    watch_ms: int = 15_000  # how often a running game's latest page looks for a newer

    @classmethod
    def over(cls, store: Store, executor: Executor | None = None) -> LiveSite:
        return cls(Timelines(store), Pictures(executor))

    def app(self) -> web.Application:
        app = web.Application(middlewares=[_errors])
        app.add_routes(
            [
                web.get("/", self.home),
                web.get("/games/{game}", self.game_page),
                web.get("/games/{game}/map/{number}.png", self.map_png),
                web.get("/games/{game}/{scene:[a-z]+}/{number}.png", self.scene_png),
                web.get("/games/{game}/moment/{number}.json", self.moment_json),
                web.get("/games/{game}/latest.json", self.latest_json),
            ]
        )
        return app

    async def home(self, request: web.Request) -> web.Response:
        return _html(
            200, "Mentat", "<p>Each game has its page: its link is pinned at its table.</p>"
        )

    async def game_page(self, request: web.Request) -> web.Response:
        timeline = await self._timeline(request)
        number = _number(request.query.get("action"), timeline, default=len(timeline.moments) - 1)
        opened = _shields_asked(request)
        sections: list[str] = []
        if opened:
            try:
                found = await self.timelines.shields(timeline.game_id)
            except GameNotOverError as error:
                raise PageError(
                    403, f"The shields stay closed until the game is over ({error})."
                ) from error
            sections.append(shields.section(found[number], number))
        links = server_links(
            timeline.game_id, finished=timeline.finished, opened=opened, watch_ms=self.watch_ms
        )
        text = page.page(timeline, number, links, now=self.timelines.now(), sections=sections)
        return web.Response(
            text=text, content_type="text/html", headers=NO_STORE if opened else FRESH
        )

    async def map_png(self, request: web.Request) -> web.Response:
        timeline = await self._timeline(request)
        moment = _moment(request, timeline)
        key = ("map", timeline.game_id, timeline.generation, moment.number)
        png = await self.pictures.get(key, map_drawing(moment.view, moment.events, moment.marks))
        return _png(request, png, key)

    async def moment_json(self, request: web.Request) -> web.Response:
        """A moment as data, for tools: its public events, words and view."""
        timeline = await self._timeline(request)
        moment = _moment(request, timeline)
        data = {
            "game": timeline.game_id,
            "action": moment.number,
            "of": len(timeline.moments) - 1,
            "finished": timeline.finished,
            "lines": list(moment.lines),
            "events": [event.to_dict() for event in moment.events],
            "view": moment.view.to_dict(),
        }
        return web.json_response(data, headers=FRESH)

    async def latest_json(self, request: web.Request) -> web.Response:
        """The game's latest moment's number (a running game's page watches it)."""
        timeline = await self._timeline(request)
        data = {
            "action": len(timeline.moments) - 1,
            "finished": timeline.finished,
            "page": game_path(timeline.game_id),
        }
        return web.json_response(data, headers=NO_STORE)

    async def scene_png(self, request: web.Request) -> web.Response:
        timeline = await self._timeline(request)
        moment = _moment(request, timeline)
        name = request.match_info["scene"]
        if moment.scene is None or moment.scene.words.name != name:
            raise PageError(404, f"Action {moment.number} has no {name} picture.")
        key = (name, timeline.game_id, timeline.generation, moment.number)
        png = await self.pictures.get(key, moment.scene.job())
        return _png(request, png, key)

    async def _timeline(self, request: web.Request) -> Timeline:
        raw = request.match_info["game"]
        if not DIGITS.fullmatch(raw) or len(raw) > 18:
            raise PageError(404, f"There is no game {raw!r}: a game is named by its number.")
        try:
            return await self.timelines.get(int(raw))
        except UnknownGameError as error:
            raise PageError(404, f"There is no game {raw}.") from error


DIGITS = re.compile(r"[0-9]+")  # ASCII digits only ("²" is a digit to str.isdigit)
FRESH = {"Cache-Control": "no-cache"}  # a live game's latest moment changes
NO_STORE = {"Cache-Control": "no-store"}


def _number(raw: str | None, timeline: Timeline, *, default: int) -> int:
    """The moment asked for: a whole number within the game's, else a PageError."""
    if raw is None:
        return default
    text = raw.strip()
    if not DIGITS.fullmatch(text) or len(text) > 9:
        raise PageError(400, f"action={raw!r}: an action is a whole number, 0 for the start.")
    number = int(text)
    last = len(timeline.moments) - 1
    if number > last:
        raise PageError(404, f"There is no action {number} yet: this game is at action {last}.")
    return number


def _moment(request: web.Request, timeline: Timeline) -> Moment:
    number = _number(request.match_info["number"], timeline, default=0)
    return timeline.moments[number]


def _shields_asked(request: web.Request) -> bool:
    raw = request.query.get("shields")
    if raw is None or raw == "closed":
        return False
    if raw != "open":
        raise PageError(400, f"shields={raw!r}: the shields are 'open' or 'closed'.")
    return True


def _png(request: web.Request, png: bytes, key: tuple[object, ...]) -> web.Response:
    tag = '"' + "-".join(map(str, key)) + '"'
    headers = {"ETag": tag, "Cache-Control": "no-cache"}
    if request.headers.get("If-None-Match") == tag:
        return web.Response(status=304, headers=headers)
    return web.Response(body=png, content_type="image/png", headers=headers)


def _html(status: int, title: str, body: str) -> web.Response:
    text = (
        f"<!doctype html>\n<html lang='en'><head>{HEAD}"
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>"
        f"<header><h1>{escape(title)}</h1></header><main><section>{body}</section></main>"
        "</body></html>\n"
    )
    return web.Response(status=status, text=text, content_type="text/html")


@web.middleware
async def _errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    """A refused request answered in words; anything else logged and answered 500."""
    try:
        return await handler(request)
    except PageError as error:
        return _html(
            error.status, _TITLES.get(error.status, "Error"), f"<p>{escape(str(error))}</p>"
        )
    except web.HTTPException as error:
        if error.status < 400:
            raise
        return _html(
            error.status, _TITLES.get(error.status, "Error"), f"<p>{escape(error.reason)}</p>"
        )
    except Exception:
        log.exception("live page %s failed", request.path_qs)
        return _html(500, "Error", "<p>This page could not be made; the bot's log says why.</p>")


_TITLES = {400: "Bad request", 403: "Not yet", 404: "Not found"}


async def start(site: LiveSite, port: int, host: str = "0.0.0.0") -> web.AppRunner:
    """Serve ``site`` on ``host:port``; the runner's ``cleanup()`` stops it."""
    runner = web.AppRunner(site.app(), access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    log.info("live pages served on port %d", port)
    return runner
