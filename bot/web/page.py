"""The live page of one game at one moment, as HTML: the map (zoomable), the moment's
words, a phase's picture of it (its scene), the charts and the public record up to that
moment, with links to step through the moments. One builder for the server and the
static copy (``Links`` says where each link points).

Everything here reads a :class:`~bot.web.timeline.Timeline` (public moments only); "open
the shields" comes in as a section already built (:mod:`bot.web.shields`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from html import escape

from bot.web import charts
from bot.web.assets import HEAD, SCRIPT, STYLE
from bot.web.sources import MAP_SIZE, phase_words, wait_line, won_by_words
from bot.web.timeline import Moment, Timeline

BOLD = re.compile(r"\*\*(.+?)\*\*")


@dataclass(frozen=True, slots=True)
class Links:
    """Where the page's links point: the server's addresses or the static copy's files.

    ``map`` gives the picture's address and the moment it shows (a static copy draws
    fewer maps: a moment without one shows the last drawn before it); ``scene`` the
    address of a moment's scene, by its number and its words' name; ``shields`` the
    address of the moment with the shields open (None: not offered)."""

    moment: Callable[[int], str]
    map: Callable[[int], tuple[str, int]]
    scene: Callable[[int, str], str]
    shields: Callable[[int], str] | None = None
    shields_closed: Callable[[int], str] | None = None  # back from the open shields
    latest: str | None = None  # where the latest moment's number is read (a live game)
    watch_ms: int = 15_000  # how often a running game's latest moment reads it


def words(line: str) -> str:
    """A line of the record as HTML: escaped, Discord's **bold** kept."""
    return BOLD.sub(r"<strong>\1</strong>", escape(line))


def heading(moment: Moment) -> str:
    """Where the game stands at the moment: its turn and phase, or its winner."""
    game = moment.view.game
    if game.winner:
        winners = " and ".join(f.label for f in game.winner)
        verb = "wins" if len(game.winner) == 1 else "win"
        how = escape(won_by_words(game.won_by))
        return f"Turn {game.turn}: {escape(winners)} {verb} the game {how}"
    return f"Turn {game.turn} of {game.last_turn}: {escape(phase_words(game.phase))}"


def page(
    timeline: Timeline,
    number: int,
    links: Links,
    *,
    now: datetime,
    sections: Sequence[str] = (),
) -> str:
    """The whole page of moment ``number`` (0 <= number < len(timeline.moments))."""
    moments = timeline.moments
    moment = moments[number]
    last = len(moments) - 1
    title = f"Mentat: game {timeline.game_id}"
    state = "over" if timeline.finished else "live"
    return "".join(
        [
            f"<!doctype html>\n<html lang='en'><head>{HEAD}",
            f"<title>{escape(title)}, action {number}</title>",
            f"<style>{STYLE}</style></head><body{_watch(timeline, number, links)}>",
            f"<header><h1>{escape(title)} <span class='state {state}'>{state}</span></h1>",
            f"<p class='where'>{heading(moment)}</p>",
            _steps(number, last, links),
            "</header><main>",
            _map(number, links),
            "<section class='side'>",
            _now(moment, now),
            _scene(moment, links),
            *sections,
            _charts(moments[: number + 1]),
            "</section>",
            _record(moments[: number + 1], links),
            "</main>",
            f"<script>{SCRIPT}</script></body></html>\n",
        ]
    )


def _watch(timeline: Timeline, number: int, links: Links) -> str:
    """The latest moment of a running game watches for the next (the script reloads it)."""
    if timeline.finished or links.latest is None or number != len(timeline.moments) - 1:
        return ""
    latest = escape(links.latest)
    return f" data-latest='{latest}' data-action='{number}' data-every='{links.watch_ms}'"


def _steps(number: int, last: int, links: Links) -> str:
    """The links to step through the moments: first, back, forward, latest."""

    def step(to: int, label: str, rel: str, name: str) -> str:
        if to == number or not 0 <= to <= last:
            return f"<span class='step off' aria-disabled='true'>{label}</span>"
        return (
            f"<a class='step' rel='{rel}' id='{name}' href='{escape(links.moment(to))}'>{label}</a>"
        )

    shields = ""
    if links.shields is not None:
        shields = f"<a class='shields' href='{escape(links.shields(number))}'>Open the shields</a>"
    elif links.shields_closed is not None:
        back = escape(links.shields_closed(number))
        shields = f"<a class='shields' href='{back}'>Close the shields</a>"
    return (
        "<nav class='steps'>"
        + step(0, "&#x00AB; Start", "first", "first")
        + step(number - 1, "&#x25C0; Back", "prev", "prev")
        + f"<span class='at'>Action {number} of {last}</span>"
        + step(number + 1, "Next &#x25B6;", "next", "next")
        + step(last, "Latest &#x00BB;", "last", "latest")
        + shields
        + "</nav>"
    )


def _map(number: int, links: Links) -> str:
    src, shown = links.map(number)
    width, height = MAP_SIZE
    caption = f"The map after action {shown}" + ("" if shown == number else " (the last drawn)")
    return (
        "<figure class='map'><div class='zoom' id='zoom' tabindex='0' "
        "aria-label='The map: drag to move, wheel, pinch or the buttons to zoom'>"
        f"<img id='map' src='{escape(src)}' width='{width}' height='{height}' "
        f"alt='{escape(caption)}' draggable='false'></div>"
        "<div class='zoom-buttons'><button type='button' id='zoom-in'>+</button>"
        "<button type='button' id='zoom-out'>&#x2212;</button>"
        "<button type='button' id='zoom-reset'>Whole map</button>"
        f"<a href='{escape(src)}'>Full size</a></div>"
        f"<figcaption>{escape(caption)}</figcaption></figure>"
    )


def _now(moment: Moment, now: datetime) -> str:
    told = "".join(f"<li>{words(line)}</li>" for line in moment.lines)
    if not told:
        told = "<li>The game begins.</li>" if moment.number == 0 else "<li>(nothing to tell)</li>"
    wait = wait_line(moment.view, now)
    waits = f"<p class='wait'>{words(wait)}</p>" if wait else ""
    return f"<section class='now'><h2>Action {moment.number}</h2><ul>{told}</ul>{waits}</section>"


def _scene(moment: Moment, links: Links) -> str:
    if moment.scene is None:
        return ""
    about = moment.scene.words
    src, alt = escape(links.scene(moment.number, about.name)), escape(about.alt)
    return (
        f"<figure class='{about.name}'><img src='{src}' alt='{alt}' width='800'>"
        f"<figcaption>{alt}</figcaption></figure>"
    )


def _charts(moments: Sequence[Moment]) -> str:
    drawn = charts.charts([m.view for m in moments])
    if not drawn:
        return ""
    drawings = "".join(f"<h3>{escape(c.title)}</h3>{charts.svg(c)}" for c in drawn)
    return f"<section class='charts'><h2>Turn by turn</h2>{drawings}</section>"


def _record(moments: Sequence[Moment], links: Links) -> str:
    """The public record up to the moment shown, each action linked to its own page."""
    items = []
    for moment in moments:
        lines = moment.lines or (("The game begins.",) if moment.number == 0 else ())
        if not lines and moment.scene is None:
            continue
        told = "<br>".join(words(line) for line in lines)
        picture = ""
        if moment.scene is not None:
            about = moment.scene.words
            src = escape(links.scene(moment.number, about.name))
            picture = (
                f"<img class='{about.name}' loading='lazy' src='{src}' "
                f"alt='{escape(about.title)}' width='800'>"
            )
        current = " class='current'" if moment is moments[-1] else ""
        href = escape(links.moment(moment.number))
        items.append(
            f"<li id='a{moment.number}'{current}><a class='n' href='{href}'>"
            f"{moment.number}</a> <span>{told}</span>{picture}</li>"
        )
    return (
        "<section class='record'><h2>The record</h2><ol id='record'>"
        + "".join(items)
        + "</ol></section>"
    )
