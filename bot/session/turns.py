"""The whole game's part of a session: defaults of choices, moderators' waits, orders' answers.

A mixin of :class:`bot.session.session.PhaseSession`:

- **Choices** (set-up, storm dials, the Nexus, charity...): when the deadline passes, each
  faction still awaited gets its default (:func:`rules.defaults.default_action`), one log
  action each, keyed by the deadline, so a default is never applied twice. Its player is
  told privately what was chosen for it; the table only that it was a default (a default
  dial or traitor stays secret).
- **Waiting on the moderators** (revival, once the last revivals asked for are recorded):
  no faction is asked; the moderators' channel is told what to record and reminded until
  the phase is closed. Each record (:meth:`record`) is an action of the log like any other
  (in the Bidding, Revival and Battle phases, which the engine runs, a record is a
  moderator's correction).
- **Standing orders** that answer a choice are confirmed privately, as the faction's own
  answer.
- **A faction's own side** of the Bidding and Revival events goes to its private channel
  (:func:`bot.words.bidding.own_lines`): the Atreides' look at each card on offer, a card
  bought and the spice left, a hand taken or given back.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import Any

from bot.clock import Clock
from bot.delivery import Delivery
from bot.ledger import Ledger, SubmitResult
from bot.publisher import ModeratorNotice, PrivateNotice
from bot.session.autopilot import Autopilot
from bot.session.prompts import PromptMessages
from bot.settings import Timing
from bot.store import SYSTEM_ACTOR
from bot.waits import MODERATORS, Wait, wait_of
from bot.words import truthtrance as truthtrance_words
from bot.words.choices import answer_words, to_record
from bot.words.refusals import SessionError
from bot.words.turn import private_notice
from rules.actions import Action, FactionAction, PhaseDone, Record
from rules.defaults import default_action
from rules.events import (
    AuctionOpened,
    CardsGivenBack,
    CardWon,
    Event,
    HandTaken,
    PrescienceAnswered,
    Revived,
    SpiceGiven,
    TruthtranceAnswered,
    TruthtrancePlayed,
)
from rules.factions import Faction
from rules.game import GameState

DEFAULTS_PER_FACTION = 8  # a faction owes at most a few set-up choices
OWN_SIDE = (
    AuctionOpened,
    CardWon,
    Revived,
    HandTaken,
    CardsGivenBack,
    SpiceGiven,
    TruthtrancePlayed,  # the asker's own side: its question, then the answer to it
    TruthtranceAnswered,
    PrescienceAnswered,  # the whole plan the Atreides' Karama shows them (1.14.01)
)
"""The events whose private side the session tells the factions concerned."""
Cause = Callable[[Faction], str]


class TurnControls:
    """Choices' defaults, moderators' waits and records; the session provides the rest."""

    state: GameState | None
    clock: Clock
    timing: Timing
    delivery: Delivery
    prompts: PromptMessages
    game_id: int
    _wait: Wait | None
    _deadline: datetime | None
    autopilot: Autopilot
    _reminded: bool

    async def _call(self, run: Callable[[], Awaitable[Any]]) -> Any:
        raise NotImplementedError

    def _ledger(self) -> Ledger:
        raise NotImplementedError

    async def _after(
        self, result: SubmitResult, action: Action | Cause | None, *, note: str | None = None
    ) -> None:
        raise NotImplementedError

    async def _save_settings(self) -> None:
        raise NotImplementedError

    def _prompt(self, faction: Faction, wait: Wait) -> PrivateNotice:
        raise NotImplementedError

    async def _announce(
        self, events: list[Event], action: Action | None, *, note: str | None = None
    ) -> None:
        raise NotImplementedError

    def _posted(self, faction: Faction, token: str | None, ref: str) -> None:
        raise NotImplementedError

    async def announce(self, events: Sequence[Event], *, note: str) -> None:
        """Tell the table and spectators ``events`` (public ones: a new game's deals)."""

        async def run() -> None:
            await self._announce(list(events), None, note=note)

        await self._call(run)

    # -- the moderators' records ----------------------------------------------------------

    async def record(self, moderator: int, action: Record | PhaseDone, *, key: str) -> SubmitResult:
        """A moderator's record, a correction of a phase (the caller checked ``moderator``), or
        "phase done"; announced publicly. The engine refuses a record of another phase (its
        rule cited) and nothing changes; a repeated ``key`` is not applied twice."""
        if not isinstance(action, Record | PhaseDone):
            raise SessionError(f"{action.name.replace('_', ' ')} is not a moderator's record")

        async def run() -> SubmitResult:
            result = await self._ledger().submit(action, actor=moderator, key=key)
            if not result.duplicate:
                closed = isinstance(action, PhaseDone)
                note = (
                    f"<@{moderator}> closed the phase."
                    if closed
                    else f"Recorded by <@{moderator}>."
                )
                await self._after(result, action, note=note)
            return result

        result: SubmitResult = await self._call(run)
        return result

    async def _close_recorded(self, moderator: int | None, *, key: str) -> None:
        """A moderator skipping or ending a phase that waits on the moderators closes it
        ("phase done"); time alone never does."""
        if moderator is None:
            return
        result = await self._ledger().submit(PhaseDone(), actor=moderator, key=key)
        if not result.duplicate:
            await self._after(result, PhaseDone(), note=f"<@{moderator}> closed the phase.")

    def _tell_moderators(self, wait: Wait) -> None:
        if self.state is not None:
            game = self.state.game
            self.delivery.moderators(ModeratorNotice(to_record(game.phase.value, game.turn)))

    def _remind_moderators(self) -> None:
        if self.state is not None:
            game = self.state.game
            text = f"Reminder: {to_record(game.phase.value, game.turn)}"
            self.delivery.moderators(ModeratorNotice(text))

    async def _remind_moderators_again(self) -> None:
        """A wait on the moderators' "deadline" is only the next reminder."""
        self._remind_moderators()
        self._deadline = self.clock.now() + self.timing.step
        self._reminded = False
        await self._save_settings()

    # -- the defaults of a choice -----------------------------------------------------------

    async def _choice_defaults(self, wait: Wait, *, reason: str, key: str, how: str) -> None:
        """Each faction ``wait`` still awaits gets its default, one action at a time, until
        what is awaited changes."""
        for faction in wait.factions:
            for n in range(DEFAULTS_PER_FACTION):
                assert self.state is not None
                now = wait_of(self.state)
                if now is None or now.key != wait.key or faction not in now.factions:
                    break
                action = default_action(self.state, faction)
                if action is None:
                    break
                await self._apply_default(action, reason=reason, key=f"{key}:{faction.value}:{n}")

    async def _apply_default(self, action: FactionAction, *, reason: str, key: str) -> None:
        result = await self._ledger().submit(action, actor=SYSTEM_ACTOR, key=key)
        if result.duplicate:
            return
        faction = action.faction
        said = answer_words(action, self._phase_value())
        self.delivery.private(PrivateNotice(faction, f"{reason}: {said}."))
        note = f"{reason}: {faction.label} answers by default."
        await self._after(result, _timed_out(faction), note=note)

    def _confirm_order(self, answer: FactionAction) -> None:
        """A standing order answered a choice: its player hears what it answered."""
        said = answer_words(answer, self._phase_value())
        who = (
            "On autopilot, the game" if self.autopilot.on(answer.faction) else "Your standing order"
        )
        text = f"{who} answered: {said}."
        self.delivery.private(PrivateNotice(answer.faction, text))

    def _phase_value(self) -> str:
        return self.state.game.phase.value if self.state is not None else ""

    def _tell_own_side(self, events: Sequence[Event]) -> None:
        """Each faction concerned by Bidding and Revival events hears its own side of them
        privately (nobody else's)."""
        state = self.state
        if state is None:
            return
        for line in truthtrance_words.moderator_lines(events, state):  # the referees read it
            self.delivery.moderators(ModeratorNotice(line))
        mine = [e for e in events if isinstance(e, OWN_SIDE)]
        concerned: set[Faction] = set()
        for event in mine:
            if isinstance(event, AuctionOpened | PrescienceAnswered):
                concerned.add(Faction.ATREIDES)  # who sees the card (2.01.05), the plan
            for name in ("faction", "paid_to", "target", "to", "asker", "ally"):
                who = getattr(event, name, None)
                if isinstance(who, Faction):
                    concerned.add(who)
        for faction in sorted(concerned & set(state.factions)):
            notice = private_notice(mine, state.view_for(faction))
            if notice is not None:
                self.delivery.private(notice)

    # -- a choice's questions that change while it is awaited ------------------------------------

    def _ask_changed(self, old: Wait, new: Wait) -> None:
        """The same choice, still awaited: a faction newly awaited is asked; one whose
        question changed (it answered part of it) sees the new question in its message."""
        if new.kind == MODERATORS:
            return
        fresh = tuple(f for f in new.factions if f not in old.factions)
        if fresh:
            self.prompts.ask(fresh, lambda f: self._prompt(f, new), self._posted)
        changed = {
            f for f in new.factions if f in old.factions and new.question(f) != old.question(f)
        }
        if changed:
            self.prompts.show(lambda f: self._prompt(f, new), only=changed)


def _timed_out(faction: Faction) -> Cause:
    """How prompts closed after ``faction``'s default: its own timed out."""

    def how(other: Faction) -> str:
        return "time ran out" if other is faction else "the game moved on"

    return how
