"""The maps' PNG encoder (bot.render.png): lossless, readable by any PNG decoder."""

from __future__ import annotations

import io
import zlib

import pytest
from PIL import Image

from bot.render import render_map
from bot.render.examples import busy_view
from bot.render.png import encode_png
from bot.render.render import draw_map


def _decoded(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L"])
def test_every_pixel_comes_back(mode: str) -> None:
    picture = draw_map(busy_view(stack_count=12)).convert(mode)
    back = _decoded(encode_png(picture))
    assert (back.format, back.mode, back.size) == ("PNG", mode, picture.size)
    assert back.tobytes() == picture.tobytes()


def test_odd_sizes_and_a_single_pixel() -> None:
    for size in ((1, 1), (3, 7), (401, 2)):
        picture = Image.linear_gradient("L").convert("RGB").resize(size)
        assert _decoded(encode_png(picture)).tobytes() == picture.tobytes()


def test_the_map_is_the_drawn_picture_and_smaller_than_pillows() -> None:
    view = busy_view(stack_count=40)
    png = render_map(view)
    drawn = draw_map(view)
    assert _decoded(png).tobytes() == drawn.tobytes()
    pillows = io.BytesIO()
    drawn.save(pillows, "PNG", compress_level=1)
    assert len(png) < len(pillows.getvalue())


def test_chunks_are_well_formed() -> None:
    png = encode_png(Image.new("RGB", (5, 4), (10, 20, 30)))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks = 8, {}
    while at < len(png):
        length = int.from_bytes(png[at : at + 4], "big")
        kind, data = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        assert int.from_bytes(png[at + 8 + length : at + 12 + length], "big") == zlib.crc32(
            kind + data
        )
        chunks[kind] = data
        at += 12 + length
    assert list(chunks) == [b"IHDR", b"IDAT", b"IEND"]
    assert chunks[b"IHDR"] == bytes((0, 0, 0, 5, 0, 0, 0, 4, 8, 2, 0, 0, 0))  # 8-bit RGB
    rows = zlib.decompress(chunks[b"IDAT"])
    assert rows == (b"\x00" + bytes((10, 20, 30)) * 5) * 4


@pytest.mark.parametrize("mode", ["P", "1", "CMYK", "I;16"])
def test_other_modes_are_refused(mode: str) -> None:
    with pytest.raises(ValueError, match="mode"):
        encode_png(Image.new(mode, (2, 2)))
