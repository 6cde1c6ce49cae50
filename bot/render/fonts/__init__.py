"""The bundled DejaVu fonts (see LICENSE-DejaVu.txt), loaded once per size."""

from __future__ import annotations

from functools import cache
from importlib import resources
from io import BytesIO

from PIL import ImageFont

Font = ImageFont.FreeTypeFont

_FILES = {
    "bold": "DejaVuSans-Bold.ttf",
    "condensed": "DejaVuSansCondensed-Bold.ttf",
    "regular": "DejaVuSansCondensed.ttf",
}


@cache
def font(style: str, size: int) -> Font:
    """``style`` is ``bold`` (counts, headings), ``condensed`` (names) or ``regular``."""
    return ImageFont.truetype(BytesIO(_font_file(style)), size)


@cache
def _font_file(style: str) -> bytes:
    return resources.files(__name__).joinpath(_FILES[style]).read_bytes()
