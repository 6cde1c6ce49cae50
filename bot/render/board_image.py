"""The static board: terrain, territory borders, sector lines, numbers and names.

Drawn once per process from the layout (at twice the size, then reduced, for
smooth edges) and cached; every map picture starts from a copy of it.
"""

from __future__ import annotations

from functools import cache

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
    Point,
    cells,
    territory_kind,
    to_point,
)
from bot.render.names import labels, paste_labels
from rules.board import SECTOR_COUNT, board_facts

SUPERSAMPLE = 2
BORDER_PIXELS = 4.5
"""Width of a territory border at the supersampled size."""


@cache
def board_image() -> Image.Image:
    """The board without anything on it (a fresh copy is made per picture)."""
    image = terrain_image()
    draw = ImageDraw.Draw(image)
    _draw_sector_numbers(draw)
    paste_labels(image, labels())
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
