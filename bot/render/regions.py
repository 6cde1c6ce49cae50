"""Which territory lies under each pixel of the board: a raster of the cells.

Used to check (and, offline, to choose) where a territory's name fits inside
its territory; see :mod:`bot.render.names` and :mod:`bot.render.label_fit`.
"""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw

from bot.render.geometry import BOARD_HEIGHT, WIDTH, cells


@cache
def territory_indexes() -> dict[str, int]:
    """A number from 1 up for every territory (0 is off the disc)."""
    names = sorted({cell.territory for cell in cells().values()})
    return {name: index + 1 for index, name in enumerate(names)}


@cache
def territory_raster() -> Image.Image:
    """An ``L`` image the board's size: each pixel holds its territory's number."""
    image = Image.new("L", (WIDTH, BOARD_HEIGHT), 0)
    draw = ImageDraw.Draw(image)
    indexes = territory_indexes()
    for cell in sorted(cells().values(), key=lambda c: c.r_inner):
        draw.polygon(cell.outline(0.5), fill=indexes[cell.territory])
    return image


def territory_mask(territory: str, box: tuple[int, int, int, int]) -> Image.Image | None:
    """255 where ``territory`` lies in ``box`` (pixels), 0 elsewhere; None off the board."""
    left, top, right, bottom = box
    if left < 0 or top < 0 or right > WIDTH or bottom > BOARD_HEIGHT:
        return None
    index = territory_indexes()[territory]
    lut = [255 if value == index else 0 for value in range(256)]
    return territory_raster().crop(box).point(lut)
