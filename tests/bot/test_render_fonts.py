"""The fonts' mask cache (bot.render.fonts): text drawn from it is the text FreeType draws."""

from __future__ import annotations

from io import BytesIO

from PIL import Image, ImageDraw, ImageFont

from bot.render.fonts import MASKS_KEPT, MaskCachingFont, _font_file, font

TEXTS = [
    ("Reserves", (12.0, 40.0), None, (200, 190, 170)),
    ("Reserves", (12.5, 40.25), None, (200, 190, 170)),  # another fractional start
    ("Reserves", (12.0, 40.0), None, (255, 255, 255)),  # another ink
    ("17", (70.3, 90.6), "mm", (0, 0, 0)),
    ("17", (70.3, 90.6), "ra", (0, 0, 0)),
    ("3 + 2✹", (5.0, 120.0), "ls", (250, 200, 40)),
]


def _drawn(face: ImageFont.FreeTypeFont) -> bytes:
    image = Image.new("RGB", (160, 140), (46, 39, 35))
    draw = ImageDraw.Draw(image)
    for text, at, anchor, ink in TEXTS:
        draw.text(at, text, font=face, fill=ink, anchor=anchor)
    return image.tobytes()


def test_cached_masks_draw_exactly_what_freetype_draws() -> None:
    plain = ImageFont.truetype(BytesIO(_font_file("bold")), 20)
    cached = MaskCachingFont(BytesIO(_font_file("bold")), 20)
    expected = _drawn(plain)
    assert _drawn(cached) == expected  # rendered and kept
    assert cached.cached_masks == len(TEXTS)
    assert _drawn(cached) == expected  # from the cache
    assert cached.cached_masks == len(TEXTS)


def test_the_cache_keeps_only_the_latest_texts() -> None:
    cached = MaskCachingFont(BytesIO(_font_file("regular")), 14)
    draw = ImageDraw.Draw(Image.new("RGB", (200, 30)))
    for number in range(MASKS_KEPT + 40):
        draw.text((1, 1), str(number), font=cached, fill=(255, 255, 255))
    assert cached.cached_masks == MASKS_KEPT


def test_the_maps_fonts_cache_their_masks() -> None:
    assert isinstance(font("condensed", 17), MaskCachingFont)
    assert font("condensed", 17) is font("condensed", 17)
