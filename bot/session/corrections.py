"""A moderator's hand on the log: undo, redo, a correction, and ending a phase.

:class:`Corrections` runs them in the session's turn. Undo and redo step over the log's
actions in effect (corrections too) and are announced as a correction, naming the
moderator; a correction (:mod:`rules.corrections`) is a log action taken even while the
game is paused, and the pause, the deadline, the prompts, the orders and the offers stay
(the open prompts show the corrected figures). Ending a phase applies, one at a time,
what the deadline would (:meth:`bot.session.expiry.Expiry.default`) until the phase is
over.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

from bot.ledger import Ledger, SubmitResult
from bot.session.turns import After
from bot.waits import Wait, game_over
from bot.words import narrate
from rules.actions import Correction
from rules.game import GameState

END_PHASE_LIMIT = 500  # defaults one /mod end-phase may apply (a phase needs far fewer)


class Default(Protocol):
    """What the deadline would do now (:meth:`bot.session.expiry.Expiry.default`)."""

    def __call__(
        self, *, reason: str, key: str, how: str, moderator: int | None = None
    ) -> Awaitable[None]: ...


class Corrections:
    """Undo, redo, correct and end a phase; see the module's docstring."""

    def __init__(
        self,
        *,
        state: Callable[[], GameState | None],
        current_wait: Callable[[], Wait | None],
        ledger: Callable[[], Ledger],
        after: After,
        show: Callable[[], None],
        default: Default,
    ) -> None:
        self._state = state
        self._current_wait = current_wait
        self._ledger = ledger
        self._after = after
        self._show = show  # the open prompts show what they ask now
        self._default = default

    async def undo(self, moderator: int, key: str, *, authorised: bool) -> SubmitResult:
        result = await self._ledger().undo(moderator, key, authorised=authorised)
        view = result.state.public_view()
        note = narrate.correction_note(moderator, "undone", result.events, view)
        await self._after(result, narrate.corrected, note=note)
        return result

    async def redo(self, moderator: int, key: str, *, authorised: bool) -> SubmitResult:
        result = await self._ledger().redo(moderator, key, authorised=authorised)
        note = narrate.correction_note(moderator, "redone", result.events)
        await self._after(result, narrate.corrected, note=note)
        return result

    async def correct(self, moderator: int, correction: Correction, *, key: str) -> SubmitResult:
        result = await self._ledger().submit(correction, actor=moderator, key=key)
        if not result.duplicate:
            note = narrate.correction_made(moderator, result.events)
            await self._after(result, narrate.corrected, note=note)
            self._show()  # the prompts show the corrected figures
        return result

    async def end_phase(self, moderator: int, key: str) -> None:
        """Decline every prompt and pass every remaining step, in order; in a whole game,
        give every choice its default, or close a phase that waits on the moderators,
        until the phase is over."""
        state = self._state()
        assert state is not None
        phase = (state.game_phase, state.turn)
        for step in range(END_PHASE_LIMIT):
            state = self._state()
            assert state is not None
            if game_over(state) or (state.game_phase, state.turn) != phase:
                break
            if self._current_wait() is None:
                break
            await self._default(
                reason=f"<@{moderator}> ended the phase",
                key=f"{key}:{step}",
                how="a moderator ended the phase",
                moderator=moderator,
            )
