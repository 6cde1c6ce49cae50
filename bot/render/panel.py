"""The panel under the board: turn and phase, storm order, reserves and tanks, a legend."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from bot.render import palette
from bot.render.fonts import font
from bot.render.geometry import BOARD_HEIGHT, WIDTH
from bot.render.overlays import LastShipment
from bot.render.sprites import sprite
from bot.render.tokens import TokenKind
from rules.factions import Faction
from rules.view import FactionPublic, PublicView

MARGIN = 16
CARD_GAP = 10
CARD_TOP = BOARD_HEIGHT + 58
CARD_HEIGHT = 178
LEGEND_TOP = CARD_TOP + CARD_HEIGHT + 14
STAR = "✹"


@dataclass(frozen=True, slots=True)
class Heading:
    """What the panel's first line says."""

    title: str
    turn: int | None
    last_shipment: LastShipment | None


def draw_panel(image: Image.Image, view: PublicView, heading: Heading) -> None:
    draw = ImageDraw.Draw(image)
    _draw_heading(draw, view, heading)
    order = list(view.storm_order) or [f.faction for f in view.factions]
    width = (WIDTH - 2 * MARGIN - (len(order) - 1) * CARD_GAP) / max(1, len(order))
    for index, faction in enumerate(order):
        left = MARGIN + index * (width + CARD_GAP)
        _draw_card(image, draw, view, faction, index, (left, left + width))
    _draw_legend(image, draw)
    if heading.last_shipment is not None:
        _draw_last_shipment(draw, heading.last_shipment)


def _draw_last_shipment(draw: ImageDraw.ImageDraw, shipment: LastShipment) -> None:
    where = shipment.territory
    if shipment.sector is not None:
        where = f"{where} · {shipment.sector}"
    count = "" if shipment.forces is None else f" {shipment.forces}"
    text = f"Last shipment: {shipment.faction.label}{count} → {where}"
    draw.text(
        (WIDTH - MARGIN, LEGEND_TOP + 3),
        text,
        font=font("bold", 20),
        fill=palette.PANEL_TEXT,
        anchor="ra",
    )


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


def _draw_legend(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
    x = float(MARGIN)
    for kind, faction, text in LEGEND:
        token = sprite(kind, faction, 28)
        image.paste(token, (round(x), LEGEND_TOP), token)
        x += 34
        draw.text((x, LEGEND_TOP + 3), text, font=font("regular", 20), fill=palette.PANEL_MUTED)
        x += draw.textlength(text, font=font("regular", 20)) + 26
    swatch = (x, LEGEND_TOP + 3, x + 28, LEGEND_TOP + 25)
    draw.rectangle(swatch, fill=palette.STORM, outline=palette.STORM_TEXT, width=2)
    draw.text((x + 34, LEGEND_TOP + 3), "storm", font=font("regular", 20), fill=palette.PANEL_MUTED)
