"""Token pictures, drawn large and reduced for smooth edges, cached per kind and size.

Forces are discs in the faction's colour, starred forces (Sardaukar, Fedaykin)
are eight-pointed seals with a gold rim, Bene Gesserit advisors are white discs
with a blue rim, spice is a rust-coloured diamond.
"""

from __future__ import annotations

import math
from functools import cache

from PIL import Image, ImageDraw

from bot.render import palette
from bot.render.palette import RGB
from bot.render.tokens import TokenKind
from rules.factions import Faction

OVERSAMPLE = 4
OUTLINE: RGB = (255, 255, 255)
SHADOW = (0, 0, 0, 150)
GOLD: RGB = (255, 200, 40)
ADVISOR_FILL: RGB = (245, 245, 250)


@cache
def sprite(kind: TokenKind, faction: Faction | None, size: int) -> Image.Image:
    """An RGBA picture of a token ``size`` pixels wide."""
    big = size * OVERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if kind is TokenKind.SPICE:
        _spice(draw, big)
    elif kind is TokenKind.SPECIAL:
        _seal(draw, big, _colour(faction))
    elif kind is TokenKind.ADVISORS:
        _disc(draw, big, ADVISOR_FILL, rim=_colour(faction))
    else:
        _disc(draw, big, _colour(faction), rim=OUTLINE)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def count_colour(kind: TokenKind, faction: Faction | None) -> RGB:
    """The colour of the number written on a token."""
    if kind is TokenKind.SPICE:
        return palette.SPICE_TEXT
    if kind is TokenKind.ADVISORS:
        return _colour(faction)
    assert faction is not None
    return palette.FACTION_TEXT[faction]


def _colour(faction: Faction | None) -> RGB:
    assert faction is not None
    return palette.FACTION[faction]


def _disc(draw: ImageDraw.ImageDraw, big: int, fill: RGB, *, rim: RGB) -> None:
    ring = max(2, big // 12)
    draw.ellipse((0, 0, big - 1, big - 1), fill=SHADOW)
    draw.ellipse((ring // 2, ring // 2, big - 1 - ring // 2, big - 1 - ring // 2), fill=rim)
    inset = ring + ring // 2
    draw.ellipse((inset, inset, big - 1 - inset, big - 1 - inset), fill=fill)


def _seal(draw: ImageDraw.ImageDraw, big: int, fill: RGB) -> None:
    centre = big / 2
    draw.polygon(_star(centre, big / 2, 0.80), fill=SHADOW)
    draw.polygon(_star(centre, big / 2 - big / 24, 0.80), fill=GOLD)
    draw.polygon(_star(centre, big / 2 - big / 8, 0.80), fill=fill)


def _star(centre: float, radius: float, inner: float) -> list[tuple[float, float]]:
    points = []
    for i in range(16):
        r = radius if i % 2 == 0 else radius * inner
        theta = math.pi * i / 8 - math.pi / 2
        points.append((centre + r * math.cos(theta), centre + r * math.sin(theta)))
    return points


def _spice(draw: ImageDraw.ImageDraw, big: int) -> None:
    c = big / 2
    draw.polygon([(c, 0), (big, c), (c, big), (0, c)], fill=SHADOW)
    inset = big / 14
    draw.polygon([(c, inset), (big - inset, c), (c, big - inset), (inset, c)], fill=(255, 236, 200))
    inset = big / 7
    draw.polygon([(c, inset), (big - inset, c), (c, big - inset), (inset, c)], fill=palette.SPICE)
