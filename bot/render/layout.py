"""Everything placed on a map picture, as boxes: names, tokens, callouts, legend, footer.

:func:`layout_map` decides it all before anything is drawn; the renderer draws
exactly this, so tests check the real picture's boxes for overlaps.

A piece whose tokens sit away from its territory's name (a sliver of Imperial
Basin in the next sector, say) gets the name written small beside them; when
there is no room for it, a leader line joins the tokens to the name.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from functools import cache

from bot.render.geometry import (
    CENTRE,
    DISC_RADIUS,
    HEIGHT,
    Box,
    Cell,
    Point,
    boxes_overlap,
    cell_for,
    to_point,
)
from bot.render.names import Label, labels, make_label, wrap
from bot.render.panel import Heading, PanelLayout, layout_panel
from bot.render.tokens import Inside, Placement, TokenLayout, layout_tokens, name_boxes
from rules.board import Piece
from rules.view import PublicView

PIECE_NAME_SIZES = (13,)
NEAR_ENOUGH = 80.0
"""Tokens this close (pixels) to their territory's name need no name of their own."""
STEP = 5
CLEARANCE = 2.0


@dataclass(frozen=True, slots=True)
class Leader:
    """A line from tokens to their territory's name, when no name fits beside them."""

    start: Point
    end: Point


@dataclass(frozen=True, slots=True)
class MapLayout:
    names: tuple[Label, ...]
    """The territories' names (the same on every map)."""
    piece_names: tuple[Label, ...]
    """Names written beside tokens that are away from their territory's name."""
    leaders: tuple[Leader, ...]
    tokens: TokenLayout
    panel: PanelLayout

    @property
    def height(self) -> int:
        return self.tokens.height

    def label_boxes(self) -> list[Box]:
        """Every box covered by written names (territories' and pieces')."""
        return [box for label in self.names + self.piece_names for box in label.boxes]


def layout_map(view: PublicView, heading: Heading) -> MapLayout:
    panel = layout_panel(heading)
    footer_bottom = max((line.box[3] for line in panel.footer), default=0.0)
    tokens = layout_tokens(view, base_height=max(HEIGHT, math.ceil(footer_bottom) + 10))
    piece_names, leaders = name_pieces(tokens)
    return MapLayout(labels(), piece_names, leaders, tokens, panel)


def name_pieces(tokens: TokenLayout) -> tuple[tuple[Label, ...], tuple[Leader, ...]]:
    """A name beside the tokens of each piece that holds none of its territory's name
    and lies more than NEAR_ENOUGH from it; a leader line to the name where none fits.
    (Crowded pieces need neither: their callout's header names them.)"""
    on_board: dict[Piece, list[Box]] = defaultdict(list)
    for placed in tokens.tokens:
        if placed.placement is Placement.BOARD:
            on_board[placed.token.piece].append(placed.box)
    taken = [p.box for p in tokens.tokens if p.placement is not Placement.CALLOUT]
    names: list[Label] = []
    leaders: list[Leader] = []
    for piece, boxes in on_board.items():
        cell = cell_for(*piece)
        middle = _middle(boxes)
        if _holds_its_name(cell) or _distance(middle, _name_of(cell.territory).box) <= NEAR_ENOUGH:
            continue
        label = _piece_name(cell, middle, taken + [b for n in names for b in n.boxes])
        if label is not None:
            names.append(label)
        else:
            leaders.append(_leader(middle, cell.territory))
    return tuple(names), tuple(leaders)


@cache
def _holds_its_name(cell: Cell) -> bool:
    label = _name_of(cell.territory)
    return any(cell.contains(_middle([box])) for box in label.boxes)


def _name_of(territory: str) -> Label:
    return next(label for label in labels() if label.territory == territory)


def _piece_name(cell: Cell, near: Point, taken: list[Box]) -> Label | None:
    """The name at the free spot nearest ``near`` (the tokens), largest size first."""
    bounds = _cell_bounds(cell)
    avoid = [b for b in taken if boxes_overlap(b, bounds)]
    avoid += [n for n in name_boxes() if boxes_overlap(n, bounds)]
    for size in PIECE_NAME_SIZES:
        for lines in dict.fromkeys((wrap(cell.territory), (cell.territory,))):
            label = _nearest_free(cell, lines, size, near, avoid)
            if label is not None:
                return label
    return None


def _nearest_free(
    cell: Cell, lines: tuple[str, ...], size: int, near: Point, avoid: list[Box]
) -> Label | None:
    shape = make_label(cell.territory, lines, size, 0, (0.0, 0.0)).box
    half = min(shape[2] - shape[0], shape[3] - shape[1]) / 2 + CLEARANCE
    for x, y in sorted(_ring_points(cell, half), key=lambda p: math.dist(p, near)):
        rough = (shape[0] + x - 1, shape[1] + y - 1, shape[2] + x + 1, shape[3] + y + 1)
        if not cell.contains_box(rough, CLEARANCE):
            continue
        if not any(boxes_overlap(rough, other, CLEARANCE) for other in avoid):
            return make_label(cell.territory, lines, size, 0, (x, y))
    return None


@cache
def _ring_points(cell: Cell, clearance: float) -> tuple[Point, ...]:
    """Whole-pixel points of the cell at least ``clearance`` from its edges, STEP apart."""
    inside = Inside.of(cell, clearance)
    inner = cell.r_inner * DISC_RADIUS + (clearance if cell.r_inner else 0.0)
    outer = cell.r_outer * DISC_RADIUS - clearance
    points: dict[Point, None] = {}
    radius = inner
    while radius <= outer:
        if radius < STEP:
            points[float(round(CENTRE[0])), float(round(CENTRE[1]))] = None
        else:
            turn = math.degrees(STEP / radius)
            angle = cell.angle_min
            while angle <= cell.angle_max:
                x, y = to_point(radius / DISC_RADIUS, angle)
                if inside.holds(x, y):
                    points[float(round(x)), float(round(y))] = None
                angle += turn
        radius += STEP
    return tuple(points)


@cache
def _cell_bounds(cell: Cell) -> Box:
    outline = cell.outline(2.0)
    return (
        min(p[0] for p in outline),
        min(p[1] for p in outline),
        max(p[0] for p in outline),
        max(p[1] for p in outline),
    )


def _leader(middle: Point, territory: str) -> Leader:
    name = _name_of(territory).box
    end = (min(max(middle[0], name[0]), name[2]), min(max(middle[1], name[1]), name[3]))
    return Leader(middle, end)


def _distance(point: Point, box: Box) -> float:
    dx = max(box[0] - point[0], 0.0, point[0] - box[2])
    dy = max(box[1] - point[1], 0.0, point[1] - box[3])
    return math.hypot(dx, dy)


def _middle(boxes: list[Box]) -> Point:
    return (
        sum(b[0] + b[2] for b in boxes) / (2 * len(boxes)),
        sum(b[1] + b[3] for b in boxes) / (2 * len(boxes)),
    )
