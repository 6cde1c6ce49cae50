"""Marks drawn on the board under the tokens: storm, seats, destinations, moves, shipments."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageChops, ImageDraw

from bot.render import palette
from bot.render.fonts import font
from bot.render.geometry import (
    CENTRE,
    DISC_RADIUS,
    RING_WIDTH,
    Box,
    Point,
    cell_for,
    sector_angles,
    to_point,
)
from bot.render.palette import RGB
from rules.board import POLAR_SINK, Piece, board_facts, seat_sector, standard_board
from rules.factions import Faction

OVERSAMPLE = 3
RING_OUTER = 1.0 + RING_WIDTH / DISC_RADIUS
RING_MIDDLE = 1.0 + RING_WIDTH / 2 / DISC_RADIUS


@dataclass(frozen=True, slots=True)
class LastMove:
    """The path of the last move: pieces from the start to the destination.

    A sector of None on a territory with sectors means "somewhere in it"; the
    path is drawn through the middle sector of the territory then.
    """

    faction: Faction
    path: tuple[Piece, ...]


@dataclass(frozen=True, slots=True)
class LastShipment:
    """Where the last shipment landed (``forces`` is shown in the panel when known)."""

    faction: Faction
    territory: str
    sector: int | None
    forces: int | None = None


@dataclass(frozen=True, slots=True)
class LastKarama:
    """A Karama card just played: who played it, and what it cancelled or prevented."""

    faction: Faction
    what: str
    """The ability in words, e.g. "the Fremen move of two territories"."""
    prevented: bool = False

    @property
    def text(self) -> str:
        verb = "prevented" if self.prevented else "cancelled"
        return f"Karama: {self.faction.label} {verb} {self.what}"


# -- masks: a piece of the board as an alpha image at its place -----------------------


@dataclass(frozen=True, slots=True)
class Mask:
    offset: tuple[int, int]
    alpha: Image.Image


def polygon_mask(
    outline: Sequence[Point], *, fill: int, edge: int = 0, edge_width: float = 0.0
) -> Mask:
    left = math.floor(min(p[0] for p in outline)) - 4
    top = math.floor(min(p[1] for p in outline)) - 4
    right = math.ceil(max(p[0] for p in outline)) + 4
    bottom = math.ceil(max(p[1] for p in outline)) + 4
    size = ((right - left) * OVERSAMPLE, (bottom - top) * OVERSAMPLE)
    big = Image.new("L", size, 0)
    draw = ImageDraw.Draw(big)
    points = [((x - left) * OVERSAMPLE, (y - top) * OVERSAMPLE) for x, y in outline]
    draw.polygon(points, fill=fill)
    if edge_width:
        width = round(edge_width * OVERSAMPLE)
        draw.line([*points, points[0]], fill=edge, width=width, joint="curve")
    small = big.resize((right - left, bottom - top), Image.Resampling.BOX)
    return Mask((left, top), small)


def paint(image: Image.Image, colour: RGB, mask: Mask) -> None:
    image.paste(colour, (*mask.offset, *_far_corner(mask)), mask.alpha)


def _far_corner(mask: Mask) -> tuple[int, int]:
    return (mask.offset[0] + mask.alpha.width, mask.offset[1] + mask.alpha.height)


# -- storm ---------------------------------------------------------------------------


def draw_storm(image: Image.Image, sector: int) -> None:
    """Shade the storm's sector, from the Polar Sink to the rim, and mark its number."""
    paint(image, palette.STORM, _storm_mask(sector))
    start, end = sector_angles(sector)
    draw = ImageDraw.Draw(image)
    draw.text(
        to_point(RING_MIDDLE, (start + end) / 2),
        str(sector),
        font=font("bold", 26),
        fill=palette.STORM_TEXT,
        anchor="mm",
        stroke_width=2,
        stroke_fill=(0, 0, 0),
    )


@cache
def _storm_mask(sector: int) -> Mask:
    start, end = sector_angles(sector)
    sink = _polar_sink_radius()
    steps = 40
    angles = [start + (end - start) * i / steps for i in range(steps + 1)]
    outline = [to_point(RING_OUTER, a) for a in angles]
    outline += [to_point(sink, a) for a in reversed(angles)]
    mask = polygon_mask(outline, fill=palette.STORM_ALPHA, edge=230, edge_width=3)
    return Mask(mask.offset, with_stripes(mask.alpha))


def with_stripes(alpha: Image.Image) -> Image.Image:
    """Diagonal streaks so the storm reads as a storm, not only as a darker colour."""
    stripes = Image.new("L", alpha.size, 0)
    draw = ImageDraw.Draw(stripes)
    width, height = alpha.size
    for x in range(-height, width, 14):
        draw.line(((x, 0), (x + height, height)), fill=60, width=3)
    streaked = ImageChops.add(alpha, stripes)
    return ImageChops.multiply(streaked, alpha.point(lambda v: 255 if v else 0))


def _polar_sink_radius() -> float:
    layout = board_facts()["layout"]
    assert isinstance(layout, dict)
    return float(layout["polar_sink_radius"])


# -- seats -----------------------------------------------------------------------------


def draw_seats(image: Image.Image, seats: Sequence[Faction | None]) -> None:
    """Each player's circle on the rim, in the faction's colour."""
    draw = ImageDraw.Draw(image)
    for seat, faction in enumerate(seats):
        if faction is None:
            continue
        start, _ = sector_angles(seat_sector(seat))
        x, y = to_point(RING_MIDDLE, start + 4.5)
        radius = 11
        draw.ellipse(
            (x - radius, y - radius, x + radius, y + radius),
            fill=palette.FACTION[faction],
            outline=(255, 255, 255),
            width=2,
        )


# -- highlights and last shipment -----------------------------------------------------


def draw_highlights(image: Image.Image, pieces: Iterable[Piece]) -> None:
    """Tint and outline every piece a selected group may move to."""
    for piece in sorted(set(pieces), key=lambda p: (p[0], p[1] or 0)):
        paint(image, palette.HIGHLIGHT, _highlight_mask(cell_for(*piece).piece))


@cache
def _highlight_mask(piece: Piece) -> Mask:
    outline = cell_for(*piece).outline()
    return polygon_mask(outline, fill=75, edge=255, edge_width=5)


def draw_last_shipment(image: Image.Image, shipment: LastShipment) -> None:
    """Outline the piece that received the last shipment in the shipper's colour."""
    piece = cell_for(shipment.territory, shipment.sector).piece
    paint(image, (255, 255, 255), _ring_mask(piece, 9))
    paint(image, palette.FACTION[shipment.faction], _ring_mask(piece, 5))


@cache
def _ring_mask(piece: Piece, width: float) -> Mask:
    return polygon_mask(cell_for(*piece).outline(), fill=0, edge=255, edge_width=width)


# -- last move -------------------------------------------------------------------------


def draw_last_move(image: Image.Image, move: LastMove, tokens: Mapping[Piece, Box]) -> None:
    """An arrow through the pieces of the last move, start to destination.

    ``tokens`` holds the moving faction's token in each piece where it has one:
    the arrow leaves the start token and ends at the edge of the arrival token.
    """
    points = [_path_point(p, tokens) for p in move.path]
    if len(points) < 2:
        return
    arrival = tokens.get(cell_for(*move.path[-1]).piece)
    if arrival is not None:
        points[-1] = _short_of(points[-2], points[-1], (arrival[2] - arrival[0]) / 2 + 3)
    draw = ImageDraw.Draw(image)
    colour = palette.FACTION[move.faction]
    draw.line(points, fill=(0, 0, 0), width=14, joint="curve")
    draw.line(points, fill=palette.MOVE_ARROW, width=10, joint="curve")
    draw.line(points, fill=colour, width=4, joint="curve")
    head = _arrow_head(points[-2], points[-1], 30)
    draw.polygon(head, fill=palette.MOVE_ARROW, outline=(0, 0, 0), width=2)


def _path_point(piece: Piece, tokens: Mapping[Piece, Box]) -> Point:
    territory, sector = piece
    if territory == POLAR_SINK:
        sector = None
    elif sector is None:
        sectors = standard_board()[territory].sectors
        sector = sectors[len(sectors) // 2]
    box = tokens.get((territory, sector))
    if box is not None:
        return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    if territory == POLAR_SINK:
        return CENTRE
    cell = cell_for(territory, sector)
    return to_point((cell.r_inner + cell.r_outer) / 2, (cell.angle_min + cell.angle_max) / 2)


def _short_of(start: Point, end: Point, distance: float) -> Point:
    length = math.dist(start, end)
    if length <= distance:
        return end
    t = (length - distance) / length
    return (start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t)


def _arrow_head(start: Point, tip: Point, length: float) -> list[Point]:
    angle = math.atan2(tip[1] - start[1], tip[0] - start[0])
    left = angle + math.radians(150)
    right = angle - math.radians(150)
    return [
        tip,
        (tip[0] + length * math.cos(left), tip[1] + length * math.sin(left)),
        (tip[0] + length * math.cos(right), tip[1] + length * math.sin(right)),
    ]
