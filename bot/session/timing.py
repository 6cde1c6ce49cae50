"""A phase session's deadline: its timers (reminder, default), and the moderators'
timing commands: pause, resume, extend, skip.

A mixin of :class:`bot.session.session.PhaseSession`: each command runs in the session's turn,
refuses when nothing is awaited, is told to the table and refreshes the open prompts'
deadline.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from bot.clock import Clock
from bot.delivery import Delivery
from bot.publisher import ModeratorNotice, PublicNotice
from bot.session.autopilot import (
    Autopilot,
    back_words,
    moderators_words,
    stalled_words,
    started_words,
)
from bot.session.prompts import deadline_text
from bot.settings import Timing
from bot.store import SYSTEM_ACTOR
from bot.waits import CHOICE, MODERATORS, STEP, Wait
from bot.words.common import duration
from rules.errors import MentatError
from rules.factions import Faction
from rules.game import GameState

log = logging.getLogger(__name__)
RETRY_DEFAULT = timedelta(minutes=1)  # a deadline's default that failed is tried again


class TimingControls:
    """Pause, resume, extend and skip; the session provides what is declared here."""

    game_id: int
    clock: Clock
    timing: Timing
    paused_left: timedelta | None
    _deadline: datetime | None
    _reminded: bool
    _wait: Wait | None
    _seq: int
    autopilot: Autopilot
    delivery: Delivery
    state: GameState | None

    if TYPE_CHECKING:  # provided by the session and its other parts (bot.session.turns)

        def _remind(self) -> None: ...

        def current_wait(self) -> Wait | None: ...

        async def _arm(self) -> None: ...

        async def _remind_moderators_again(self) -> None: ...

    async def _call(self, run: Callable[[], Awaitable[Any]]) -> Any:
        raise NotImplementedError

    def _check_awaiting(self, nothing: str) -> None:
        raise NotImplementedError

    async def _save_settings(self) -> None:
        raise NotImplementedError

    def _moderator_note(self, text: str) -> None:
        raise NotImplementedError

    def _show_deadline(self) -> None:
        raise NotImplementedError

    async def _default(
        self, *, reason: str, key: str, how: str, moderator: int | None = None
    ) -> None:
        raise NotImplementedError

    # -- the deadline's timers (the session's task wakes for them) -------------------

    def _next_timer(self) -> datetime | None:
        if self._deadline is None or self.paused_left is not None:
            return None
        if not self._reminded:
            return self._deadline - self.timing.reminder
        return self._deadline

    async def _on_timer_safely(self) -> None:
        """A timer's failure never ends the task; the default is tried a minute later."""
        try:
            await self._on_timer()
        except MentatError as refused:  # e.g. another process wrote the default first
            log.warning("game %d: the deadline's default was refused: %s", self.game_id, refused)
            self._retry_default()
        except Exception:
            log.exception("game %d: the deadline's default failed", self.game_id)
            self._retry_default()

    def _retry_default(self) -> None:
        if self._deadline is not None and self._deadline <= self.clock.now():
            self._deadline = self.clock.now() + RETRY_DEFAULT

    async def _on_timer(self) -> None:
        if self._deadline is None or self.paused_left is not None:
            return
        if self.clock.now() < self._deadline:
            self._reminded = True
            await self._save_settings()
            self._remind()
            return
        if self._wait is not None and self._wait.kind == MODERATORS:
            await self._remind_moderators_again()  # a wait on the moderators has no default
            return
        prompt = self._wait is not None and self._wait.kind == "prompt"
        how = "the window timed out" if prompt else "time ran out"
        if not prompt and self._missed():  # every faction on autopilot: paused instead
            return
        await self._default(
            reason="Time ran out", key=f"{self.game_id}:deadline:{self._seq}", how=how
        )

    # -- autopilot (bot.session.autopilot) ------------------------------------------------

    def _missed(self) -> bool:
        """A turn's step or a choice ran out of time: the factions still awaited missed a
        deadline; those that reach the game's limit go on autopilot (told once). True when
        every faction now is: the game is paused and reported stalled instead."""
        wait, state = self.current_wait(), self.state
        if wait is None or state is None or wait.kind not in (STEP, CHOICE):
            return False
        started = self.autopilot.miss(wait.factions)
        for faction in started:
            after = self.autopilot.after
            self.delivery.public(PublicNotice(started_words(faction, after), game_id=self.game_id))
            self.delivery.moderators(ModeratorNotice(moderators_words(faction, after)))
        if not started or not self.autopilot.everyone(state.factions):
            return False
        self.paused_left = self.timing.step
        self._moderator_note(stalled_words(self.game_id))
        self._show_deadline()
        return True

    async def come_back(self, faction: Faction, actor: int) -> bool:
        """``/back``: ``faction``'s player takes it off autopilot (False: it was not on)."""

        async def run() -> bool:
            if not self.autopilot.on(faction):
                return False
            await self._back(faction, actor)
            await self._arm()  # the game waits for them again from the next question
            return True

        result: bool = await self._call(run)
        return result

    async def _back(self, faction: Faction, actor: int | None) -> None:
        """A player of ``faction`` acted (``actor``; None: a new player sat): off autopilot."""
        if actor != SYSTEM_ACTOR and self.autopilot.back(faction):
            self.delivery.public(PublicNotice(back_words(faction), game_id=self.game_id))
            await self._save_settings()

    # -- the moderators' commands --------------------------------------------------------

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
