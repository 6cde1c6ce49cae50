"""The page's pictures (a moment's map, its scene), drawn off the event loop and kept:
a moment's picture never changes (until an undo replays the game: a new generation), so
the newest ``capacity_bytes`` of them stay in memory, least recently used out first, and
two requests for one picture not drawn yet wait for the same drawing. The page draws
``at_once`` pictures at a time (one by default), so that however many are asked for, the
render workers it shares with the games keep drawing the games' own maps."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import Executor

DEFAULT_CAPACITY_BYTES = 256 * 1024 * 1024
DEFAULT_AT_ONCE = 1  # drawings at once: the render workers draw the games' maps too


class Pictures:
    def __init__(
        self,
        executor: Executor | None = None,
        capacity_bytes: int = DEFAULT_CAPACITY_BYTES,
        at_once: int = DEFAULT_AT_ONCE,
    ) -> None:
        self.executor = executor
        self.capacity_bytes = capacity_bytes
        self._turns = asyncio.Semaphore(at_once)
        self._kept: OrderedDict[Hashable, bytes] = OrderedDict()
        self._size = 0
        self._drawing: dict[Hashable, asyncio.Future[bytes]] = {}

    def __len__(self) -> int:
        return len(self._kept)

    async def get(self, key: Hashable, draw: Callable[[], bytes]) -> bytes:
        """The picture kept under ``key``, else ``draw()`` run in the executor (a thread
        without one) and kept."""
        kept = self._kept.get(key)
        if kept is not None:
            self._kept.move_to_end(key)
            return kept
        pending = self._drawing.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._drawing[key] = future
        try:
            png = await self._run(draw)
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            del self._drawing[key]
        future.set_result(png)
        self._keep(key, png)
        return png

    async def _run(self, draw: Callable[[], bytes]) -> bytes:
        async with self._turns:
            if self.executor is None:
                return await asyncio.to_thread(draw)
            return await asyncio.get_running_loop().run_in_executor(self.executor, draw)

    def _keep(self, key: Hashable, png: bytes) -> None:
        self._kept[key] = png
        self._size += len(png)
        while self._size > self.capacity_bytes and len(self._kept) > 1:
            _, old = self._kept.popitem(last=False)
            self._size -= len(old)
