"""The panel under the board: turn and phase, storm order, reserves and tanks, a legend."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from bot.render import palette
from bot.render.fonts import font
from bot.render.geometry import BOARD_HEIGHT, WIDTH, Box
from bot.render.overlays import LastKarama, LastShipment
from bot.render.sprites import sprite
from bot.render.tokens import TokenKind
from bot.render.turn_marks import ARROW, WORM, StormPath, WormSign, worms_text
from bot.words.turn import phase_name
from rules.factions import Faction
from rules.position import storm_order
from rules.view import FactionPublic, GameView, PublicView

MARGIN = 16
CARD_GAP = 10
CARD_TOP = BOARD_HEIGHT + 58
CARD_HEIGHT = 178
LEGEND_TOP = CARD_TOP + CARD_HEIGHT + 14
FOOTER_TOP = LEGEND_TOP + 36
FOOTER_LINE = 28
FOOTER_SIZE = 20
STAR = "✹"
PATH_SWATCH = (92, 84, 96)
"""The storm's path hatching as it looks over the ring."""


@dataclass(frozen=True, slots=True)
class Heading:
    """What the panel's first line says."""

    title: str
    turn: int | None
    last_shipment: LastShipment | None
    last_karama: LastKarama | None = None
    last_turn: int | None = None
    storm_path: StormPath | None = None
    """The storm's move this turn (a whole game): said beside the storm's sector."""
    worms: tuple[WormSign, ...] = ()
    """The territories a worm struck this turn and what it took: a line under the legend."""

    @property
    def turn_text(self) -> str:
        """``Turn 3 of 10 · Spice Blow``; the title alone when no turn is known."""
        if self.turn is None:
            return self.title
        of = f" of {self.last_turn}" if self.last_turn is not None else ""
        return f"Turn {self.turn}{of} · {self.title}"


def for_view(view: PublicView, heading: Heading) -> Heading:
    """A game's heading says its own turn and phase (``view.game``); a Shipment &
    Movement phase played alone keeps the heading it was given."""
    path = heading.storm_path
    if path is not None and path.end != view.storm_sector:  # corrected since: not drawn
        heading = replace(heading, storm_path=None)
    game = view.game
    if game.alone:
        return heading
    return replace(heading, title=phase_name(game.phase), turn=game.turn, last_turn=game.last_turn)


def storm_text(view: PublicView, heading: Heading) -> str:
    """``Storm in sector 5``, and this turn's move when known (``· moved 3 sectors from 2``)."""
    text = f"Storm in sector {view.storm_sector}"
    path = for_view(view, heading).storm_path
    return text if path is None else f"{text} · {path.text}"


@dataclass(frozen=True, slots=True)
class FooterLine:
    """A line under the legend saying what just happened, and the box it covers."""

    text: str
    box: Box


@dataclass(frozen=True, slots=True)
class PanelLayout:
    """Where the panel's legend entries and footer lines go (tests check them for overlap)."""

    legend: tuple[Box, ...]
    footer: tuple[FooterLine, ...]

    @property
    def boxes(self) -> tuple[Box, ...]:
        return self.legend + tuple(line.box for line in self.footer)


def layout_panel(heading: Heading) -> PanelLayout:
    footer = tuple(
        FooterLine(text, _text_box((MARGIN, FOOTER_TOP + i * FOOTER_LINE), text))
        for i, text in enumerate(footer_texts(heading))
    )
    return PanelLayout(_legend_boxes(_legend_extras(heading)), footer)


def footer_texts(heading: Heading) -> list[str]:
    """The last shipment, the last Karama and this turn's worms, in words."""
    texts = (_shipment_text(heading), _karama_text(heading), worms_text(heading.worms))
    return [text for text in texts if text]


def _text_box(at: tuple[float, float], text: str) -> Box:
    box = _probe().textbbox(at, text, font=font("bold", FOOTER_SIZE))
    return (float(box[0]), float(box[1]), float(box[2]), float(box[3]))


@cache
def _probe() -> ImageDraw.ImageDraw:
    return ImageDraw.Draw(Image.new("L", (1, 1)))


def _shipment_text(heading: Heading) -> str | None:
    shipment = heading.last_shipment
    if shipment is None:
        return None
    where = shipment.territory
    if shipment.sector is not None:
        where = f"{where} (sector {shipment.sector})"
    if shipment.forces is None:
        return f"Last shipment: {shipment.faction.label} to {where}"
    plural = "s" if shipment.forces != 1 else ""
    return f"Last shipment: {shipment.faction.label}, {shipment.forces} force{plural} to {where}"


def _karama_text(heading: Heading) -> str | None:
    return heading.last_karama.text if heading.last_karama is not None else None


def draw_panel(image: Image.Image, view: PublicView, heading: Heading) -> None:
    draw_panel_from(image, view, heading, layout_panel(heading))


def draw_panel_from(
    image: Image.Image, view: PublicView, heading: Heading, layout: PanelLayout
) -> None:
    draw = ImageDraw.Draw(image)
    _draw_heading(draw, view, heading)
    order = _storm_order(view)
    width = (WIDTH - 2 * MARGIN - (len(order) - 1) * CARD_GAP) / max(1, len(order))
    for index, faction in enumerate(order):
        left = MARGIN + index * (width + CARD_GAP)
        _draw_card(image, draw, view, faction, index, (left, left + width))
    _draw_legend(image, draw, heading)
    for line in layout.footer:
        draw.text(line.box[:2], line.text, font=font("bold", FOOTER_SIZE), fill=palette.PANEL_TEXT)


def _draw_heading(draw: ImageDraw.ImageDraw, view: PublicView, heading: Heading) -> None:
    top = BOARD_HEIGHT + 12
    title = font("bold", 30)
    draw.text((MARGIN, top), heading.turn_text, font=title, fill=palette.PANEL_TEXT)
    right = storm_text(view, heading)
    if view.phase_complete and view.game.in_shipment_movement:
        right = f"Phase complete · {right}"
    room = WIDTH - 2 * MARGIN - draw.textlength(heading.turn_text, font=title) - HEADING_GAP
    draw.text(
        (WIDTH - MARGIN, top + 4),
        right,
        font=_heading_font(draw, right, room),
        fill=palette.STORM_TEXT,
        anchor="ra",
    )


HEADING_GAP = 24  # between the turn's title and the storm's words at its right


def _heading_font(draw: ImageDraw.ImageDraw, text: str, width: float) -> ImageFont.FreeTypeFont:
    """The storm's words beside the title: 26 px, smaller (condensed) when they would
    run into the title (a whole game's phase complete, with the storm's path)."""
    if draw.textlength(text, font=font("bold", 26)) <= width:
        return font("bold", 26)
    for size in (24, 22, 20, 18, 16):
        if draw.textlength(text, font=font("condensed", size)) <= width:
            break
    return font("condensed", size)


def _draw_card(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: PublicView,
    faction: Faction,
    index: int,
    span: tuple[float, float],
) -> None:
    left, right = span
    to_act, done = _acting(view, faction)
    box = (left, CARD_TOP, right, CARD_TOP + CARD_HEIGHT)
    fill = (62, 52, 46) if to_act else (46, 39, 35)
    outline = (255, 255, 255) if to_act else (80, 70, 62)
    draw.rounded_rectangle(box, radius=10, fill=fill, outline=outline, width=4 if to_act else 2)
    strip = (left + 4, CARD_TOP + 4, right - 4, CARD_TOP + 12)
    draw.rectangle(strip, fill=palette.FACTION[faction])
    token = sprite(TokenKind.FORCES, faction, 30)
    image.paste(token, (round(left + 10), CARD_TOP + 20), token)
    name = f"{index + 1}. {faction.label}"
    draw.text(
        (left + 48, CARD_TOP + 22),
        name,
        font=_fitting_font(draw, name, right - left - 56),
        fill=palette.PANEL_TEXT,
    )
    status, colour = _status(to_act, done, view.game)
    if faction in view.game.winner:
        status, colour = "★ winner", palette.STORM_TEXT
    draw.text((left + 12, CARD_TOP + 58), status, font=font("bold", 20), fill=colour)
    _draw_numbers(draw, view.faction(faction) if _has(view, faction) else None, left)
    ally = _ally(view, faction)
    if ally is not None:
        draw.text(
            (left + 12, CARD_TOP + 148),
            f"Ally: {ally.label}",
            font=font("regular", 20),
            fill=palette.PANEL_MUTED,
        )


def _storm_order(view: PublicView) -> list[Faction]:
    """The phase's order; outside the Shipment & Movement phase a whole game's is the
    storm's (1.01.01): the view's phase order is then the last Shipment & Movement's."""
    if not view.game.in_shipment_movement or not view.storm_order:
        return list(storm_order(view.seats, view.storm_sector))
    return list(view.storm_order)


def _acting(view: PublicView, faction: Faction) -> tuple[bool, bool]:
    """(to act, done): in a whole game's other phases, whom the game waits for."""
    if view.game.in_shipment_movement:
        return view.to_act == faction, faction in view.done
    return faction in view.game.waiting, False


def _fitting_font(draw: ImageDraw.ImageDraw, text: str, width: float) -> ImageFont.FreeTypeFont:
    for size in (24, 22, 20, 18):
        if draw.textlength(text, font=font("condensed", size)) <= width:
            break
    return font("condensed", size)


def _status(to_act: bool, done: bool, game: GameView) -> tuple[str, tuple[int, int, int]]:
    if to_act:
        return ("▶ to act", (255, 255, 255))
    if done:
        return ("✓ done", palette.PANEL_MUTED)
    return ("waiting" if game.in_shipment_movement else "", palette.PANEL_MUTED)


def _draw_numbers(draw: ImageDraw.ImageDraw, standing: FactionPublic | None, left: float) -> None:
    if standing is None:
        return
    rows = (
        ("Reserves", _count(standing.reserves, standing.special_reserves)),
        ("Tanks", _count(standing.tanks, standing.special_tanks)),
        ("Cards", str(standing.cards_held)),
    )
    for row, (name, value) in enumerate(rows):
        y = CARD_TOP + 86 + row * 21
        draw.text((left + 12, y), name, font=font("regular", 20), fill=palette.PANEL_MUTED)
        draw.text((left + 110, y), value, font=font("bold", 20), fill=palette.PANEL_TEXT)


def _count(forces: int, special: int) -> str:
    return f"{forces} + {special}{STAR}" if special else str(forces)


def _has(view: PublicView, faction: Faction) -> bool:
    return any(f.faction == faction for f in view.factions)


def _ally(view: PublicView, faction: Faction) -> Faction | None:
    for alliance in view.alliances:
        if faction in alliance:
            return next((f for f in alliance if f != faction), None)
    return None


LEGEND = (
    (TokenKind.FORCES, Faction.ATREIDES, "forces"),
    (TokenKind.SPECIAL, Faction.EMPEROR, f"starred {STAR} (Sardaukar, Fedaykin)"),
    (TokenKind.ADVISORS, Faction.BENE_GESSERIT, "BG advisors"),
    (TokenKind.SPICE, None, "spice"),
)


STORM_PATH_ENTRY = "storm's path"
WORM_ENTRY = "Shai-Hulud"


def _legend_extras(heading: Heading) -> tuple[str, ...]:
    """The whole turn's marks drawn on this map, which the legend explains too."""
    extras = (STORM_PATH_ENTRY,) if heading.storm_path is not None else ()
    return extras + ((WORM_ENTRY,) if heading.worms else ())


@cache
def _legend_boxes(extras: tuple[str, ...] = ()) -> tuple[Box, ...]:
    """Each legend entry's box (its token or swatch and its words), left to right."""
    boxes: list[Box] = []
    x = float(MARGIN)
    for text in (*(text for _, _, text in LEGEND), "storm", *extras):
        right = x + 34 + _probe().textlength(text, font=font("regular", 20))
        boxes.append((x, float(LEGEND_TOP), right, float(LEGEND_TOP + 28)))
        x = right + 26
    return tuple(boxes)


def _draw_legend(image: Image.Image, draw: ImageDraw.ImageDraw, heading: Heading) -> None:
    extras = _legend_extras(heading)
    boxes = _legend_boxes(extras)
    for (kind, faction, text), box in zip(LEGEND, boxes, strict=False):
        token = sprite(kind, faction, 28)
        image.paste(token, (round(box[0]), LEGEND_TOP), token)
        draw.text(
            (box[0] + 34, LEGEND_TOP + 3), text, font=font("regular", 20), fill=palette.PANEL_MUTED
        )
    x = boxes[len(LEGEND)][0]
    swatch = (x, LEGEND_TOP + 3, x + 28, LEGEND_TOP + 25)
    draw.rectangle(swatch, fill=palette.STORM, outline=palette.STORM_TEXT, width=2)
    draw.text((x + 34, LEGEND_TOP + 3), "storm", font=font("regular", 20), fill=palette.PANEL_MUTED)
    for text, box in zip(extras, boxes[len(LEGEND) + 1 :], strict=True):
        x = box[0]
        if text == STORM_PATH_ENTRY:
            draw.rectangle((x, LEGEND_TOP + 3, x + 28, LEGEND_TOP + 25), fill=PATH_SWATCH)
            draw.line((x + 2, LEGEND_TOP + 20, x + 26, LEGEND_TOP + 20), fill=ARROW, width=3)
        else:
            draw.rectangle((x + 2, LEGEND_TOP + 5, x + 26, LEGEND_TOP + 23), outline=WORM, width=4)
        draw.text(
            (x + 34, LEGEND_TOP + 3), text, font=font("regular", 20), fill=palette.PANEL_MUTED
        )
