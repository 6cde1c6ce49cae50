"""The record's charts as a picture (Pillow): per turn, a line per faction, one panel per
chart (:class:`bot.charts.Chart`, read from public views only), stacked in one PNG that
a phone shows whole."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.charts import Chart
from bot.render import palette
from bot.render.fonts import font
from bot.render.png import encode_png

WIDTH = 800
PANEL_HEIGHT = 330
LEFT, RIGHT, TOP, BOTTOM = 52, 220, 60, 50  # a panel's margins: axis, legend, title, turns
TITLE_SIZE, TEXT_SIZE = 26, 20
PAPER = (250, 244, 232)  # light, so that every faction's colour (the Harkonnen's black) shows
INK = (40, 32, 26)
MUTED = (120, 106, 92)
GRID = (222, 210, 190)
LINE_WIDTH = 5
DOT = 6


def render_charts(charts: Sequence[Chart]) -> bytes:
    """The charts, one panel each, top to bottom (ValueError for none)."""
    if not charts:
        raise ValueError("no chart to draw")
    image = Image.new("RGB", (WIDTH, PANEL_HEIGHT * len(charts)), PAPER)
    draw = ImageDraw.Draw(image)
    for i, data in enumerate(charts):
        _panel(draw, data, PANEL_HEIGHT * i)
    return encode_png(image)


def _panel(draw: ImageDraw.ImageDraw, data: Chart, top_y: int) -> None:
    title, text = font("bold", TITLE_SIZE), font("regular", TEXT_SIZE)
    draw.text((LEFT, top_y + 14), data.title, font=title, fill=INK)
    inner_w = WIDTH - LEFT - RIGHT
    inner_h = PANEL_HEIGHT - TOP - BOTTOM
    top = max([1, *(v for _, values in data.series for v in values)])
    span = max(1, len(data.turns) - 1)

    def x(i: int) -> float:
        return LEFT + inner_w * (i / span if len(data.turns) > 1 else 0.5)

    def y(v: float) -> float:
        return top_y + TOP + inner_h * (1 - v / top)

    for v in sorted({0, top // 2, top}):
        draw.line([(LEFT, y(v)), (LEFT + inner_w, y(v))], fill=GRID, width=1)
        draw.text((LEFT - 10, y(v)), str(v), font=text, fill=MUTED, anchor="rm")
    base = top_y + TOP + inner_h
    for i, turn in enumerate(data.turns):
        draw.text((x(i), base + 10), str(turn), font=text, fill=MUTED, anchor="mt")
    draw.text((LEFT - 10, base + 10), "turn", font=text, fill=MUTED, anchor="rt")
    for rank, (faction, values) in enumerate(data.series):
        ink = palette.FACTION[faction]
        nudge = (rank - len(data.series) / 2) * 2  # equal lines stay apart
        points = [(x(i), y(v) + nudge) for i, v in enumerate(values)]
        if len(points) > 1:
            draw.line(points, fill=ink, width=LINE_WIDTH, joint="curve")
        for px, py in points:
            draw.ellipse([px - DOT, py - DOT, px + DOT, py + DOT], fill=ink)
        ly = top_y + TOP + 30 * rank
        lx = WIDTH - RIGHT + 24
        draw.rectangle([lx, ly, lx + 18, ly + 18], fill=ink)
        label = f"{faction.label} {values[-1]}" if values else faction.label
        draw.text((lx + 26, ly + 9), label, font=text, fill=INK, anchor="lm")
