"""Where every token goes: inside its piece's cell, never overlapping another.

Each stack becomes up to three tokens (forces, starred forces, Bene Gesserit
advisors) and each spice pile one. A piece's tokens are packed into its cell
at the largest size that fits, keeping clear of the territory name when they
can. When even the smallest size does not fit, the cell gets one small marker
per stack and the full tokens go into a callout box off the disc, joined to
the cell by a leader line. The renderer draws exactly what this module
returns, so tests can check containment and overlap on it.
"""

from __future__ import annotations

import enum
import math
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache

from bot.render.geometry import (
    BOARD_HEIGHT,
    CENTRE,
    DISC_RADIUS,
    HEIGHT,
    RIM_RADIUS,
    WIDTH,
    Box,
    Cell,
    Point,
    boxes_overlap,
    cell_for,
    side_normals,
    to_point,
)
from bot.render.names import labels
from rules.board import Piece
from rules.factions import Faction
from rules.view import PublicView

TOKEN_SIZES = (40, 34, 29, 25, 21)
MARKER_SIZES = (14, 11, 8)
CALLOUT_TOKEN = 34
GAP = 3.0
"""Minimum pixels between two tokens (markers: one less)."""
EDGE = 2.0
"""Minimum pixels between a token and its cell's border (markers: one less)."""
SMALL = 18
"""Tokens under this size are markers and sit a little closer."""
CALLOUT_WIDTH = 212
CALLOUT_HEADER = 22
CALLOUT_PADDING = 6
CALLOUT_MARGIN = 8


class TokenKind(enum.StrEnum):
    FORCES = "forces"
    SPECIAL = "special"
    ADVISORS = "advisors"
    SPICE = "spice"


class Placement(enum.StrEnum):
    BOARD = "board"
    """A full token (shape and count) inside its piece's cell."""
    MARKER = "marker"
    """A small marker inside the cell; the full token is in a callout."""
    CALLOUT = "callout"
    """A full token inside a callout box off the disc."""


@dataclass(frozen=True, slots=True)
class Token:
    """Something to draw on a piece: a faction's forces of one kind, or spice."""

    kind: TokenKind
    faction: Faction | None
    territory: str
    sector: int | None
    count: int

    @property
    def piece(self) -> Piece:
        return (self.territory, self.sector)


@dataclass(frozen=True, slots=True)
class PlacedToken:
    token: Token
    box: Box
    placement: Placement


@dataclass(frozen=True, slots=True)
class Callout:
    """A box off the disc holding a crowded piece's tokens."""

    territory: str
    sector: int | None
    box: Box
    anchor: Point | None
    """The middle of the piece's markers, where the leader line ends (None: no line)."""

    @property
    def piece(self) -> Piece:
        return (self.territory, self.sector)


@dataclass(frozen=True, slots=True)
class TokenLayout:
    tokens: tuple[PlacedToken, ...]
    callouts: tuple[Callout, ...]
    height: int
    """Picture height needed (callouts that find no corner go below the panel)."""


def tokens_of(view: PublicView) -> list[Token]:
    """The tokens a public view puts on the board, in drawing order."""
    result: list[Token] = []
    for stack in view.stacks:
        for kind, count in (
            (TokenKind.FORCES, stack.forces),
            (TokenKind.SPECIAL, stack.special),
            (TokenKind.ADVISORS, stack.advisors),
        ):
            if count > 0:
                result.append(Token(kind, stack.faction, stack.territory, stack.sector, count))
    result.extend(
        Token(TokenKind.SPICE, None, s.territory, s.sector, s.amount)
        for s in view.spice
        if s.amount > 0
    )
    return result


def layout_tokens(view: PublicView, *, base_height: int = HEIGHT) -> TokenLayout:
    """Place every token of ``view``; the renderer draws exactly this.

    Every stack and spice pile gets a token or a marker inside its piece's
    cell, and no two returned boxes overlap.
    """
    by_piece: dict[Piece, list[Token]] = defaultdict(list)
    for token in tokens_of(view):
        by_piece[cell_for(token.territory, token.sector).piece].append(token)
    placed: list[PlacedToken] = []
    crowded: list[Crowd] = []
    for piece, tokens in by_piece.items():
        cell = cell_for(*piece)
        boxes = _pack(cell, len(tokens), TOKEN_SIZES)
        if boxes is not None:
            placed.extend(_placed(tokens, boxes, Placement.BOARD))
        else:
            crowd = _crowd(cell, tokens)
            placed.extend(crowd.markers)
            crowded.append(crowd)
    callouts, callout_tokens, height = _place_callouts(crowded, base_height)
    return TokenLayout(tuple(placed + callout_tokens), tuple(callouts), height)


@dataclass(frozen=True, slots=True)
class Crowd:
    """A piece whose tokens do not fit its cell: markers there, tokens in a callout."""

    cell: Cell
    tokens: list[Token]
    markers: list[PlacedToken]

    @property
    def piece(self) -> Piece:
        return self.cell.piece


def _crowd(cell: Cell, tokens: list[Token]) -> Crowd:
    markers = _markers(tokens)
    boxes = _pack(cell, len(markers), MARKER_SIZES)
    assert boxes is not None, f"no room for markers in {cell.piece}"
    return Crowd(cell, tokens, _placed(markers, boxes, Placement.MARKER))


def _placed(
    tokens: Iterable[Token], boxes: Iterable[Box], placement: Placement
) -> list[PlacedToken]:
    return [PlacedToken(t, b, placement) for t, b in zip(tokens, boxes, strict=False)]


def _markers(tokens: list[Token]) -> list[Token]:
    """One marker per faction present (its total forces) and one for spice."""
    totals: dict[Faction | None, Token] = {}
    for t in tokens:
        kind = TokenKind.SPICE if t.faction is None else TokenKind.FORCES
        known = totals.get(t.faction)
        count = t.count + (known.count if known else 0)
        totals[t.faction] = Token(kind, t.faction, t.territory, t.sector, count)
    return list(totals.values())


# -- packing inside a cell -------------------------------------------------------------


def _pack(cell: Cell, count: int, sizes: tuple[int, ...]) -> list[Box] | None:
    """``count`` non-overlapping boxes in the cell at the largest size that fits.

    Tokens never cover a territory's name: when they do not fit beside it, the
    piece's tokens go to a callout (and its markers, which are small, sit beside it).
    """
    for size in sizes:
        candidates = _candidates(cell.piece, size)
        gap = GAP if size >= SMALL else GAP - 1
        boxes = _greedy(candidates, count, gap) or _greedy(_scan_order(candidates), count, gap)
        if boxes is not None:
            return boxes
    return None


@cache
def name_boxes() -> tuple[Box, ...]:
    """Every box covered by a territory's name."""
    return tuple(box for label in labels() for box in label.boxes)


@cache
def _scan_order(candidates: tuple[Box, ...]) -> tuple[Box, ...]:
    """Row by row: packs tighter than middle-first when space is short."""
    return tuple(sorted(candidates, key=lambda b: (b[1], b[0])))


def _greedy(candidates: tuple[Box, ...], count: int, gap: float) -> list[Box] | None:
    chosen: list[Box] = []
    for box in candidates:
        if not any(boxes_overlap(box, other, gap) for other in chosen):
            chosen.append(box)
            if len(chosen) == count:
                return _reading_order(chosen)
    return None


def _reading_order(boxes: list[Box]) -> list[Box]:
    return sorted(boxes, key=lambda b: (round(b[1] / 8), b[0]))


@cache
def _candidates(piece: Piece, size: int) -> tuple[Box, ...]:
    """Every box of ``size`` that fits the cell clear of names, nearest the cell's middle first."""
    cell = cell_for(*piece)
    middle = _cell_middle(cell)
    step = max(1.5, size / 4)
    edge = EDGE if size >= SMALL else EDGE - 1
    inside = Inside.of(cell, size / 2 + edge)
    left, top, right, bottom = _bounds(cell)
    names = [n for n in name_boxes() if boxes_overlap(n, (left, top, right, bottom))]
    boxes: list[Box] = []
    for x, y in _grid(left, top, right, bottom, step):
        if not inside.holds(x, y):
            continue
        box = (x - size / 2, y - size / 2, x + size / 2, y + size / 2)
        if cell.contains_box(box, edge) and not any(boxes_overlap(box, n) for n in names):
            boxes.append(box)
    boxes.sort(key=lambda b: math.dist(((b[0] + b[2]) / 2, (b[1] + b[3]) / 2), middle))
    return tuple(boxes)


@dataclass(frozen=True, slots=True)
class Inside:
    """The cell shrunk by ``clearance``: a quick test that skips most grid points.

    ``clearance`` is half the box plus the margin. The circle of half the box
    around its middle lies inside the box, so for the box to keep the margin
    from the cell's edges the middle must lie in here. The exact test comes after.
    """

    clearance: float
    least: float
    """Smallest squared distance from the disc's centre (0: no inner arc)."""
    most: float
    """Largest squared distance from the disc's centre (negative: nothing fits)."""
    sides: tuple[Point, ...]
    """The inward normals of the cell's two sides (none for a ring, or a wide cell)."""

    @classmethod
    def of(cls, cell: Cell, clearance: float) -> Inside:
        outer = cell.r_outer * DISC_RADIUS - clearance
        inner = cell.r_inner * DISC_RADIUS + clearance if cell.r_inner else 0.0
        sides: tuple[Point, ...] = ()
        if cell.angle_max - cell.angle_min <= 90:
            sides = side_normals(cell.angle_min, cell.angle_max)
        return cls(clearance, inner * inner, outer * outer if outer >= 0 else -1.0, sides)

    def holds(self, x: float, y: float) -> bool:
        dx, dy = x - CENTRE[0], y - CENTRE[1]
        if not self.least <= dx * dx + dy * dy <= self.most:
            return False
        return all(nx * dx + ny * dy >= self.clearance for nx, ny in self.sides)


def _grid(left: float, top: float, right: float, bottom: float, step: float) -> Iterator[Point]:
    y = top
    while y <= bottom:
        x = left
        while x <= right:
            yield (x, y)
            x += step
        y += step


def _bounds(cell: Cell) -> Box:
    points = cell.outline(2.0)
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def _cell_middle(cell: Cell) -> Point:
    if cell.is_whole_ring:
        return CENTRE
    return to_point((cell.r_inner + cell.r_outer) / 2, (cell.angle_min + cell.angle_max) / 2)


# -- callouts --------------------------------------------------------------------------


def _place_callouts(
    crowded: list[Crowd], base_height: int
) -> tuple[list[Callout], list[PlacedToken], int]:
    """Callouts in the board's corners, nearest their piece; the rest in rows below."""
    taken: list[Box] = []
    callouts: list[Callout] = []
    overflow: list[Crowd] = []
    for crowd in crowded:
        anchor = _middle_of([m.box for m in crowd.markers])
        box = _corner_slot(_callout_size(len(crowd.tokens)), anchor, taken)
        if box is None:
            overflow.append(crowd)
            continue
        taken.append(box)
        callouts.append(Callout(crowd.cell.territory, crowd.cell.sector, box, anchor))
    below, height = _rows_below(overflow, base_height)
    callouts.extend(below)
    by_piece = {c.piece: c for c in crowded}
    placed = [
        p
        for c in callouts
        for p in _placed(by_piece[c.piece].tokens, _callout_boxes(c.box), Placement.CALLOUT)
    ]
    return callouts, placed, height


def _rows_below(crowded: list[Crowd], top: int) -> tuple[list[Callout], int]:
    """Callouts that find no corner, in rows under the panel (no leader line)."""
    callouts: list[Callout] = []
    x, y, row_height = float(CALLOUT_MARGIN), float(top), 0.0
    for crowd in crowded:
        width, height = _callout_size(len(crowd.tokens))
        if x + width > WIDTH - CALLOUT_MARGIN:
            x, y, row_height = float(CALLOUT_MARGIN), y + row_height + CALLOUT_MARGIN, 0.0
        box = (x, y, x + width, y + height)
        callouts.append(Callout(crowd.cell.territory, crowd.cell.sector, box, None))
        x += width + CALLOUT_MARGIN
        row_height = max(row_height, height)
    bottom = y + row_height + CALLOUT_MARGIN if crowded else float(top)
    return callouts, math.ceil(bottom)


def _middle_of(boxes: list[Box]) -> Point:
    return (
        sum(b[0] + b[2] for b in boxes) / (2 * len(boxes)),
        sum(b[1] + b[3] for b in boxes) / (2 * len(boxes)),
    )


def _per_row() -> int:
    inner = CALLOUT_WIDTH - 2 * CALLOUT_PADDING + GAP
    return int(inner // (CALLOUT_TOKEN + GAP))


def _callout_size(count: int) -> tuple[float, float]:
    rows = -(-count // _per_row())
    height = CALLOUT_HEADER + rows * (CALLOUT_TOKEN + GAP) - GAP + 2 * CALLOUT_PADDING
    return (float(CALLOUT_WIDTH), float(height))


def _callout_boxes(callout: Box) -> Iterator[Box]:
    left, top = callout[0] + CALLOUT_PADDING, callout[1] + CALLOUT_PADDING + CALLOUT_HEADER
    index = 0
    while True:
        row, column = divmod(index, _per_row())
        x = left + column * (CALLOUT_TOKEN + GAP)
        y = top + row * (CALLOUT_TOKEN + GAP)
        yield (x, y, x + CALLOUT_TOKEN, y + CALLOUT_TOKEN)
        index += 1


def _corner_slot(size: tuple[float, float], anchor: Point, taken: list[Box]) -> Box | None:
    """The free spot off the disc nearest ``anchor``, in one of the board's corners."""
    options = [b for b in _corner_boxes(size) if not any(boxes_overlap(b, t, 4) for t in taken)]
    if not options:
        return None
    return min(options, key=lambda b: (math.dist(_corner_of(b), anchor), _from_edge(b)))


def _corner_of(box: Box) -> Point:
    """The picture corner whose column holds ``box``."""
    x = 0.0 if box[0] < CENTRE[0] else float(WIDTH)
    y = 0.0 if box[1] < CENTRE[1] else float(BOARD_HEIGHT)
    return (x, y)


def _from_edge(box: Box) -> float:
    return min(box[1], BOARD_HEIGHT - box[3])


@cache
def _corner_boxes(size: tuple[float, float]) -> tuple[Box, ...]:
    """Every spot for a callout of ``size`` along the picture's sides, clear of the disc."""
    width, height = size
    m = CALLOUT_MARGIN
    boxes = (
        (float(x), float(y), x + width, y + height)
        for y in range(m, int(BOARD_HEIGHT - m - height) + 1, 4)
        for x in (m, WIDTH - m - width)
    )
    return tuple(b for b in boxes if _off_disc(b))


def _off_disc(box: Box) -> bool:
    left, top, right, bottom = box
    cx, cy = CENTRE
    dx = max(left - cx, 0.0, cx - right)
    dy = max(top - cy, 0.0, cy - bottom)
    return math.hypot(dx, dy) >= RIM_RADIUS + 4
