"""Marks of the whole turn: the storm's path this turn and the territories the worm struck.

Both are read from public events (:mod:`bot.render.marks`) and drawn under the tokens
and names: the path as a lighter hatching of the rim ring over the sectors the storm
moved through, with an arrow along the ring's outer edge to the storm; a worm's
territory as a thick band inside its border.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from bot.render.fonts import font
from bot.render.geometry import (
    DISC_RADIUS,
    RIM_RADIUS,
    SECTOR_DEGREES,
    Point,
    cells,
    sector_angles,
    to_point,
)
from bot.render.overlays import RING_MIDDLE, RING_OUTER, Mask, paint, polygon_mask, with_stripes
from bot.render.palette import RGB, RING_TEXT
from rules.board import SECTOR_COUNT

PATH_COLOUR: RGB = (70, 80, 120)
PATH_ALPHA = 95
ARROW: RGB = (255, 120, 90)
"""The storm's number colour: the arrow reads as the storm's."""
ARROW_RADIUS = (RIM_RADIUS - 7) / DISC_RADIUS
"""Along the ring's outer edge: clear of the sector numbers and the seats' circles."""
WORM: RGB = (214, 40, 150)
WORM_BAND = 9
"""Pixels of the worm's band inside the territory's border."""


@dataclass(frozen=True, slots=True)
class StormPath:
    """The storm's move this turn: from ``start`` (a printed sector) ``sectors`` on."""

    start: int
    end: int
    sectors: int

    @property
    def passed(self) -> tuple[int, ...]:
        """The sectors the storm left or crossed (its start and those before its end)."""
        count = min(self.sectors, SECTOR_COUNT - 1)
        return tuple((self.start - 1 + i) % SECTOR_COUNT + 1 for i in range(count))

    @property
    def text(self) -> str:
        if self.sectors == 0:
            return "did not move"
        plural = "s" if self.sectors != 1 else ""
        return f"moved {self.sectors} sector{plural} from {self.start}"


@dataclass(frozen=True, slots=True)
class WormSign:
    """Shai-Hulud struck ``territory``: what it took there (forces of every kind, spice)."""

    territory: str
    forces: int
    spice: int

    @property
    def text(self) -> str:
        taken = []
        if self.forces:
            taken.append(f"{self.forces} force{'s' if self.forces != 1 else ''}")
        if self.spice:
            taken.append(f"{self.spice} spice")
        return f"{self.territory}: {', '.join(taken) or 'nothing taken'}"


def worms_text(worms: tuple[WormSign, ...]) -> str | None:
    """The panel's line for this turn's worms, e.g. ``Shai-Hulud: Funeral Plain: 6 forces,
    8 spice``; None when no worm struck."""
    if not worms:
        return None
    return "Shai-Hulud: " + "; ".join(w.text for w in worms)


# -- the storm's path ----------------------------------------------------------------------


def draw_storm_path(image: Image.Image, path: StormPath) -> None:
    """Hatch the ring over the sectors passed (their numbers stay clear); drawn before the
    storm, whose sector it leaves alone. :func:`draw_storm_arrow` comes after the storm."""
    draw = ImageDraw.Draw(image)
    for sector in path.passed:
        if sector != path.end:
            paint(image, PATH_COLOUR, _ring_mask(sector))
            start, end = sector_angles(sector)
            draw.text(
                to_point(RING_MIDDLE, (start + end) / 2),
                str(sector),
                font=font("bold", 24),
                fill=RING_TEXT,
                anchor="mm",
            )


def draw_storm_arrow(image: Image.Image, path: StormPath) -> None:
    """The arrow along the ring's outer edge, from the start to the storm's sector."""
    if path.sectors:
        _draw_arrow(image, path)


@cache
def _ring_mask(sector: int) -> Mask:
    start, end = sector_angles(sector)
    steps = 12
    angles = [start + (end - start) * i / steps for i in range(steps + 1)]
    outline = [to_point(RING_OUTER, a) for a in angles]
    outline += [to_point(1.0, a) for a in reversed(angles)]
    mask = polygon_mask(outline, fill=PATH_ALPHA)
    return Mask(mask.offset, with_stripes(mask.alpha))


def arrow_points(path: StormPath) -> list[Point]:
    """The arrow's line, from the middle of the start sector to the storm's sector
    (a move once around the board or more is drawn as almost a whole circle)."""
    end_start, end_stop = sector_angles(path.end)
    tip = (end_start + end_stop) / 2
    span = min(path.sectors * SECTOR_DEGREES, 350.0)
    steps = max(2, math.ceil(span / 3))
    return [to_point(ARROW_RADIUS, tip - span + span * i / steps) for i in range(steps + 1)]


def _draw_arrow(image: Image.Image, path: StormPath) -> None:
    points = arrow_points(path)
    draw = ImageDraw.Draw(image)
    draw.line(points, fill=(0, 0, 0), width=8, joint="curve")
    draw.line(points, fill=ARROW, width=4, joint="curve")
    draw.polygon(_head(points[-2], points[-1]), fill=ARROW, outline=(0, 0, 0), width=2)


def _head(before: Point, tip: Point, length: float = 20.0) -> list[Point]:
    angle = math.atan2(tip[1] - before[1], tip[0] - before[0])
    wing = math.radians(150)
    return [
        (tip[0] + 6 * math.cos(angle), tip[1] + 6 * math.sin(angle)),
        (tip[0] + length * math.cos(angle + wing), tip[1] + length * math.sin(angle + wing)),
        (tip[0] + length * math.cos(angle - wing), tip[1] + length * math.sin(angle - wing)),
    ]


# -- the worm -----------------------------------------------------------------------------


def draw_worm(image: Image.Image, worm: WormSign) -> None:
    """A thick band just inside the border of the territory the worm struck."""
    mask = worm_mask(worm.territory)
    if mask is not None:
        paint(image, (255, 255, 255), mask[0])
        paint(image, WORM, mask[1])


@cache
def worm_mask(territory: str) -> tuple[Mask, Mask] | None:
    """The band (outer, with a white edge; inner, in the worm's colour) of ``territory``."""
    outlines = [cell.outline() for cell in cells().values() if cell.territory == territory]
    if not outlines:
        return None
    left = math.floor(min(p[0] for o in outlines for p in o)) - 2
    top = math.floor(min(p[1] for o in outlines for p in o)) - 2
    right = math.ceil(max(p[0] for o in outlines for p in o)) + 2
    bottom = math.ceil(max(p[1] for o in outlines for p in o)) + 2
    whole = Image.new("L", (right - left, bottom - top), 0)
    draw = ImageDraw.Draw(whole)
    for outline in outlines:
        draw.polygon([(x - left, y - top) for x, y in outline], fill=255)
    outer = ImageChops.subtract(whole, whole.filter(ImageFilter.MinFilter(2 * WORM_BAND + 1)))
    inner = ImageChops.subtract(
        whole.filter(ImageFilter.MinFilter(3)),
        whole.filter(ImageFilter.MinFilter(2 * WORM_BAND - 3)),
    )
    return Mask((left, top), outer), Mask((left, top), inner)
