"""Territory names: where each goes, the pixels it covers and its picture.

Each name is drawn once into a small transparent patch (text with a halo,
turned when the name runs along a thin territory) and pasted where it goes:
on the static board, and again over the storm and the marks of the last
move, so nothing drawn on the board hides a name. ``Label.boxes`` is the
name's footprint (one box, or a run of boxes along turned text); tokens keep
clear of it and the tests check it against everything else on the picture.
Placements come from ``labels.json`` (made by :mod:`bot.render.label_fit`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from bot.render import palette
from bot.render.fonts import font
from bot.render.geometry import Box, Point, territory_kind, territory_label_points, to_point
from bot.render.regions import territory_mask

LABEL_SIZE = 17
HALO = 2
MARGIN = 2
"""Pixels a name keeps from its territory's border (the border line is about 2 px wide)."""
STRIP = 8
"""Pixels per box of a turned name's footprint."""


@dataclass(frozen=True, slots=True)
class Label:
    """A territory name as drawn: its lines, size, turn and the boxes it covers."""

    territory: str
    lines: tuple[str, ...]
    centre: Point
    size: int
    angle: int
    """Degrees counterclockwise; 0 is level."""
    offset: tuple[int, int]
    """Where the patch's top-left corner is pasted."""
    boxes: tuple[Box, ...]

    @property
    def box(self) -> Box:
        return (
            min(b[0] for b in self.boxes),
            min(b[1] for b in self.boxes),
            max(b[2] for b in self.boxes),
            max(b[3] for b in self.boxes),
        )

    @property
    def patch(self) -> Image.Image:
        return label_patch(self.territory, self.lines, self.size, self.angle)


def make_label(
    territory: str, lines: tuple[str, ...], size: int, angle: int, centre: Point
) -> Label:
    patch = label_patch(territory, lines, size, angle)
    offset = (round(centre[0] - patch.width / 2), round(centre[1] - patch.height / 2))
    boxes = tuple(
        (b[0] + offset[0], b[1] + offset[1], b[2] + offset[0], b[3] + offset[1])
        for b in _footprint(territory, lines, size, angle)
    )
    return Label(territory, lines, centre, size, angle, offset, boxes)


@cache
def label_patch(territory: str, lines: tuple[str, ...], size: int, angle: int) -> Image.Image:
    """The name as an RGBA picture (halo included), turned by ``angle`` degrees."""
    kind = territory_kind(territory)
    text = "\n".join(lines)
    face = font("condensed", size)
    probe = ImageDraw.Draw(Image.new("L", (1, 1)))
    left, top, right, bottom = (
        round(v)
        for v in probe.multiline_textbbox(
            (0, 0), text, font=face, align="center", spacing=0, stroke_width=HALO
        )
    )
    patch = Image.new("RGBA", (right - left + 2, bottom - top + 2), (0, 0, 0, 0))
    ImageDraw.Draw(patch).multiline_text(
        (1 - left, 1 - top),
        text,
        font=face,
        fill=palette.LABEL_TEXT[kind],
        align="center",
        spacing=0,
        stroke_width=HALO,
        stroke_fill=palette.LABEL_HALO[kind],
    )
    if angle:
        patch = patch.rotate(angle, Image.Resampling.BICUBIC, expand=True)
    return patch


@cache
def _footprint(territory: str, lines: tuple[str, ...], size: int, angle: int) -> tuple[Box, ...]:
    """Boxes (relative to the patch) covering its visible pixels."""
    alpha = label_patch(territory, lines, size, angle).getchannel("A")
    whole = alpha.getbbox()
    assert whole is not None
    if not angle:
        return ((float(whole[0]), float(whole[1]), float(whole[2]), float(whole[3])),)
    boxes: list[Box] = []
    wide = alpha.width >= alpha.height
    length = alpha.width if wide else alpha.height
    for start in range(0, length, STRIP):
        end = min(length, start + STRIP)
        cut = (start, 0, end, alpha.height) if wide else (0, start, alpha.width, end)
        part = alpha.crop(cut).getbbox()
        if part is not None:
            boxes.append(
                (
                    float(cut[0] + part[0]),
                    float(cut[1] + part[1]),
                    float(cut[0] + part[2]),
                    float(cut[1] + part[3]),
                )
            )
    return tuple(boxes)


def inside_its_territory(label: Label, margin: int = MARGIN) -> bool:
    """True when every pixel of the name, grown by ``margin``, lies on its territory."""
    alpha = label.patch.getchannel("A").point(lambda v: 255 if v else 0)
    grown = Image.new("L", (alpha.width + 2 * margin, alpha.height + 2 * margin), 0)
    grown.paste(alpha, (margin, margin))
    if margin:
        grown = grown.filter(ImageFilter.MaxFilter(2 * margin + 1))
    left, top = label.offset[0] - margin, label.offset[1] - margin
    region = territory_mask(label.territory, (left, top, left + grown.width, top + grown.height))
    if region is None:
        return False
    return ImageChops.subtract(grown, region).getbbox() is None


def paste_labels(image: Image.Image, names: tuple[Label, ...]) -> None:
    for label in names:
        patch = label.patch
        image.paste(patch, label.offset, patch)


@cache
def labels() -> tuple[Label, ...]:
    """Every territory name, placed (from ``labels.json`` where it says, else the layout)."""
    overrides = _label_overrides()
    points = territory_label_points()
    return tuple(_label(name, points[name], overrides.get(name, {})) for name in sorted(points))


def _label(name: str, point: Point, override: dict[str, object]) -> Label:
    raw_lines = override.get("lines")
    lines = tuple(str(x) for x in raw_lines) if isinstance(raw_lines, list) else wrap(name)
    at = override.get("at")
    if isinstance(at, list):
        point = to_point(float(at[0]), float(at[1]))
    size = int(str(override.get("size", LABEL_SIZE)))
    angle = int(str(override.get("angle", 0)))
    return make_label(name, lines, size, angle, point)


def wrap(name: str) -> tuple[str, ...]:
    """Names over 10 characters break at the space nearest the middle."""
    if len(name) <= 10 or " " not in name:
        return (name,)
    middle = len(name) / 2
    cut = min((i for i, ch in enumerate(name) if ch == " "), key=lambda i: abs(i - middle))
    return (name[:cut], name[cut + 1 :])


def _label_overrides() -> dict[str, dict[str, object]]:
    text = resources.files("bot.render").joinpath("labels.json").read_text(encoding="utf-8")
    data = json.loads(text)
    assert isinstance(data, dict)
    overrides = data["territories"]
    assert isinstance(overrides, dict)
    return overrides
