"""The fonts' mask cache (bot.render.fonts): text drawn from it is the text FreeType draws."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
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


def test_threads_share_a_font_and_each_draws_its_own_texts() -> None:
    """``MapMaker`` without an executor draws in several threads at once, over one cache
    that keeps evicting."""
    shared = MaskCachingFont(BytesIO(_font_file("bold")), 16)
    plain = ImageFont.truetype(BytesIO(_font_file("bold")), 16)
    numbers = range(MASKS_KEPT + 200)

    def strip(face: ImageFont.FreeTypeFont, offset: int) -> list[bytes]:
        pictures = []
        for number in numbers:
            image = Image.new("L", (60, 20))
            ImageDraw.Draw(image).text((2.5, 1), str(number * 4 + offset), font=face, fill=255)
            pictures.append(image.tobytes())
        return pictures

    with ThreadPoolExecutor(4) as pool:
        drawn = list(pool.map(lambda offset: strip(shared, offset), range(4)))
    assert drawn == [strip(plain, offset) for offset in range(4)]
    assert shared.cached_masks == MASKS_KEPT
