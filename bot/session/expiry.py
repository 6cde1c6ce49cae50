"""When a deadline passes: the reminder before it, the default at it, and the autopilot it
counts (:mod:`bot.session.autopilot`); and the moderators' commands on the deadline:
pause, resume, extend and skip.

:class:`Expiry` is what the session's :class:`~bot.session.timing.Deadline` calls back.
The reminder tells each awaited faction (or the moderators) what is awaited and by when.
At the deadline the default happens: the faction to act passes its step; the open
prompts are declined (a secret window simply closes); each faction still awaited in a
choice gets its default (:class:`~bot.session.turns.WholeTurn`); a wait on the
moderators has none, they are reminded again a step later. A turn's step or a choice
that ran out counts a missed deadline for each faction awaited: one that reaches the
game's limit goes on autopilot (told to the table and the moderators once), and when
every faction is, the game is paused and reported stalled instead. A player acting again
(or a new player seated) takes the faction off autopilot.

Each moderator's command refuses when nothing is awaited, is told to the table and the
moderators, and refreshes the open prompts' deadline. An extension may name one awaited
faction (:mod:`bot.session.extensions`): at the wait's deadline the others get their
defaults, and the game waits on it until its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import timedelta

from bot.clock import Clock
from bot.delivery import Delivery
from bot.ledger import Ledger
from bot.publisher import ModeratorNotice, PublicNotice
from bot.session.autopilot import (
    Autopilot,
    back_words,
    moderators_words,
    stalled_words,
    started_words,
)
from bot.session.extensions import LONGEST, Extensions
from bot.session.kept import Kept
from bot.session.prompts import deadline_text
from bot.session.questions import Questions
from bot.session.telling import Telling
from bot.session.timing import Deadline
from bot.session.turns import After, WholeTurn
from bot.session.windows import is_window
from bot.store import SYSTEM_ACTOR
from bot.waits import CHOICE, MODERATORS, PROMPT, STEP, Wait, game_over
from bot.words import narrate
from bot.words.common import duration
from bot.words.refusals import SessionError
from rules.actions import Action, ClosePrompts, Pass
from rules.factions import Faction
from rules.game import GameState


class Expiry:
    """The deadline's callbacks and the defaults; see the module's docstring."""

    def __init__(
        self,
        game_id: int,
        *,
        state: Callable[[], GameState | None],
        current_wait: Callable[[], Wait | None],
        seq: Callable[[], int],
        ledger: Callable[[], Ledger],
        after: After,
        deadline: Deadline,
        questions: Questions,
        turns: WholeTurn,
        telling: Telling,
        kept: Kept,
        autopilot: Autopilot,
        extensions: Extensions,
        delivery: Delivery,
        clock: Clock,
        step: timedelta,
    ) -> None:
        self._game_id = game_id
        self._state = state
        self._current_wait = current_wait
        self._seq = seq  # the last log entry the session has seen: a deadline's key
        self._ledger = ledger
        self._after = after
        self._deadline = deadline
        self._questions = questions
        self._turns = turns
        self._telling = telling
        self._kept = kept
        self._autopilot = autopilot
        self._extensions = extensions
        self._delivery = delivery
        self._clock = clock
        self._step = step  # a turn's step time: a stalled game's time left, a reminder's

    async def reminder(self) -> None:
        """Before the deadline: the awaited are reminded (once; saved as sent)."""
        await self._kept.save()
        self._questions.remind()

    async def expired(self) -> None:
        """Nobody answered in time: the default (a wait on the moderators has none: they
        are reminded again a step later)."""
        wait = self._questions.wait
        if wait is not None and wait.kind == MODERATORS:
            self._questions.remind()
            self._deadline.arm(self._clock.now() + self._step)
            await self._kept.save()
            return
        prompt = wait is not None and wait.kind == PROMPT
        how = "the window timed out" if prompt else "time ran out"
        key = f"{self._game_id}:deadline:{self._seq()}"
        if wait is not None and wait.kind == CHOICE and self._extensions.now():
            await self._expired_in_part(wait, key=key)
            return
        if not prompt and self._missed():  # every faction on autopilot: paused instead
            return
        await self.default(reason="Time ran out", key=key, how=how)

    async def _expired_in_part(self, wait: Wait, *, key: str) -> None:
        """A choice's deadline passed while a moderator gave some factions more time: the
        others get their defaults (each its own missed deadline), and the game waits on
        the extended ones until the earliest's own deadline."""
        due = self._extensions.due(wait.factions)
        if self._missed(due):  # every faction on autopilot: paused instead
            return
        await self._turns.choice_defaults(
            replace(wait, factions=due), reason="Time ran out", key=key
        )
        asked = self._questions.wait
        later = self._extensions.expire()
        if later is not None and asked is not None and asked.key == wait.key:
            self._deadline.arm(later, late_reminder=False)
            await self._kept.save()

    async def default(
        self, *, reason: str, key: str, how: str, moderator: int | None = None
    ) -> None:
        """What happens when nobody answers in time: pass the step or decline the prompts;
        in a choice, each faction still awaited gets its default; a wait on the moderators
        has none (a ``moderator`` skipping or ending it closes it)."""
        state = self._state()
        assert state is not None
        if game_over(state):
            return
        wait = self._current_wait()
        if wait is not None and wait.kind == CHOICE:
            await self._turns.choice_defaults(wait, reason=reason, key=key)
            return
        if wait is not None and wait.kind == MODERATORS:
            await self._turns.close_recorded(moderator, key=key)
            return
        action: Action
        prompts = state.open_prompts()
        if is_window(prompts):  # a secret window's normal end, whatever its reason
            action, note = ClosePrompts(), narrate.WINDOW_CLOSED
        elif prompts:
            action, note = ClosePrompts(), f"{reason}: the open prompts are declined."
        else:
            faction = state.to_act()
            assert faction is not None
            action, note = Pass(faction), f"{reason}: {faction.label} passes."
        result = await self._ledger().submit(action, actor=SYSTEM_ACTOR, key=key)
        if not result.duplicate:
            await self._after(result, lambda _: how, note=note)

    # -- the moderators' commands (each refuses when nothing is awaited) ---------------------

    async def pause(self, moderator: int) -> None:
        self._check_awaiting("there is nothing to pause")
        if self._deadline.pause():
            await self._kept.save()
        self._telling.moderator_note(f"Paused by <@{moderator}>. Deadlines are frozen.")
        self._questions.show()

    async def resume(self, moderator: int) -> None:
        self._check_awaiting("there is nothing to resume")
        if self._deadline.resume():
            await self._kept.save()
        self._telling.moderator_note(f"Resumed by <@{moderator}>.")
        self._questions.show()

    async def extend(self, moderator: int, by: timedelta, faction: Faction | None = None) -> None:
        """``by`` more for the whole wait, or for ``faction`` alone (in a wait on several
        factions; in a wait on that faction alone, the same as the whole wait's)."""
        self._check_awaiting("there is no deadline to extend")
        if by <= timedelta() or by > LONGEST:
            raise SessionError("an extension adds from 1 minute to 7 days (10080 minutes)")
        wait, state = self._questions.wait, self._state()
        assert wait is not None and state is not None
        if faction is not None and faction not in state.factions:
            raise SessionError(f"{faction.label} does not play in this game")
        if faction is not None and faction not in wait.factions:
            awaited = ", ".join(f.label for f in wait.factions) or "the moderators"
            raise SessionError(
                f"the game does not wait on {faction.label} now (it waits on {awaited}): "
                "extend the whole wait, without `faction:`"
            )
        if faction is not None and len(wait.factions) > 1:
            await self._extend_one(moderator, by, wait, faction)
            return
        self._deadline.extend(by)
        await self._kept.save()
        now = self._deadline.text()
        self._telling.moderator_note(
            f"<@{moderator}> extended the deadline by {duration(by)}; it is now {now}."
        )
        self._questions.show()

    async def _extend_one(
        self, moderator: int, by: timedelta, wait: Wait, faction: Faction
    ) -> None:
        if wait.kind != CHOICE:  # in this engine, a stage asking several: a secret window
            raise SessionError(
                "the open prompts are timed together (a secret window runs its fixed time): "
                "extend the whole wait, without `faction:`"
            )
        own = self._extensions.extend(wait, faction, by)
        await self._kept.save()
        until = "" if own is None else f"; their deadline is now {deadline_text(own, None)}"
        self._telling.moderator_note(
            f"<@{moderator}> extended {faction.label}'s time by {duration(by)}{until}. "
            "The others' deadline stays as it was."
        )
        self._questions.show()

    async def skip(self, moderator: int, key: str) -> None:
        """The moderator applies the default for what is awaited now (in a phase the
        moderators record: closes it, as "phase done")."""
        self._check_awaiting("there is nothing to skip")
        await self.default(
            reason=f"<@{moderator}> skipped the wait",
            key=key,
            how="a moderator skipped it",
            moderator=moderator,
        )

    def _check_awaiting(self, nothing: str) -> None:
        """The moderators' timing commands need something awaited."""
        state = self._state()
        if state is None or game_over(state) or self._questions.wait is None:
            raise SessionError(f"the game is over; {nothing}")

    # -- autopilot --------------------------------------------------------------------------

    def _missed(self, factions: tuple[Faction, ...] | None = None) -> bool:
        """A turn's step or a choice ran out of time: the factions still awaited (or those
        of them whose own deadline it was, ``factions``) missed a deadline; those that reach
        the game's limit go on autopilot (told once). True when every faction now is: the
        game is paused and reported stalled instead."""
        wait, state = self._current_wait(), self._state()
        if wait is None or state is None or wait.kind not in (STEP, CHOICE):
            return False
        missed = wait.factions if factions is None else factions
        started, after = self._autopilot.miss(missed), self._autopilot.after
        for faction in started:
            notice = PublicNotice(started_words(faction, after), game_id=self._game_id)
            self._delivery.public(notice)
            self._delivery.moderators(ModeratorNotice(moderators_words(faction, after)))
        if not started or not self._autopilot.everyone(state.factions):
            return False
        self._deadline.freeze(self._step)
        self._telling.moderator_note(stalled_words(self._game_id))
        self._questions.show()
        return True

    async def back(self, faction: Faction, actor: int | None) -> None:
        """A player of ``faction`` acted (``actor``; None: a new player sat): off autopilot."""
        if actor != SYSTEM_ACTOR and self._autopilot.back(faction):
            self._delivery.public(PublicNotice(back_words(faction), game_id=self._game_id))
            await self._kept.save()
