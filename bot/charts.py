"""The game's numbers per turn, as the charts show them: the strongholds each faction
holds and the treachery cards each holds, at the end of each turn, from public views only
(a hand's size is public; spice behind the shields is not, and is never charted).

One source for both drawings: the live page's inline SVG (:mod:`bot.web.charts`) and the
record's picture (:mod:`bot.render.charts`, Pillow).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rules.factions import Faction
from rules.view import PublicView

STRONGHOLDS = ("Arrakeen", "Carthag", "Sietch Tabr", "Habbanya Sietch", "Tuek's Sietch")


@dataclass(frozen=True, slots=True)
class Chart:
    """One chart: a title and, per faction, its value at the end of each turn."""

    title: str
    turns: tuple[int, ...]
    series: tuple[tuple[Faction, tuple[int, ...]], ...]


def holders(view: PublicView) -> dict[str, set[Faction]]:
    """Each stronghold's occupants with fighters (advisors neither hold nor block)."""
    found: dict[str, set[Faction]] = {place: set() for place in STRONGHOLDS}
    for stack in view.stacks:
        if stack.territory in found and stack.forces + stack.special:
            found[stack.territory].add(stack.faction)
    return found


def strongholds_held(view: PublicView) -> dict[Faction, int]:
    """How many strongholds each faction occupies with forces (advisors do not hold)."""
    held: dict[Faction, set[str]] = {f.faction: set() for f in view.factions}
    for stack in view.stacks:
        if stack.territory in STRONGHOLDS and stack.forces + stack.special:
            held.setdefault(stack.faction, set()).add(stack.territory)
    return {faction: len(places) for faction, places in held.items()}


def cards_held(view: PublicView) -> dict[Faction, int]:
    return {f.faction: f.cards_held for f in view.factions}


def turn_ends(views: Sequence[PublicView]) -> list[tuple[int, PublicView]]:
    """Each turn's end (a whole game's views, in order), turn by turn: the view of the
    action that began the next turn, as the turn's summary in words reads it (one action
    may end a turn's last phases and begin the next turn); the last turn's latest view."""
    ends: dict[int, PublicView] = {}
    closed: set[int] = set()
    for view in views:
        turn = view.game.turn
        for ended in [t for t in ends if t < turn and t not in closed]:
            ends[ended] = view
            closed.add(ended)
        if turn not in closed:
            ends[turn] = view
    return sorted(ends.items(), key=lambda item: item[0])


def chart(
    title: str,
    ends: Sequence[tuple[int, PublicView]],
    measure: Callable[[PublicView], dict[Faction, int]],
) -> Chart:
    values = [measure(view) for _, view in ends]
    factions = sorted({f for value in values for f in value})
    series = tuple((f, tuple(value.get(f, 0) for value in values)) for f in factions)
    return Chart(title, tuple(turn for turn, _ in ends), series)


def charts(views: Sequence[PublicView]) -> list[Chart]:
    """The charts of a whole game's views up to a moment (none outside a whole game)."""
    ends = turn_ends(views)
    if not ends:
        return []
    return [
        chart("Strongholds held, per turn", ends, strongholds_held),
        chart("Treachery cards held, per turn", ends, cards_held),
    ]
