"""The page's charts, drawn as inline SVG: per turn, the strongholds each faction holds and
the treachery cards each holds, from public views only (a hand's size is public; spice
behind the shields is not, and is never charted)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

from bot.web.sources import STRONGHOLDS, colour
from rules.factions import Faction
from rules.view import PublicView

WIDTH, HEIGHT = 480, 220
LEFT, RIGHT, TOP, BOTTOM = 34, 110, 14, 30  # margins: the axis, the legend, the turns


@dataclass(frozen=True, slots=True)
class Chart:
    """One chart: a title and, per faction, its value at the end of each turn."""

    title: str
    turns: tuple[int, ...]
    series: tuple[tuple[Faction, tuple[int, ...]], ...]


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
    """Each turn's last view (a whole game's views, in order), turn by turn."""
    last: dict[int, PublicView] = {}
    for view in views:
        last[view.game.turn] = view
    return sorted(last.items(), key=lambda item: item[0])


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
    """The page's charts up to the moment shown (none before any)."""
    ends = turn_ends(views)
    if not ends:
        return []
    return [
        chart("Strongholds held, per turn", ends, strongholds_held),
        chart("Treachery cards held, per turn", ends, cards_held),
    ]


def svg(data: Chart) -> str:
    """The chart as an inline SVG element: a line per faction, a legend, the turns."""
    top = max([1, *(v for _, values in data.series for v in values)])
    span = max(1, len(data.turns) - 1)
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + inner_w * (i / span if len(data.turns) > 1 else 0.5)

    def y(v: int) -> float:
        return TOP + inner_h * (1 - v / top)

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(data.title)}">',
        f"<title>{escape(data.title)}</title>",
        f'<line x1="{LEFT}" y1="{TOP + inner_h}" x2="{LEFT + inner_w}" y2="{TOP + inner_h}" '
        'class="axis"/>',
    ]
    for v in sorted({0, top // 2, top}):
        parts.append(
            f'<text x="{LEFT - 6}" y="{y(v) + 4:.1f}" class="tick" text-anchor="end">{v}</text>'
        )
        parts.append(
            f'<line x1="{LEFT}" y1="{y(v):.1f}" x2="{LEFT + inner_w}" y2="{y(v):.1f}" '
            'class="grid"/>'
        )
    for i, turn in enumerate(data.turns):
        parts.append(
            f'<text x="{x(i):.1f}" y="{HEIGHT - 10}" class="tick" '
            f'text-anchor="middle">{turn}</text>'
        )
    for rank, (faction, values) in enumerate(data.series):
        stroke = "#{:02x}{:02x}{:02x}".format(*colour(faction))
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
        nudge = (rank - len(data.series) / 2) * 1.2  # equal lines stay apart
        parts.append(
            f'<polyline points="{points}" fill="none" stroke="{stroke}" stroke-width="2.5" '
            f'transform="translate(0 {nudge:.1f})"><title>{escape(faction.label)}: '
            f"{', '.join(map(str, values))}</title></polyline>"
        )
        parts += [
            f'<circle cx="{x(i):.1f}" cy="{y(v) + nudge:.1f}" r="3" fill="{stroke}"/>'
            for i, v in enumerate(values)
        ]
        ly = TOP + 14 * rank + 6
        parts.append(
            f'<rect x="{WIDTH - RIGHT + 10}" y="{ly - 8}" width="10" height="10" fill="{stroke}"/>'
            f'<text x="{WIDTH - RIGHT + 24}" y="{ly + 1}" class="legend">'
            f"{escape(faction.label)}</text>"
        )
    parts.append(f'<text x="{LEFT}" y="{HEIGHT - 0}" class="tick">turn</text>')
    parts.append("</svg>")
    return "".join(parts)
