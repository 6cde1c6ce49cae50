"""The close-up: the part of the map around the last shipment or move, legible on a phone.

Discord on a phone shows a picture about 400 px wide; the whole board shrunk
that far is unreadable. The close-up crops the same drawing as
:func:`bot.render.render_map` (same names, tokens, storm and marks) to the
touched territories and the pieces next to them, at most ``MAX_SIDE`` pixels a
side, so shown 400 px wide its names and counts keep at least ~75% of their
size. A caption above says the turn, the storm sector and what just happened; the
callouts of crowded touched pieces (drawn off the disc) are added below.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from PIL import Image, ImageDraw

from bot.render import palette
from bot.render.fonts import font
from bot.render.geometry import BOARD_HEIGHT, WIDTH, Box, Cell, cell_for, cells
from bot.render.overlays import LastKarama, LastMove, LastShipment
from bot.render.panel import Heading, footer_texts, for_view, storm_text
from bot.render.png import encode_png
from bot.render.render import check_public, draw_map_and_layout
from bot.render.turn_marks import StormPath, WormSign
from rules.board import Piece, standard_board
from rules.view import PublicView

MAX_SIDE = 540
"""Largest crop side in board pixels (shown 400 px wide: names at 74% or more)."""
MARGIN = 14
CAPTION_SIZE = 22
CAPTION_LINE = 28
PAD = 10


def render_closeup(
    view: PublicView,
    territories: Iterable[str | Piece],
    *,
    title: str = "Shipment & Movement",
    turn: int | None = None,
    highlight: Iterable[Piece] = (),
    last_move: LastMove | None = None,
    last_shipment: LastShipment | None = None,
    last_karama: LastKarama | None = None,
    storm_path: StormPath | None = None,
    worms: tuple[WormSign, ...] = (),
) -> bytes:
    """A PNG of the map around ``territories`` (names or pieces) and their neighbours.

    Same arguments and the same run-time check as :func:`render_map`: anything but
    a :class:`PublicView` raises TypeError. Raises ValueError for no territories
    or an unknown territory.
    """
    check_public(view, "render_closeup")
    touched = _pieces(territories)
    heading = for_view(
        view, Heading(title, turn, last_shipment, last_karama, storm_path=storm_path, worms=worms)
    )
    whole, layout = draw_map_and_layout(
        view, heading, highlight=highlight, last_move=last_move, panel=False
    )
    board_parts = [whole.crop(_pixels(box)) for box in closeup_boxes(touched)]
    callouts = [
        whole.crop(_pixels(c.box))
        for c in layout.tokens.callouts
        if c.territory in {t for t, _ in touched}
    ]
    caption = _caption_lines(view, heading, last_move)
    return encode_png(_compose(board_parts, caption, callouts))


def closeup_boxes(touched: Iterable[Piece]) -> tuple[Box, ...]:
    """The crops, one per group of touched territories close enough to share one.

    A shipment and a move far apart (or a long move) get a crop each, stacked in the
    picture, rather than one crop too wide to read on a phone.
    """
    groups: list[list[Piece]] = []
    for piece in touched:
        group = next((g for g in groups if _shares_a_crop([*g, piece])), None)
        if group is None:
            groups.append([piece])
        else:
            group.append(piece)
    return tuple(closeup_box(group) for group in groups)


def _shares_a_crop(pieces: list[Piece]) -> bool:
    left, top, right, bottom = _bounds(_own_cells(pieces))
    return max(right - left, bottom - top) <= MAX_SIDE - 2 * MARGIN


def _own_cells(pieces: Iterable[Piece]) -> list[Cell]:
    names = {territory for territory, _ in pieces}
    return [c for c in cells().values() if c.territory in names]


def closeup_box(touched: Iterable[Piece]) -> Box:
    """One crop: the touched territories and the pieces next to them, at most MAX_SIDE a
    side (more only when the touched territories alone are larger)."""
    board = standard_board()
    own = _own_cells(touched)
    near = own + [cell_for(*linked) for cell in own for linked, _ in board.piece_links(cell.piece)]
    core, wide = _bounds(own), _bounds(near)
    low_x, high_x = _span(core[0], core[2], wide[0], wide[2], WIDTH)
    low_y, high_y = _span(core[1], core[3], wide[1], wide[3], BOARD_HEIGHT)
    return (float(low_x), float(low_y), float(high_x), float(high_y))


def _pixels(box: Box) -> tuple[int, int, int, int]:
    return (round(box[0]), round(box[1]), round(box[2]), round(box[3]))


def _span(
    core_low: float, core_high: float, low: float, high: float, limit: int
) -> tuple[int, int]:
    """The wide span in whole pixels, cut to MAX_SIDE around the core when longer (never
    cutting the core)."""
    start, end = max(0, math.floor(low - MARGIN)), min(limit, math.ceil(high + MARGIN))
    if end - start <= MAX_SIDE:
        return start, end
    side = max(MAX_SIDE, math.ceil(core_high - core_low) + 2 * MARGIN)
    middle = (core_low + core_high) / 2
    start = max(0, min(max(start, round(middle - side / 2)), end - side))
    return start, start + side


def _bounds(near: list[Cell]) -> Box:
    points = [p for cell in near for p in cell.outline(3.0)]
    return (
        min(p[0] for p in points),
        min(p[1] for p in points),
        max(p[0] for p in points),
        max(p[1] for p in points),
    )


def _pieces(territories: Iterable[str | Piece]) -> list[Piece]:
    board = standard_board()
    pieces: list[Piece] = []
    for item in territories:
        name, sector = (item, None) if isinstance(item, str) else item
        territory = board.resolve(name)
        if territory is None:
            raise ValueError(f"render_closeup: unknown territory {name[:80]!r}")
        pieces.append((territory.name, sector))
    if not pieces:
        raise ValueError("render_closeup: no territory to show")
    return pieces


Line = tuple[str, tuple[int, int, int]]


def _caption_lines(view: PublicView, heading: Heading, last_move: LastMove | None) -> list[Line]:
    storm = storm_text(view, heading)
    if heading.turn is None:
        first = storm
    elif view.game.alone:
        first = f"Turn {heading.turn} · {storm}"
    else:
        first = f"{heading.turn_text} · {storm}"  # a whole game: its phase too
    lines = [(first, palette.STORM_TEXT)]
    if last_move is not None:
        lines.append((_move_text(last_move), palette.PANEL_TEXT))
    lines += [(text, palette.PANEL_TEXT) for text in footer_texts(heading)]
    return lines


def _move_text(move: LastMove) -> str:
    start, (territory, sector) = move.path[0][0], move.path[-1]
    where = territory if sector is None else f"{territory} (sector {sector})"
    return f"Last move: {move.faction.label}, {start} to {where}"


def _compose(
    board_parts: list[Image.Image],
    caption: list[Line],
    callouts: list[Image.Image],
) -> Image.Image:
    width = max(360, *(p.width for p in board_parts), *(c.width + 2 * PAD for c in callouts))
    face = font("bold", CAPTION_SIZE)
    probe = ImageDraw.Draw(Image.new("L", (1, 1)))
    wrapped = [
        (line, colour) for text, colour in caption for line in _wrap(probe, text, width - 2 * PAD)
    ]
    top = PAD + len(wrapped) * CAPTION_LINE + PAD // 2
    board = sum(p.height for p in board_parts) + PAD * (len(board_parts) - 1)
    below = sum(c.height + PAD for c in callouts)
    image = Image.new("RGB", (width, top + board + below + (PAD if callouts else 0)), palette.PANEL)
    draw = ImageDraw.Draw(image)
    for index, (line, colour) in enumerate(wrapped):
        draw.text((PAD, PAD + index * CAPTION_LINE), line, font=face, fill=colour)
    y = top
    for part in board_parts:
        image.paste(part, ((width - part.width) // 2, y))
        y += part.height + PAD
    y = top + board + PAD
    for callout in callouts:
        image.paste(callout, (PAD, y))
        y += callout.height + PAD
    return image


def _wrap(probe: ImageDraw.ImageDraw, text: str, width: float) -> list[str]:
    face = font("bold", CAPTION_SIZE)
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        trial = f"{current} {word}".strip()
        if current and probe.textlength(trial, font=face) > width:
            lines.append(current)
            current = word
        else:
            current = trial
    lines.append(current)
    return lines
