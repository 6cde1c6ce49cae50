"""The static board: terrain, territory borders, sector lines, numbers and names.

Drawn once per process from the layout (at twice the size, then reduced, for
smooth edges) and cached; every map picture starts from a copy of it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from PIL import Image, ImageDraw

from bot.render import palette
from bot.render.borders import band, territory_borders
from bot.render.fonts import font
from bot.render.geometry import (
    BOARD_HEIGHT,
    CENTRE,
    DISC_RADIUS,
    HEIGHT,
    RIM_RADIUS,
    RING_WIDTH,
    WIDTH,
    Box,
    Point,
    cells,
    territory_kind,
    territory_label_points,
    to_point,
)
from rules.board import SECTOR_COUNT, board_facts

SUPERSAMPLE = 2
BORDER_PIXELS = 4.5
"""Width of a territory border at the supersampled size."""
LABEL_SIZE = 17


@dataclass(frozen=True, slots=True)
class Label:
    """A territory name as drawn: its lines, centre, size and the box it covers."""

    territory: str
    lines: tuple[str, ...]
    centre: Point
    size: int
    box: Box


@cache
def board_image() -> Image.Image:
    """The board without anything on it (a fresh copy is made per picture)."""
    image = terrain_image()
    draw = ImageDraw.Draw(image)
    _draw_sector_numbers(draw)
    for label in labels():
        _draw_label(draw, label)
    return image


def terrain_image() -> Image.Image:
    """The disc and its ring without numbers or names: terrain, sector lines and borders.

    Drawn at ``SUPERSAMPLE`` times the size and reduced, for smooth edges; the
    borders come from :func:`bot.render.borders.territory_borders`.
    """
    size = (WIDTH * SUPERSAMPLE, BOARD_HEIGHT * SUPERSAMPLE)
    big = Image.new("RGB", size, palette.BACKGROUND)
    draw = ImageDraw.Draw(big)
    cx, cy = (c * SUPERSAMPLE for c in CENTRE)
    rim = RIM_RADIUS * SUPERSAMPLE
    draw.ellipse((cx - rim, cy - rim, cx + rim, cy + rim), fill=palette.RING)
    for cell in cells().values():
        colour = palette.TERRAIN[territory_kind(cell.territory)]
        draw.polygon(_scaled(cell.outline()), fill=colour, outline=colour)
    _draw_sector_lines(draw)
    _draw_borders(draw)
    board = big.reduce(SUPERSAMPLE)
    image = Image.new("RGB", (WIDTH, HEIGHT), palette.PANEL)
    image.paste(board, (0, 0))
    return image


def _scaled(points: list[Point]) -> list[Point]:
    return [(x * SUPERSAMPLE, y * SUPERSAMPLE) for x, y in points]


def _draw_sector_lines(draw: ImageDraw.ImageDraw) -> None:
    sink = _polar_sink_radius()
    for sector in range(SECTOR_COUNT):
        angle = sector * 20.0
        start = to_point(sink, angle, SUPERSAMPLE)
        end = to_point(1.0 + RING_WIDTH / DISC_RADIUS, angle, SUPERSAMPLE)
        draw.line((start, end), fill=palette.SECTOR_LINE, width=SUPERSAMPLE)


def _draw_borders(draw: ImageDraw.ImageDraw) -> None:
    """Every territory border, ``BORDER_PIXELS`` wide and centred on the cells' common edge."""
    for border in territory_borders():
        for polygon in band(border, BORDER_PIXELS, SUPERSAMPLE):
            draw.polygon(polygon, fill=palette.TERRITORY_BORDER)


def _polar_sink_radius() -> float:
    layout = board_facts()["layout"]
    assert isinstance(layout, dict)
    return float(layout["polar_sink_radius"])


def _draw_sector_numbers(draw: ImageDraw.ImageDraw) -> None:
    ring_middle = 1.0 + RING_WIDTH / 2 / DISC_RADIUS
    for printed in range(1, SECTOR_COUNT + 1):
        middle = (printed % SECTOR_COUNT) * 20.0 + 10.0
        draw.text(
            to_point(ring_middle, middle),
            str(printed),
            font=font("bold", 24),
            fill=palette.RING_TEXT,
            anchor="mm",
        )


# -- territory names -----------------------------------------------------------


@cache
def labels() -> tuple[Label, ...]:
    """Every territory name with the box it covers (tokens keep clear of it when they can)."""
    overrides = _label_overrides()
    points = territory_label_points()
    return tuple(_label(name, points[name], overrides.get(name, {})) for name in sorted(points))


def _label(name: str, point: Point, override: dict[str, object]) -> Label:
    raw_lines = override.get("lines")
    lines = tuple(str(x) for x in raw_lines) if isinstance(raw_lines, list) else _wrap(name)
    at = override.get("at")
    if isinstance(at, list):
        point = to_point(float(at[0]), float(at[1]))
    size = int(str(override.get("size", LABEL_SIZE)))
    box = _text_box(lines, point, size)
    return Label(name, lines, point, size, box)


def _wrap(name: str) -> tuple[str, ...]:
    if len(name) <= 10 or " " not in name:
        return (name,)
    middle = len(name) / 2
    cut = min((i for i, ch in enumerate(name) if ch == " "), key=lambda i: abs(i - middle))
    return (name[:cut], name[cut + 1 :])


def _text_box(lines: tuple[str, ...], centre: Point, size: int) -> Box:
    draw = ImageDraw.Draw(Image.new("L", (1, 1)))
    box = draw.multiline_textbbox(
        centre,
        "\n".join(lines),
        font=font("condensed", size),
        anchor="mm",
        align="center",
        spacing=0,
        stroke_width=2,
    )
    return (float(box[0]), float(box[1]), float(box[2]), float(box[3]))


def _draw_label(draw: ImageDraw.ImageDraw, label: Label) -> None:
    kind = territory_kind(label.territory)
    draw.multiline_text(
        label.centre,
        "\n".join(label.lines),
        font=font("condensed", label.size),
        fill=palette.LABEL_TEXT[kind],
        anchor="mm",
        align="center",
        spacing=0,
        stroke_width=2,
        stroke_fill=palette.LABEL_HALO[kind],
    )


def _label_overrides() -> dict[str, dict[str, object]]:
    text = resources.files("bot.render").joinpath("labels.json").read_text(encoding="utf-8")
    data = json.loads(text)
    assert isinstance(data, dict)
    overrides = data["territories"]
    assert isinstance(overrides, dict)
    return overrides
