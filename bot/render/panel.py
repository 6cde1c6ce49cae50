"""The panel under the board: turn and phase, storm order, reserves and tanks, a legend."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from bot.render import palette
from bot.render.fonts import font
from bot.render.geometry import BOARD_HEIGHT, WIDTH, Box
from bot.render.overlays import LastKarama, LastShipment
from bot.render.sprites import sprite
from bot.render.tokens import TokenKind
from rules.factions import Faction
from rules.view import FactionPublic, PublicView

MARGIN = 16
CARD_GAP = 10
CARD_TOP = BOARD_HEIGHT + 58
CARD_HEIGHT = 178
LEGEND_TOP = CARD_TOP + CARD_HEIGHT + 14
FOOTER_TOP = LEGEND_TOP + 36
FOOTER_LINE = 28
FOOTER_SIZE = 20
STAR = "✹"


@dataclass(frozen=True, slots=True)
class Heading:
    """What the panel's first line says."""

    title: str
    turn: int | None
    last_shipment: LastShipment | None
    last_karama: LastKarama | None = None


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
    return PanelLayout(_legend_boxes(), footer)


def footer_texts(heading: Heading) -> list[str]:
    """The last shipment and the last Karama, in words."""
    return [text for text in (_shipment_text(heading), _karama_text(heading)) if text]


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
    order = list(view.storm_order) or [f.faction for f in view.factions]
    width = (WIDTH - 2 * MARGIN - (len(order) - 1) * CARD_GAP) / max(1, len(order))
    for index, faction in enumerate(order):
        left = MARGIN + index * (width + CARD_GAP)
        _draw_card(image, draw, view, faction, index, (left, left + width))
    _draw_legend(image, draw)
    for line in layout.footer:
        draw.text(line.box[:2], line.text, font=font("bold", FOOTER_SIZE), fill=palette.PANEL_TEXT)


def _draw_heading(draw: ImageDraw.ImageDraw, view: PublicView, heading: Heading) -> None:
    top = BOARD_HEIGHT + 12
    title = heading.title if heading.turn is None else f"Turn {heading.turn} · {heading.title}"
    draw.text((MARGIN, top), title, font=font("bold", 30), fill=palette.PANEL_TEXT)
    right = f"Storm in sector {view.storm_sector}"
    if view.phase_complete:
        right = f"Phase complete · {right}"
    draw.text(
        (WIDTH - MARGIN, top + 4),
        right,
        font=font("bold", 26),
        fill=palette.STORM_TEXT,
        anchor="ra",
    )


def _draw_card(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: PublicView,
    faction: Faction,
    index: int,
    span: tuple[float, float],
) -> None:
    left, right = span
    to_act = view.to_act == faction
    done = faction in view.done
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
    status, colour = _status(to_act, done)
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


def _fitting_font(draw: ImageDraw.ImageDraw, text: str, width: float) -> ImageFont.FreeTypeFont:
    for size in (24, 22, 20, 18):
        if draw.textlength(text, font=font("condensed", size)) <= width:
            break
    return font("condensed", size)


def _status(to_act: bool, done: bool) -> tuple[str, tuple[int, int, int]]:
    if to_act:
        return ("▶ to act", (255, 255, 255))
    if done:
        return ("✓ done", palette.PANEL_MUTED)
    return ("waiting", palette.PANEL_MUTED)


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


@cache
def _legend_boxes() -> tuple[Box, ...]:
    """Each legend entry's box (its token or swatch and its words), left to right."""
    boxes: list[Box] = []
    x = float(MARGIN)
    for _, _, text in (*LEGEND, (None, None, "storm")):
        right = x + 34 + _probe().textlength(text, font=font("regular", 20))
        boxes.append((x, float(LEGEND_TOP), right, float(LEGEND_TOP + 28)))
        x = right + 26
    return tuple(boxes)


def _draw_legend(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
    boxes = _legend_boxes()
    for (kind, faction, text), box in zip(LEGEND, boxes, strict=False):
        token = sprite(kind, faction, 28)
        image.paste(token, (round(box[0]), LEGEND_TOP), token)
        draw.text(
            (box[0] + 34, LEGEND_TOP + 3), text, font=font("regular", 20), fill=palette.PANEL_MUTED
        )
    x = boxes[-1][0]
    swatch = (x, LEGEND_TOP + 3, x + 28, LEGEND_TOP + 25)
    draw.rectangle(swatch, fill=palette.STORM, outline=palette.STORM_TEXT, width=2)
    draw.text((x + 34, LEGEND_TOP + 3), "storm", font=font("regular", 20), fill=palette.PANEL_MUTED)
