"""The moderators' timing commands of a phase session: pause, resume, extend, skip.

A mixin of :class:`bot.session.PhaseSession`: each command runs in the session's turn,
refuses when nothing is awaited, is told to the table and refreshes the open prompts'
deadline.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

from bot.clock import Clock
from bot.prompts import deadline_text
from bot.words import duration


class TimingControls:
    """Pause, resume, extend and skip; the session provides what is declared here."""

    clock: Clock
    paused_left: timedelta | None
    _deadline: datetime | None
    _reminded: bool

    async def _call(self, run: Callable[[], Awaitable[Any]]) -> Any:
        raise NotImplementedError

    def _check_awaiting(self, nothing: str) -> None:
        raise NotImplementedError

    async def _save_settings(self) -> None:
        raise NotImplementedError

    def _moderator_note(self, text: str, *, spectators: bool = False) -> None:
        raise NotImplementedError

    def _show_deadline(self) -> None:
        raise NotImplementedError

    async def _default(
        self, *, reason: str, key: str, how: str, moderator: int | None = None
    ) -> None:
        raise NotImplementedError

    async def pause(self, moderator: int) -> None:
        async def run() -> None:
            self._check_awaiting("there is nothing to pause")
            if self.paused_left is None and self._deadline is not None:
                self.paused_left = self._deadline - self.clock.now()
                await self._save_settings()
            self._moderator_note(f"Paused by <@{moderator}>. Deadlines are frozen.")
            self._show_deadline()

        await self._call(run)

    async def resume(self, moderator: int) -> None:
        async def run() -> None:
            self._check_awaiting("there is nothing to resume")
            if self.paused_left is not None:
                self._deadline = self.clock.now() + self.paused_left
                self.paused_left = None
                await self._save_settings()
            self._moderator_note(f"Resumed by <@{moderator}>.")
            self._show_deadline()

        await self._call(run)

    async def extend(self, moderator: int, by: timedelta) -> None:
        async def run() -> None:
            self._check_awaiting("there is no deadline to extend")
            if self.paused_left is not None:
                self.paused_left += by
            elif self._deadline is not None:
                self._deadline += by
                self._reminded = False
            await self._save_settings()
            now = deadline_text(self._deadline, self.paused_left)
            self._moderator_note(
                f"<@{moderator}> extended the deadline by {duration(by)}; it is now {now}."
            )
            self._show_deadline()

        await self._call(run)

    async def skip(self, moderator: int, key: str) -> None:
        """The moderator applies the default for what is awaited now (in a phase the
        moderators record: closes it, as "phase done")."""

        async def run() -> None:
            self._check_awaiting("there is nothing to skip")
            await self._default(
                reason=f"<@{moderator}> skipped the wait",
                key=key,
                how="a moderator skipped it",
                moderator=moderator,
            )

        await self._call(run)
