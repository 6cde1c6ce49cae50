"""The page's charts, drawn as inline SVG: per turn, the strongholds each faction holds and
the treachery cards each holds, from public views only (a hand's size is public; spice
behind the shields is not, and is never charted). The numbers are :mod:`bot.charts`'s, which
the record's picture draws too."""

from __future__ import annotations

from html import escape

from bot.web.sources import Chart, cards_held, charts, colour, strongholds_held, turn_ends

__all__ = ["Chart", "cards_held", "charts", "strongholds_held", "svg", "turn_ends"]

WIDTH, HEIGHT = 480, 220
LEFT, RIGHT, TOP, BOTTOM = 34, 110, 14, 30  # margins: the axis, the legend, the turns


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
