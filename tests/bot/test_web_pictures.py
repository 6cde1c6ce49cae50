"""The live page's pictures: drawn once per moment, kept within their bytes, one drawing
at a time on the render workers the games share."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from bot.web.pictures import Pictures


class Drawings:
    """Drawing jobs that count themselves, and how many ran at once."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.running = self.most = self.drawn = 0

    def job(self, size: int = 10) -> Callable[[], bytes]:
        def draw() -> bytes:
            with self.lock:
                self.running += 1
                self.drawn += 1
                self.most = max(self.most, self.running)
            time.sleep(0.02)
            with self.lock:
                self.running -= 1
            return b"x" * size

        return draw


async def test_one_drawing_at_a_time_and_each_picture_drawn_once() -> None:
    drawings = Drawings()
    with ThreadPoolExecutor(4) as workers:
        pictures = Pictures(workers)
        keys = [("map", 1, 0, n % 3) for n in range(9)]  # three pictures, each asked thrice
        found = await asyncio.gather(*(pictures.get(k, drawings.job()) for k in keys))
    assert found == [b"x" * 10] * 9
    assert drawings.drawn == 3 and drawings.most == 1


async def test_the_newest_pictures_are_kept_within_their_bytes() -> None:
    drawings = Drawings()
    pictures = Pictures(capacity_bytes=25)
    for n in range(4):
        await pictures.get(n, drawings.job())
    assert len(pictures) == 2  # 20 bytes of the 40 drawn
    await pictures.get(3, drawings.job())  # kept: not drawn again
    await pictures.get(0, drawings.job())  # let go: drawn again
    assert drawings.drawn == 5
