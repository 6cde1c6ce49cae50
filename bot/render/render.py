"""``render_map``: a public view in, PNG bytes out."""

from __future__ import annotations

import math
from collections.abc import Iterable

from PIL import Image, ImageDraw, ImageFont

from bot.render import palette
from bot.render.board_image import board_image
from bot.render.fonts import font
from bot.render.geometry import Box, Point
from bot.render.layout import Leader, MapLayout, layout_map
from bot.render.names import paste_labels
from bot.render.overlays import (
    LastKarama,
    LastMove,
    LastShipment,
    draw_highlights,
    draw_last_move,
    draw_last_shipment,
    draw_seats,
    draw_storm,
)
from bot.render.panel import Heading, draw_panel_from, for_view
from bot.render.png import encode_png
from bot.render.sprites import count_colour, sprite
from bot.render.tokens import CALLOUT_WIDTH, Callout, PlacedToken, Placement, TokenLayout
from bot.render.turn_marks import (
    StormPath,
    WormSign,
    draw_storm_arrow,
    draw_storm_path,
    draw_worm,
)
from rules.board import Piece
from rules.factions import Faction
from rules.view import PublicView


def render_map(
    view: PublicView,
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
    """Draw the board as everyone may see it and return it as a PNG.

    ``highlight`` tints pieces (legal destinations of a selected group, for a
    player's own preview); ``last_move`` draws the path of the last move and
    ``last_shipment`` marks where the last shipment landed; ``last_shipment`` and
    ``last_karama`` are written under the legend. In a whole game (``view.game``) the
    panel says the turn and phase; ``storm_path`` (the storm's move this turn) hatches the
    rim over the sectors it passed, and ``worms`` mark the territories a worm struck.

    Raises TypeError when ``view`` is anything but a :class:`PublicView`
    (a private view must never become a picture that could be posted).
    """
    image = draw_map(
        view,
        title=title,
        turn=turn,
        highlight=highlight,
        last_move=last_move,
        last_shipment=last_shipment,
        last_karama=last_karama,
        storm_path=storm_path,
        worms=worms,
    )
    return encode_png(image)


def draw_map(
    view: PublicView,
    *,
    title: str = "Shipment & Movement",
    turn: int | None = None,
    highlight: Iterable[Piece] = (),
    last_move: LastMove | None = None,
    last_shipment: LastShipment | None = None,
    last_karama: LastKarama | None = None,
    storm_path: StormPath | None = None,
    worms: tuple[WormSign, ...] = (),
) -> Image.Image:
    """The picture of :func:`render_map` before encoding."""
    image, _ = draw_map_and_layout(
        view,
        Heading(title, turn, last_shipment, last_karama, storm_path=storm_path, worms=worms),
        highlight=highlight,
        last_move=last_move,
    )
    return image


def check_public(view: PublicView, who: str = "render_map") -> None:
    """Raise TypeError unless ``view`` is exactly a :class:`PublicView`."""
    if type(view) is not PublicView:
        raise TypeError(
            f"{who} draws only a PublicView, not {type(view).__name__}: "
            "private information must never reach a picture"
        )


def draw_map_and_layout(
    view: PublicView,
    heading: Heading,
    *,
    highlight: Iterable[Piece] = (),
    last_move: LastMove | None = None,
    panel: bool = True,
) -> tuple[Image.Image, MapLayout]:
    """The picture and the layout it was drawn from (names, tokens, panel boxes).

    ``panel=False`` leaves the panel's area blank: for a close-up, which crops only the
    board and the callouts (no callout overlaps the panel: ``test_render_layout``)."""
    check_public(view)
    heading = for_view(view, heading)
    layout = layout_map(view, heading)
    image = _canvas(layout.height)
    if heading.storm_path is not None:
        draw_storm_path(image, heading.storm_path)
    draw_storm(image, view.storm_sector)
    if heading.storm_path is not None:
        draw_storm_arrow(image, heading.storm_path)
    draw_seats(image, view.seats)
    draw_highlights(image, highlight)
    for worm in heading.worms:
        draw_worm(image, worm)
    if heading.last_shipment is not None:
        draw_last_shipment(image, heading.last_shipment)
    if last_move is not None:
        draw_last_move(image, last_move, _token_of(layout.tokens, last_move.faction))
    _draw_callout_lines(image, layout.tokens)
    _draw_leaders(image, layout.leaders)
    paste_labels(image, layout.names)  # over the storm, the arrow and the lines
    _draw_tokens(image, layout.tokens)
    paste_labels(image, layout.piece_names)
    if panel:
        draw_panel_from(image, view, heading, layout.panel)
    return image, layout


def _draw_leaders(image: Image.Image, leaders: tuple[Leader, ...]) -> None:
    draw = ImageDraw.Draw(image)
    for leader in leaders:
        draw.line((leader.start, leader.end), fill=(255, 255, 255), width=4)
        draw.line((leader.start, leader.end), fill=(60, 40, 25), width=2)


def _canvas(height: int) -> Image.Image:
    board = board_image()
    if height == board.height:
        return board.copy()
    image = Image.new("RGB", (board.width, height), palette.PANEL)
    image.paste(board, (0, 0))
    return image


def _token_of(layout: TokenLayout, faction: Faction) -> dict[Piece, Box]:
    """The faction's first token in each piece it is drawn in on the disc."""
    result: dict[Piece, Box] = {}
    for placed in layout.tokens:
        on_disc = placed.placement is not Placement.CALLOUT
        if on_disc and placed.token.faction == faction:
            result.setdefault(placed.token.piece, placed.box)
    return result


def _draw_tokens(image: Image.Image, layout: TokenLayout) -> None:
    draw = ImageDraw.Draw(image)
    for callout in layout.callouts:
        _draw_callout_frame(draw, callout)
    for placed in layout.tokens:
        _draw_token(image, draw, placed)


def _draw_callout_lines(image: Image.Image, layout: TokenLayout) -> None:
    """Lines from crowded pieces to their callouts (drawn under the names)."""
    draw = ImageDraw.Draw(image)
    for callout in layout.callouts:
        if callout.anchor is not None:
            start = _nearest_on_box(callout.box, callout.anchor)
            draw.line((start, callout.anchor), fill=(0, 0, 0), width=4)
            draw.line((start, callout.anchor), fill=(255, 255, 255), width=2)


def _draw_callout_frame(draw: ImageDraw.ImageDraw, callout: Callout) -> None:
    left, top = callout.box[:2]
    draw.rounded_rectangle(callout.box, radius=8, fill=(250, 244, 232), outline=(0, 0, 0), width=2)
    name = callout.territory
    if callout.sector is not None:
        name = f"{name}, sector {callout.sector}"
    draw.text((left + 8, top + 5), name, font=_header_font(name), fill=(40, 30, 20))


def _header_font(name: str) -> ImageFont.FreeTypeFont:
    """The largest size (17 down to 12) at which a callout's header fits its box."""
    for size in (17, 16, 15, 14, 13):
        if font("condensed", size).getlength(name) <= CALLOUT_WIDTH - 14:
            return font("condensed", size)
    return font("condensed", 12)


def _nearest_on_box(box: Box, point: Point) -> Point:
    return (min(max(point[0], box[0]), box[2]), min(max(point[1], box[1]), box[3]))


def _draw_token(image: Image.Image, draw: ImageDraw.ImageDraw, placed: PlacedToken) -> None:
    left, top, right, _ = placed.box
    size = round(right - left)
    token = placed.token
    picture = sprite(token.kind, token.faction, size)
    image.paste(picture, (round(left), round(top)), picture)
    if placed.placement is Placement.MARKER:
        return
    text = str(token.count)
    points = max(10, math.floor(size * (0.5 if len(text) < 2 else 0.42)))
    centre = (left + size / 2, top + size / 2 + (1 if token.kind == "spice" else 0))
    draw.text(
        centre,
        text,
        font=font("bold", points),
        fill=count_colour(token.kind, token.faction),
        anchor="mm",
    )
