"""Writes that finish even when their caller is cancelled."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable, Coroutine
from typing import Any, ParamSpec, TypeVar

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")


def completes(
    operation: Callable[P, Coroutine[Any, Any, T]],
) -> Callable[P, Coroutine[Any, Any, T]]:
    """Run an operation to its end even when the caller is cancelled meanwhile.

    The operation runs in a task of its own; a cancelled caller waits for it to finish (its
    commit, or its rollback, and whatever it keeps in memory with it) before the cancellation
    goes on, so memory and disk never disagree and the next request sees a settled game.
    """

    @functools.wraps(operation)
    async def run(*args: P.args, **kwargs: P.kwargs) -> T:
        task = asyncio.ensure_future(operation(*args, **kwargs))
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            while not task.done():
                with contextlib.suppress(asyncio.CancelledError):
                    await asyncio.wait({task})
            if not task.cancelled() and task.exception() is not None:
                log.warning("%s failed after its caller was cancelled", operation.__name__)
            raise

    return run
