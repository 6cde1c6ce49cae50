"""Render a busy position (six factions, 40 stacks) and compare with a bare PNG encode.

Prints progress lines, then one JSON object on the last line:
``render_ms_median`` (the whole ``render_map`` call, PNG encoding included) and
``png_encode_ms_median`` (Pillow encoding the very same picture as a PNG at the renderer's
compression level, nothing drawn). The static board is drawn once before timing.
Target: render_ms_median <= 2 * png_encode_ms_median.
"""

from __future__ import annotations

import io
import json
import statistics
import time
from collections.abc import Callable

from PIL import Image

from bot.render import render_map
from bot.render.examples import busy_view
from bot.render.render import PNG_COMPRESS_LEVEL

RUNS = 31


def timed_ms(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return (time.perf_counter() - start) * 1000


def encode(picture: Image.Image) -> bytes:
    buffer = io.BytesIO()
    picture.save(buffer, "PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buffer.getvalue()


def main() -> None:
    view = busy_view(stack_count=40)
    png = render_map(view)  # warm-up: draws and caches the static board
    picture = Image.open(io.BytesIO(png)).convert("RGB")
    print(f"busy position: {len(view.stacks)} stacks, picture {picture.size}, {len(png)} bytes")
    renders, encodes = [], []
    for _ in range(RUNS):  # interleaved, so both see the same machine load
        renders.append(timed_ms(lambda: render_map(view)))
        encodes.append(timed_ms(lambda: encode(picture)))
    render, encode_only = statistics.median(renders), statistics.median(encodes)
    print(f"render {render:.1f} ms, encode {encode_only:.1f} ms, ratio {render / encode_only:.2f}")
    result = {
        "render_ms_median": round(render, 2),
        "png_encode_ms_median": round(encode_only, 2),
        "ratio": round(render / encode_only, 3),
        "png_bytes": len(png),
        "width": picture.width,
        "height": picture.height,
        "stacks": len(view.stacks),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
