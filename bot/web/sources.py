"""The live page's one door to the rest of the bot: the store and its log, the public
record's words, the map and the phases' pictures of their moments (scenes), the factions'
colours. Every import of
the words, record, ceremony, narrate, map, store and ledger modules the page needs is
here, so that moving those modules changes this file only.

Everything here reads public events and :class:`~rules.view.PublicView` only, except
:func:`own_lines`, which tells one faction's own side (the "open the shields" view, after
the game's end).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from bot.charts import STRONGHOLDS, Chart, cards_held, charts, strongholds_held, turn_ends
from bot.ledger import logged_action
from bot.publisher import fill_players
from bot.render import render_map
from bot.render.geometry import HEIGHT, WIDTH
from bot.render.maps import MapMaker, Marks
from bot.render.marks import last_karama_of, last_move_of, last_shipment_of
from bot.render.palette import FACTION, RGB
from bot.render.scene import Scene
from bot.store import GameRecord, History, Store, UnknownGameError
from bot.words import ceremony
from bot.words.phase_words import shield_rows
from bot.words.stamps import stamps_in_words
from bot.words.turn import WON_BY, phase_name, private_lines
from rules.events import Event
from rules.factions import Faction
from rules.view import PrivateView, PublicView

MAP_SIZE: tuple[int, int] = (WIDTH, HEIGHT)  # the map's PNG, in pixels

__all__ = [
    "MAP_SIZE",
    "STRONGHOLDS",
    "Chart",
    "Follower",
    "GameRecord",
    "History",
    "Marks",
    "Scene",
    "Store",
    "UnknownGameError",
    "cards_held",
    "charts",
    "colour",
    "logged_action",
    "map_drawing",
    "own_lines",
    "phase_words",
    "public_lines",
    "shield_rows",
    "strongholds_held",
    "turn_ends",
    "wait_line",
    "won_by_words",
]


def readable(text: str, now: datetime) -> str:
    """A public text as the page shows it: players by their faction, times in words."""
    return stamps_in_words(fill_players(text, lambda f: f.label), now)


def public_lines(events: Sequence[Event], view: PublicView, now: datetime) -> list[str]:
    """The public record's lines for one action's events (as the table read them, without
    its "Waiting for" line), the phases' and turns' lines too."""
    return [readable(line, now) for line in ceremony.lines(events, view)]


def wait_line(view: PublicView, now: datetime) -> str:
    """Whom the game waits on now, in words (empty when it waits on nobody)."""
    return readable(ceremony.describe_wait(view), now)


def phase_words(phase: str) -> str:
    """A phase of the game by its name ("Shipment and Movement")."""
    return phase_name(phase)


def won_by_words(how: str | None) -> str:
    """How a game was won, in words ("by the Fremen special victory")."""
    return WON_BY.get(how or "", "by the rules")


def own_lines(events: Sequence[Event], view: PrivateView, now: datetime) -> list[str]:
    """One faction's own side of an action's events (its cards bought, its traitors...):
    for the "open the shields" view only, after the game's end."""
    return [readable(line, now) for line in private_lines(events, view)]


def colour(faction: Faction) -> RGB:
    """The faction's colour on the map."""
    return FACTION[faction]


class Follower:
    """Follows a game's public moments in their order, as the session's maps do: this
    turn's storm path and worms, and when a phase's picture of its moment (a scene) is due."""

    def __init__(self) -> None:
        self._maps = MapMaker("action")

    def see(self, view: PublicView, events: Sequence[Event]) -> tuple[Marks, Scene[Any] | None]:
        """The marks of the map at this moment and the scene it calls a picture for."""
        marks = self._maps.turn_marks(view, events)
        return marks, self._maps.scene(view, events)


def map_drawing(view: PublicView, events: Sequence[Event], marks: Marks) -> Callable[[], bytes]:
    """A job drawing the map of a moment (PNG), picklable for a render worker."""
    storm_path, worms = marks
    return functools.partial(
        render_map,
        view,
        last_move=last_move_of(events),
        last_shipment=last_shipment_of(events),
        last_karama=last_karama_of(events),
        storm_path=storm_path,
        worms=worms,
    )
