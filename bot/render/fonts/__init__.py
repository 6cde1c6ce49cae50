"""The bundled DejaVu fonts (see LICENSE-DejaVu.txt), loaded once per size.

Each font remembers the glyph masks of the texts it drew last (:class:`MaskCachingFont`):
a map writes the same words again and again (the panel's labels, the faction names, the
counts), and rasterising them is most of the drawing's cost once the board is cached.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from functools import cache
from importlib import resources
from io import BytesIO
from typing import Any

from PIL import ImageFont

_FILES = {
    "bold": "DejaVuSans-Bold.ttf",
    "condensed": "DejaVuSansCondensed-Bold.ttf",
    "regular": "DejaVuSansCondensed.ttf",
}
MASKS_KEPT = 512  # per font: the most recently drawn texts' masks (a few MB at most)

Mask = tuple[Any, tuple[int, int]]  # a text's mask (Pillow's core image) and its offset


class MaskCachingFont(ImageFont.FreeTypeFont):
    """A FreeType font that keeps the masks of the last :data:`MASKS_KEPT` texts it
    rendered, keyed by everything the rendering depends on (the text, the anchor, the
    fractional start, the ink...). ``ImageDraw.text`` draws a mask it did not change,
    so a picture drawn from the cache is the same, pixel for pixel. Safe to share between
    threads (``MapMaker`` without an executor draws in asyncio's thread pool)."""

    def __init__(self, font: BytesIO, size: int) -> None:
        super().__init__(font, size)
        self._masks: OrderedDict[tuple[Any, ...], Mask] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def cached_masks(self) -> int:
        return len(self._masks)

    def getmask2(
        self,
        text: str | bytes,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
        stroke_width: float = 0,
        anchor: str | None = None,
        ink: int = 0,
        start: tuple[float, float] | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> Mask:
        key = (text, mode, direction, tuple(features or ()), language, stroke_width, anchor,
               ink, start, args, tuple(sorted(kwargs.items())))  # fmt: skip
        with self._lock:
            mask = self._masks.get(key)
            if mask is not None:
                self._masks.move_to_end(key)
                return mask
        mask = super().getmask2(
            text, mode, direction, features, language, stroke_width, anchor, ink, start,
            *args, **kwargs,
        )  # fmt: skip
        with self._lock:
            self._masks[key] = mask
            if len(self._masks) > MASKS_KEPT:
                self._masks.popitem(last=False)
        return mask


Font = ImageFont.FreeTypeFont


@cache
def font(style: str, size: int) -> Font:
    """``style`` is ``bold`` (counts, headings), ``condensed`` (names) or ``regular``."""
    return MaskCachingFont(BytesIO(_font_file(style)), size)


@cache
def _font_file(style: str) -> bytes:
    return resources.files(__name__).joinpath(_FILES[style]).read_bytes()
