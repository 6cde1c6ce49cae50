"""``render_battle``: both battle plans side by side, as revealed, and how the battle ended.

Drawn only from a :class:`~bot.render.battle.reveal.BattleReveal` (public events; anything else
is refused, :func:`~bot.render.battle.reveal.check_reveal`), 800 pixels wide so that shown 400
wide on a phone its smallest text keeps 11 pixels. Each side is a column: the faction
(its colour and name, aggressor or defender), the leader and its strength (a Cheap Hero,
or none), the Kwisatz Haderach beside it, the number dialed and the spice paid for it, the
weapon and the defense (or none); under them how it ended for that side: the winner's
total (its column framed in gold), a traitor, a weapon that killed or was stopped, the
leaders that died, the forces lost and the spice paid or received. A lasgun and shield
explosion is a banner across both; a reveal still waiting for the traitor question says
so. :func:`draw_battle_and_layout` also returns where every text went (the tests'
:class:`BattleLayout`).
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render import palette
from bot.render.battle.reveal import BattleReveal, check_reveal
from bot.render.fonts import Font, font
from bot.render.geometry import Box
from bot.render.png import encode_png
from rules.battle.events import (
    BattleWon,
    KwisatzHaderachKilled,
    LasgunShield,
    PlanRevealed,
    TraitorCalled,
    WeaponStruck,
)
from rules.battle.model import CHEAP_HEROES
from rules.battle.plans import leader_worth
from rules.events import ForcesLost, LeaderKilled, SpicePaid, SpiceReceived
from rules.factions import Faction

WIDTH = 800
MARGIN = 12
GAP = 12
COLUMN = (WIDTH - 2 * MARGIN - GAP) // 2
TITLE_HEIGHT = 58
HEADER_HEIGHT = 54
ROW_HEIGHT = 42
LINE_HEIGHT = 30
LABEL_WIDTH = 106  # "Defense" at MIN_TEXT (82 pixels), and the pads
PAD = 12
MIN_TEXT = 22
"""The smallest text drawn: 11 pixels on a phone that shows the picture 400 wide."""
TEXT = 26
TITLE = 32
STRENGTH_DISC = 36
NAME_WIDTH = COLUMN - LABEL_WIDTH - PAD - STRENGTH_DISC - 6

GOLD: palette.RGB = (240, 198, 72)
RED: palette.RGB = (236, 92, 78)
SPICE: palette.RGB = (238, 150, 64)
GREEN: palette.RGB = (130, 206, 120)
COLUMN_FILL: palette.RGB = (46, 39, 35)
OUTLINE: palette.RGB = (96, 84, 74)
KH_BONUS = 2


@dataclass(frozen=True, slots=True)
class DrawnText:
    """One text of the picture: what it says, its role ("leader", "weapon", "result"...),
    the faction whose column holds it (None: across both), its box and its size."""

    text: str
    role: str
    faction: Faction | None
    box: Box
    size: int


@dataclass(frozen=True, slots=True)
class BattleLayout:
    width: int
    height: int
    texts: tuple[DrawnText, ...]
    columns: tuple[tuple[Faction, Box], ...]
    winner: Faction | None

    def of(self, role: str, faction: Faction | None = None) -> list[DrawnText]:
        return [t for t in self.texts if t.role == role and faction in (None, t.faction)]


def render_battle(reveal: BattleReveal) -> bytes:
    """The reveal's picture as PNG bytes. Raises TypeError for anything but a
    :class:`BattleReveal` of public events."""
    image, _ = draw_battle_and_layout(reveal)
    return encode_png(image)


def draw_battle_and_layout(reveal: BattleReveal) -> tuple[Image.Image, BattleLayout]:
    reveal = check_reveal(reveal)
    columns = [_Column(reveal, plan) for plan in reveal.plans]
    banners = _banners(reveal)
    body = max(c.height for c in columns)
    height = TITLE_HEIGHT + body + sum(b.height for b in banners) + MARGIN
    image = Image.new("RGB", (WIDTH, height), palette.BACKGROUND)
    draw = ImageDraw.Draw(image)
    texts: list[DrawnText] = []
    where = reveal.territory or "the battle"
    texts.append(_text(draw, (MARGIN, 14), f"Battle in {where}", "title", None, TITLE, WIDTH))
    if reveal.turn is not None:
        turn = f"Turn {reveal.turn}"
        texts.append(_text(draw, (WIDTH - MARGIN, 20), turn, "turn", None, MIN_TEXT, 140, "ra"))
    winner = _winner(reveal)
    boxes: list[tuple[Faction, Box]] = []
    for index, column in enumerate(columns):
        left = MARGIN + index * (COLUMN + GAP)
        box = (left, TITLE_HEIGHT, left + COLUMN, TITLE_HEIGHT + body)
        texts += column.draw(draw, box, winner is column.plan.faction, index == 0)
        boxes.append((column.plan.faction, box))
    y = TITLE_HEIGHT + body
    for banner in banners:
        texts += banner.draw(draw, y)
        y += banner.height
    layout = BattleLayout(WIDTH, height, tuple(texts), tuple(boxes), winner)
    return image, layout


def _winner(reveal: BattleReveal) -> Faction | None:
    won = [e for e in reveal.outcome if isinstance(e, BattleWon)]
    return won[-1].winner if won else None


# -- a side's column ------------------------------------------------------------------


Line = tuple[str, palette.RGB, str]  # a result line: its words, colour, font style


class _Column:
    def __init__(self, reveal: BattleReveal, plan: PlanRevealed) -> None:
        self.reveal, self.plan = reveal, plan
        self.lines = _result_lines(reveal, plan)
        self.wrapped = sum(len(_wrap(text, style)) for text, _, style in self.lines)
        rows = 4 + (1 if plan.kwisatz_haderach else 0)
        results = self.wrapped * LINE_HEIGHT + (PAD if self.lines else 0)
        self.height = HEADER_HEIGHT + rows * ROW_HEIGHT + PAD + results + PAD

    def draw(
        self, draw: ImageDraw.ImageDraw, box: Box, winner: bool, aggressor: bool
    ) -> list[DrawnText]:
        plan, faction = self.plan, self.plan.faction
        left, top, right, bottom = (int(v) for v in box)
        draw.rectangle((left, top, right, bottom), fill=COLUMN_FILL)
        colour = palette.FACTION[faction]
        draw.rectangle((left, top, right, top + HEADER_HEIGHT), fill=colour)
        draw.line((left, top + HEADER_HEIGHT, right, top + HEADER_HEIGHT), fill=palette.RING)
        ink = palette.FACTION_TEXT[faction]
        texts = [
            _text(draw, (left + PAD, top + 12), faction.label, "faction", faction, 28, 230, ink=ink)
        ]
        role = "Winner" if winner else ("Aggressor" if aggressor else "Defender")
        texts.append(
            _text(draw, (right - PAD, top + 16), role, "side", faction, MIN_TEXT, 120, "ra", ink)
        )
        y = top + HEADER_HEIGHT + PAD // 2
        texts += self._leader(draw, left, right, y)
        y += ROW_HEIGHT
        if plan.kwisatz_haderach:
            texts += self._row(
                draw, left, y, "With", "Kwisatz Haderach", "kwisatz_haderach", width=NAME_WIDTH
            )
            texts += self._disc(draw, right, y, f"+{KH_BONUS}", "kh_bonus", GOLD, dead=False)
            y += ROW_HEIGHT
        texts += self._number(draw, left, y)
        y += ROW_HEIGHT
        texts += self._row(draw, left, y, "Weapon", plan.weapon, "weapon")
        y += ROW_HEIGHT
        texts += self._row(draw, left, y, "Defense", plan.defense, "defense")
        y += ROW_HEIGHT + PAD
        if self.lines:
            draw.line((left + PAD, y - PAD // 2, right - PAD, y - PAD // 2), fill=palette.RING)
        for text, colour, style in self.lines:
            for part in _wrap(text, style):
                texts.append(
                    _text(
                        draw,
                        (left + PAD, y),
                        part,
                        "result",
                        faction,
                        MIN_TEXT,
                        COLUMN - 2 * PAD,
                        ink=colour,
                        style=style,
                    )
                )
                y += LINE_HEIGHT
        outline, width = (GOLD, 4) if winner else (OUTLINE, 2)
        draw.rectangle((left, top, right, bottom), outline=outline, width=width)
        return texts

    def _leader(self, draw: ImageDraw.ImageDraw, left: int, right: int, y: int) -> list[DrawnText]:
        leader = self.plan.leader
        texts = self._row(draw, left, y, "Leader", leader, "leader", width=NAME_WIDTH)
        if leader is None or leader in CHEAP_HEROES:
            return texts
        dead = self._dies(leader)
        if dead:
            name = texts[-1].box
            mid = (name[1] + name[3]) / 2
            draw.line((name[0], mid, name[2], mid), fill=RED, width=3)
        strength = str(leader_worth(leader))
        return texts + self._disc(draw, right, y, strength, "strength", palette.PANEL_TEXT, dead)

    def _disc(
        self,
        draw: ImageDraw.ImageDraw,
        right: int,
        y: int,
        text: str,
        role: str,
        fill: palette.RGB,
        dead: bool,
    ) -> list[DrawnText]:
        """A number in a disc at the row's right end (a leader's strength, the Kwisatz
        Haderach's bonus); ringed in red for a leader that died."""
        cx, cy, r = right - PAD - STRENGTH_DISC // 2, y + ROW_HEIGHT // 2 - 2, STRENGTH_DISC // 2
        draw.ellipse(
            (cx - r, cy - r, cx + r, cy + r),
            fill=fill,
            outline=RED if dead else palette.RING,
            width=3,
        )
        return [
            _text(
                draw,
                (cx, cy),
                text,
                role,
                self.plan.faction,
                MIN_TEXT,
                STRENGTH_DISC - 2,
                "mm",
                (30, 24, 20),
                style="bold",
            )
        ]

    def _dies(self, leader: str) -> bool:
        return any(isinstance(e, LeaderKilled) and e.leader == leader for e in self.reveal.outcome)

    def _number(self, draw: ImageDraw.ImageDraw, left: int, y: int) -> list[DrawnText]:
        number = _number_text(self.plan.number)
        texts = [self._label(draw, left, y, "Number")]
        texts.append(
            _text(
                draw,
                (left + LABEL_WIDTH, y + 2),
                number,
                "number",
                self.plan.faction,
                30,
                80,
                style="bold",
            )
        )
        if self.plan.spice:
            at = texts[-1].box[2] + 12
            spice = f"backed by {self.plan.spice} spice"
            texts.append(
                _text(
                    draw,
                    (at, y + 8),
                    spice,
                    "spice",
                    self.plan.faction,
                    MIN_TEXT,
                    int(left + COLUMN - PAD - at),
                    ink=SPICE,
                )
            )
        return texts

    def _row(
        self,
        draw: ImageDraw.ImageDraw,
        left: int,
        y: int,
        label: str,
        value: str | None,
        role: str,
        *,
        width: int = COLUMN - LABEL_WIDTH - PAD,
    ) -> list[DrawnText]:
        ink = palette.PANEL_TEXT if value else palette.PANEL_MUTED
        shown = value or "none"
        at = (left + LABEL_WIDTH, y + 4)
        return [
            self._label(draw, left, y, label),
            _text(draw, at, shown, role, self.plan.faction, TEXT, width, ink=ink),
        ]

    def _label(self, draw: ImageDraw.ImageDraw, left: int, y: int, label: str) -> DrawnText:
        return _text(
            draw,
            (left + PAD, y + 8),
            label,
            "label",
            self.plan.faction,
            MIN_TEXT,
            LABEL_WIDTH - PAD - 4,
            ink=palette.PANEL_MUTED,
            style="regular",
        )


def _result_lines(reveal: BattleReveal, plan: PlanRevealed) -> list[Line]:
    """How the battle ended for ``plan``'s side, in the order it happened."""
    side = plan.faction
    lines: list[Line] = []
    struck: set[str] = set()
    for event in reveal.outcome:
        match event:
            case BattleWon(winner=winner, winner_total=won, loser_total=lost, rule=rule):
                treachery = rule == "1.07.06.06"
                if winner is side:
                    says = "Wins by treachery" if treachery else f"Wins {_n(won)} to {_n(lost)}"
                    lines.insert(0, (says, GOLD, "bold"))
                else:
                    says = "Loses by treachery" if treachery else f"Loses {_n(lost)} to {_n(won)}"
                    lines.insert(0, (says, RED, "bold"))
            case TraitorCalled(faction=caller, leader=leader, against=against):
                if against is side:
                    lines.append((f"Traitor! {leader} betrays them", RED, "bold"))
                else:
                    by = "" if caller is side else f" by {caller.label}"
                    lines.append((f"Traitor called{by}: {leader}", GOLD, "bold"))
            case WeaponStruck(card=card, target=target, killed=killed, defense=defense):
                if event.faction is side:
                    continue
                if killed:
                    struck.add(target)
                    lines.append((f"{card} kills {target}", RED, "condensed"))
                else:
                    lines.append((f"{defense} stops {card}", GREEN, "condensed"))
            case LeaderKilled(leader=leader) if leader == plan.leader and leader not in struck:
                lines.append((f"{leader} dies", RED, "condensed"))
            case KwisatzHaderachKilled() if plan.kwisatz_haderach:
                lines.append(("The Kwisatz Haderach dies", RED, "condensed"))
            case ForcesLost(faction=faction) as lost if faction is side:
                count = lost.forces + lost.special + lost.advisors
                lines.append((f"Loses {count} force{'s' if count != 1 else ''}", RED, "condensed"))
            case SpicePaid(faction=faction, amount=amount) if faction is side:
                lines.append((f"Pays {amount} spice", SPICE, "condensed"))
            case SpiceReceived(faction=faction, amount=amount) if faction is side:
                lines.append((f"Receives {amount} spice", SPICE, "condensed"))
    return lines


# -- banners across both columns ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Banner:
    text: str
    ink: palette.RGB
    fill: palette.RGB
    role: str

    @property
    def height(self) -> int:
        return (
            len(_wrap(self.text, "bold", WIDTH - 2 * MARGIN - 2 * PAD)) * LINE_HEIGHT
            + 2 * PAD
            + GAP // 2
        )

    def draw(self, draw: ImageDraw.ImageDraw, y: int) -> list[DrawnText]:
        top = y + GAP // 2
        draw.rectangle((MARGIN, top, WIDTH - MARGIN, y + self.height), fill=self.fill)
        texts = []
        line_y = top + PAD
        for part in _wrap(self.text, "bold", WIDTH - 2 * MARGIN - 2 * PAD):
            texts.append(
                _text(
                    draw,
                    (MARGIN + PAD, line_y),
                    part,
                    self.role,
                    None,
                    MIN_TEXT,
                    WIDTH - 2 * MARGIN - 2 * PAD,
                    ink=self.ink,
                    style="bold",
                )
            )
            line_y += LINE_HEIGHT
        return texts


def _banners(reveal: BattleReveal) -> list[_Banner]:
    out: list[_Banner] = []
    for event in reveal.outcome:
        if isinstance(event, LasgunShield):
            lost = f"; {event.spice_lost} spice there is lost" if event.spice_lost else ""
            text = f"Lasgun and shield explode: everything in {event.territory} dies{lost}"
            out.append(_Banner(text, (255, 236, 210), (150, 40, 30), "explosion"))
    called = [e for e in reveal.outcome if isinstance(e, TraitorCalled)]
    if len(called) == 2:
        text = "Both leaders are traitors: both sides lose everything"
        out.append(_Banner(text, (255, 236, 210), (110, 40, 60), "two_traitors"))
    if not reveal.resolved:
        text = "The traitor question comes first; the result follows"
        out.append(_Banner(text, palette.PANEL_TEXT, palette.PANEL, "waiting"))
    return out


# -- text -------------------------------------------------------------------------------


def _n(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _number_text(value: float) -> str:
    return _n(value)


def _text(
    draw: ImageDraw.ImageDraw,
    at: tuple[float, float],
    text: str,
    role: str,
    faction: Faction | None,
    size: int,
    width: int,
    anchor: str = "la",
    ink: palette.RGB = palette.PANEL_TEXT,
    style: str = "condensed",
) -> DrawnText:
    """Draw ``text`` at ``size``, smaller (down to :data:`MIN_TEXT`, then in the regular
    face) if it is wider than ``width``, cut with an ellipsis if even that is too wide;
    returns where it went."""
    face, shown = _fit(text, style, size, width)
    draw.text(at, shown, font=face, fill=ink, anchor=anchor)
    box = draw.textbbox(at, shown, font=face, anchor=anchor)
    return DrawnText(shown, role, faction, tuple(float(v) for v in box), int(face.size))  # type: ignore[arg-type]


def _fit(text: str, style: str, size: int, width: int) -> tuple[Font, str]:
    for points in range(size, MIN_TEXT - 1, -2):
        face = font(style, points)
        if face.getlength(text) <= width:
            return face, text
    face = font("regular", MIN_TEXT)  # narrower than the bold faces
    if face.getlength(text) <= width:
        return face, text
    while len(text) > 1 and face.getlength(text + "…") > width:
        text = text[:-1]
    return face, text + "…"


def _wrap(text: str, style: str, width: int = COLUMN - 2 * PAD) -> list[str]:
    """``text`` in lines of at most ``width`` pixels at :data:`MIN_TEXT` (words kept)."""
    face = font(style, MIN_TEXT)
    lines: list[str] = []
    for word in text.split():
        if lines and face.getlength(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines or [""]
