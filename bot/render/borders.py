"""Territory borders, worked out from the cells' geometry (no picture involved).

The cells are annular sectors that tile the disc, so every border is a piece
of a circle (an :class:`Arc`) or of a line through the centre (a
:class:`Radial`). Each cell edge is cut at every point where another cell's
edge meets it; a cut piece is a border when the territories on its two sides
differ, or when one side is off the disc. Sector lines inside one territory
are not borders (the sector lines are drawn on their own).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from itertools import pairwise

from bot.render.geometry import DISC_RADIUS, Cell, Point, cells, to_point

NUDGE = 1e-6
"""Layout units (radius) or degrees to step off an edge when asking what lies beside it."""


@dataclass(frozen=True, slots=True)
class Arc:
    """A border along the circle of layout radius ``radius``, between two layout angles."""

    radius: float
    angle_min: float
    angle_max: float


@dataclass(frozen=True, slots=True)
class Radial:
    """A border along the line at layout angle ``angle``, between two layout radii."""

    angle: float
    r_inner: float
    r_outer: float


Border = Arc | Radial


@cache
def territory_borders() -> tuple[Border, ...]:
    """Every territory border of the board, joined into the longest runs, in a fixed order."""
    return (*_arc_borders(), *_radial_borders())


def band(border: Border, width: float, scale: float = 1.0) -> list[list[Point]]:
    """The border as polygons ``width`` pixels wide (at ``scale``), centred on it.

    Both ends run on half a width, so borders meeting at a corner or a T leave
    no notch. A whole circle comes as two overlapping halves.
    """
    half = width / 2 / (DISC_RADIUS * scale)  # in layout units (1.0 = the disc's radius)
    if isinstance(border, Radial):
        return [_radial_band(border, half, scale)]
    if border.angle_max - border.angle_min >= 360:
        halves = (
            Arc(border.radius, border.angle_min, border.angle_min + 180),
            Arc(border.radius, border.angle_min + 180, border.angle_max),
        )
        return [_arc_band(arc, half, scale) for arc in halves]
    return [_arc_band(border, half, scale)]


def _radial_band(radial: Radial, half: float, scale: float) -> list[Point]:
    """A rectangle: ``half`` either side of the line, and ``half`` past each end."""
    inner, outer = radial.r_inner - half, radial.r_outer + half
    corners = ((inner, -1), (outer, -1), (outer, 1), (inner, 1))
    return [_beside(radius, radial.angle, side * half, scale) for radius, side in corners]


def _beside(radius: float, angle: float, offset: float, scale: float) -> Point:
    """The point ``offset`` (layout units, towards larger angles) from the line at ``angle``."""
    turn = math.degrees(math.atan2(offset, radius))
    return to_point(math.hypot(radius, offset), angle + turn, scale)


def _arc_band(arc: Arc, half: float, scale: float) -> list[Point]:
    overrun = math.degrees(half / arc.radius)
    low, high = arc.angle_min - overrun, arc.angle_max + overrun
    steps = max(2, math.ceil(high - low))
    angles = [low + (high - low) * i / steps for i in range(steps + 1)]
    outer = [to_point(arc.radius + half, a, scale) for a in angles]
    inner = [to_point(arc.radius - half, a, scale) for a in reversed(angles)]
    return outer + inner


def _territory_at(radius: float, angle: float) -> str | None:
    """The territory at layout radius and angle, or None off the disc."""
    angle %= 360
    for cell in cells().values():
        if cell.r_inner <= radius < cell.r_outer and (
            cell.is_whole_ring or cell.angle_min <= angle < cell.angle_max
        ):
            return cell.territory
    return None


def _arc_borders() -> list[Arc]:
    cuts: dict[float, set[float]] = defaultdict(set)
    for cell in cells().values():
        for radius in (cell.r_inner, cell.r_outer):
            if radius > 0:
                cuts[radius].update(_angle_range(cell))
    result: list[Arc] = []
    for radius in sorted(cuts):
        pieces = _cut(sorted(cuts[radius]))
        borders = [
            (low, high)
            for low, high in pieces
            if _territory_at(radius - NUDGE, (low + high) / 2)
            != _territory_at(radius + NUDGE, (low + high) / 2)
        ]
        result.extend(Arc(radius, low, high) for low, high in _joined(borders))
    return result


def _radial_borders() -> list[Radial]:
    cuts: dict[float, set[float]] = defaultdict(set)
    for cell in cells().values():
        if not cell.is_whole_ring:
            for angle in (cell.angle_min, cell.angle_max):
                cuts[angle % 360].update((cell.r_inner, cell.r_outer))
    result: list[Radial] = []
    for angle in sorted(cuts):
        pieces = _cut(sorted(cuts[angle]))
        borders = [
            (low, high)
            for low, high in pieces
            if _territory_at((low + high) / 2, angle - NUDGE)
            != _territory_at((low + high) / 2, angle + NUDGE)
        ]
        result.extend(Radial(angle, low, high) for low, high in _joined(borders))
    return result


def _angle_range(cell: Cell) -> tuple[float, float]:
    if cell.is_whole_ring:
        return (0.0, 360.0)
    return (cell.angle_min, cell.angle_max)


def _cut(points: list[float]) -> list[tuple[float, float]]:
    """The pieces between consecutive cut points."""
    return [(low, high) for low, high in pairwise(points) if high > low]


def _joined(pieces: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
    """Touching pieces (sorted) joined into one run each."""
    runs: list[tuple[float, float]] = []
    for low, high in pieces:
        if runs and runs[-1][1] == low:
            runs[-1] = (runs[-1][0], high)
        else:
            runs.append((low, high))
    return runs
