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

from bot.render.geometry import Box, Cell, Point, boxes_overlap, cell_for
from bot.render.names import Label, labels, make_label, wrap
from bot.render.panel import Heading, PanelLayout, layout_panel
from bot.render.tokens import Placement, TokenLayout, layout_tokens, name_boxes
from rules.board import Piece
from rules.view import PublicView

PIECE_NAME_SIZES = (14, 13, 12)
STEP = 3
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
    tokens = layout_tokens(view)
    piece_names, leaders = name_pieces(tokens)
    return MapLayout(labels(), piece_names, leaders, tokens, layout_panel(heading))


def name_pieces(tokens: TokenLayout) -> tuple[tuple[Label, ...], tuple[Leader, ...]]:
    """A name beside the tokens of each piece that holds none of its territory's name."""
    on_board: dict[Piece, list[Box]] = defaultdict(list)
    for placed in tokens.tokens:
        if placed.placement is Placement.BOARD:
            on_board[placed.token.piece].append(placed.box)
    taken = [p.box for p in tokens.tokens if p.placement is not Placement.CALLOUT]
    names: list[Label] = []
    leaders: list[Leader] = []
    for piece, boxes in on_board.items():
        cell = cell_for(*piece)
        if _holds_its_name(cell):
            continue
        middle = _middle(boxes)
        label = _piece_name(cell, middle, taken + [b for n in names for b in n.boxes])
        if label is not None:
            names.append(label)
        else:
            leaders.append(_leader(middle, boxes, cell.territory))
    return tuple(names), tuple(leaders)


@cache
def _holds_its_name(cell: Cell) -> bool:
    label = _name_of(cell.territory)
    return any(cell.contains(_middle([box])) for box in label.boxes)


def _name_of(territory: str) -> Label:
    return next(label for label in labels() if label.territory == territory)


def _piece_name(cell: Cell, near: Point, taken: list[Box]) -> Label | None:
    points = sorted(_cell_points(cell), key=lambda p: math.dist(p, near))
    for size in PIECE_NAME_SIZES:
        for lines in dict.fromkeys((wrap(cell.territory), (cell.territory,))):
            for point in points:
                label = make_label(cell.territory, lines, size, 0, point)
                if _free(cell, label.box, taken):
                    return label
    return None


def _free(cell: Cell, box: Box, taken: list[Box]) -> bool:
    if not cell.contains_box(box, CLEARANCE):
        return False
    if any(boxes_overlap(box, other, CLEARANCE) for other in taken):
        return False
    return not any(boxes_overlap(box, name, CLEARANCE) for name in name_boxes())


@cache
def _cell_points(cell: Cell) -> tuple[Point, ...]:
    outline = cell.outline(2.0)
    left, right = min(p[0] for p in outline), max(p[0] for p in outline)
    top, bottom = min(p[1] for p in outline), max(p[1] for p in outline)
    return tuple(
        (float(x), float(y))
        for y in range(math.floor(top), math.ceil(bottom), STEP)
        for x in range(math.floor(left), math.ceil(right), STEP)
        if cell.contains((x, y))
    )


def _leader(middle: Point, boxes: list[Box], territory: str) -> Leader:
    name = _name_of(territory).box
    end = (min(max(middle[0], name[0]), name[2]), min(max(middle[1], name[1]), name[3]))
    return Leader(middle, end)


def _middle(boxes: list[Box]) -> Point:
    return (
        sum(b[0] + b[2] for b in boxes) / (2 * len(boxes)),
        sum(b[1] + b[3] for b in boxes) / (2 * len(boxes)),
    )
