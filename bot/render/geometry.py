"""Where the board sits on the picture: the disc, its sector pieces and the canvas.

The cells come from the board facts' ``layout`` (one annular cell per
territory-sector piece, angles counterclockwise from the line between printed
sectors 17 and 18). Everything here works in picture pixels, y pointing down.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from rules.board import POLAR_SINK, Piece, board_facts, printed_sector, standard_board

WIDTH = 1400
BOARD_HEIGHT = 1400
PANEL_HEIGHT = 372
HEIGHT = BOARD_HEIGHT + PANEL_HEIGHT
CENTRE = (WIDTH / 2, BOARD_HEIGHT / 2)
DISC_RADIUS = 618.0
"""Pixels from the centre to the outer edge of the territories (layout radius 1.0)."""
RING_WIDTH = 52.0
"""The ring outside the territories that carries the printed sector numbers."""
RIM_RADIUS = DISC_RADIUS + RING_WIDTH
SECTOR_DEGREES = 20.0
ANGLE_OFFSET = 120.0
"""Layout angle ``a`` points at picture angle ``120 - a`` (degrees, y down)."""

Box = tuple[float, float, float, float]
"""An axis-aligned rectangle ``(left, top, right, bottom)`` in picture pixels."""
Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Cell:
    """The drawn region of one territory-sector piece: an annular sector."""

    territory: str
    sector: int | None
    r_inner: float
    r_outer: float
    angle_min: float
    angle_max: float
    label: Point

    @property
    def piece(self) -> Piece:
        return (self.territory, self.sector)

    def contains(self, point: Point) -> bool:
        radius, angle = to_polar(point)
        if not self.r_inner * DISC_RADIUS <= radius <= self.r_outer * DISC_RADIUS:
            return False
        return self.is_whole_ring or self.angle_min <= angle <= self.angle_max

    @property
    def is_whole_ring(self) -> bool:
        return self.angle_max - self.angle_min >= 360

    def contains_box(self, box: Box, margin: float = 0.0) -> bool:
        """True when ``box`` lies wholly inside the cell, ``margin`` pixels from its edges."""
        left, top, right, bottom = box
        corners = ((left, top), (right, top), (left, bottom), (right, bottom))
        outer = self.r_outer * DISC_RADIUS - margin
        if any(math.dist(c, CENTRE) > outer for c in corners):
            return False
        inner = self.r_inner * DISC_RADIUS
        if inner and _nearest_distance(box) < inner + margin:
            return False
        if self.is_whole_ring:
            return True
        if self.angle_max - self.angle_min <= 90:
            return _clear_of_sides(box, self.angle_min, self.angle_max, margin)
        return all(self._inside_angles(c, margin) for c in corners)

    def _inside_angles(self, point: Point, margin: float) -> bool:
        radius, angle = to_polar(point)
        if not self.angle_min <= angle <= self.angle_max:
            return False
        gap = math.radians(min(angle - self.angle_min, self.angle_max - angle))
        return radius * math.sin(gap) >= margin

    def outline(self, step_degrees: float = 1.0) -> list[Point]:
        """The cell's border as a polygon (outer arc, then inner arc backwards)."""
        steps = max(2, math.ceil((self.angle_max - self.angle_min) / step_degrees))
        angles = [
            self.angle_min + (self.angle_max - self.angle_min) * i / steps for i in range(steps + 1)
        ]
        outer = [to_point(self.r_outer, a) for a in angles]
        if self.r_inner == 0:
            return outer
        return outer + [to_point(self.r_inner, a) for a in reversed(angles)]


def to_point(radius: float, angle: float, scale: float = 1.0) -> Point:
    """Picture pixels of layout radius ``radius`` (1.0 = disc edge) and layout angle."""
    theta = math.radians(ANGLE_OFFSET - angle)
    cx, cy = CENTRE
    return (
        (cx + radius * DISC_RADIUS * math.cos(theta)) * scale,
        (cy + radius * DISC_RADIUS * math.sin(theta)) * scale,
    )


def to_polar(point: Point) -> tuple[float, float]:
    """Pixels from the centre and layout angle (0..360) of a picture point."""
    dx, dy = point[0] - CENTRE[0], point[1] - CENTRE[1]
    angle = (ANGLE_OFFSET - math.degrees(math.atan2(dy, dx))) % 360
    return math.hypot(dx, dy), angle


def sector_angles(sector: int) -> tuple[float, float]:
    """Layout angle range of a printed sector (1..18)."""
    start = (sector % 18) * SECTOR_DEGREES
    return start, start + SECTOR_DEGREES


def _clear_of_sides(box: Box, angle_min: float, angle_max: float, margin: float) -> bool:
    """True when every corner of ``box`` is ``margin`` pixels or more inside both sides.

    For a wedge no wider than 90 degrees that is the same as every corner lying
    between the two angles, ``margin`` from the nearer side; the nearest corner
    to each side line is found directly instead of turning corners into angles.
    """
    left, top, right, bottom = box
    dx, dy = (left + right) / 2 - CENTRE[0], (top + bottom) / 2 - CENTRE[1]
    half_width, half_height = (right - left) / 2, (bottom - top) / 2
    for nx, ny in side_normals(angle_min, angle_max):
        nearest_corner = nx * dx + ny * dy - abs(nx) * half_width - abs(ny) * half_height
        if nearest_corner < margin:
            return False
    return True


@cache
def side_normals(angle_min: float, angle_max: float) -> tuple[Point, Point]:
    """Unit normals of the side lines at two layout angles, pointing between them."""
    low, high = math.radians(ANGLE_OFFSET - angle_min), math.radians(ANGLE_OFFSET - angle_max)
    return (math.sin(low), -math.cos(low)), (-math.sin(high), math.cos(high))


def _nearest_distance(box: Box) -> float:
    left, top, right, bottom = box
    cx, cy = CENTRE
    dx = max(left - cx, 0.0, cx - right)
    dy = max(top - cy, 0.0, cy - bottom)
    return math.hypot(dx, dy)


@cache
def cells() -> dict[Piece, Cell]:
    """Every territory-sector piece of the board and its drawn cell."""
    layout = board_facts()["layout"]
    assert isinstance(layout, dict)
    result: dict[Piece, Cell] = {}
    for piece_id, raw in layout["pieces"].items():
        cell = _cell_from_layout(piece_id, raw)
        result[cell.piece] = cell
    return result


def _cell_from_layout(piece_id: str, raw: dict[str, float]) -> Cell:
    name, _, sector = piece_id.partition("@")
    return Cell(
        territory=name,
        sector=printed_sector(int(sector)) if sector else None,
        r_inner=raw["r_inner"],
        r_outer=raw["r_outer"],
        angle_min=raw["angle_min_deg"],
        angle_max=raw["angle_max_deg"],
        label=to_point(raw["label_r"], raw["label_angle_deg"]),
    )


@cache
def territory_label_points() -> dict[str, Point]:
    """A point inside each territory where its name goes."""
    layout = board_facts()["layout"]
    assert isinstance(layout, dict)
    return {n: to_point(p["r"], p["angle_deg"]) for n, p in layout["territory_labels"].items()}


def territory_kind(territory: str) -> str:
    """``stronghold``, ``sand``, ``rock`` or ``polar_sink``."""
    return standard_board()[territory].kind


def territory_cells(territory: str) -> list[Cell]:
    return [c for c in cells().values() if c.territory == territory]


def cell_for(territory: str, sector: int | None) -> Cell:
    """The cell of a piece; a territory without sectors (Polar Sink) takes None."""
    if territory == POLAR_SINK:
        sector = None
    return cells()[(territory, sector)]


def piece_at(point: Point) -> Piece | None:
    """The territory-sector piece drawn under a picture point, or None off the disc."""
    for cell in cells().values():
        if cell.contains(point):
            return cell.piece
    return None


def boxes_overlap(a: Box, b: Box, gap: float = 0.0) -> bool:
    return not (
        a[2] + gap <= b[0] or b[2] + gap <= a[0] or a[3] + gap <= b[1] or b[3] + gap <= a[1]
    )
