"""The whole game's part of a session: defaults of choices, moderators' waits, orders' answers.

:class:`WholeTurn`, a part of :class:`bot.session.session.PhaseSession`:

- **Choices** (set-up, storm dials, the Nexus, charity...): when the deadline passes, each
  faction still awaited gets its default (:func:`rules.defaults.default_action`), one log
  action each, keyed by the deadline, so a default is never applied twice. Its player is
  told privately what was chosen for it; the table only that it was a default (a default
  dial or traitor stays secret).
- **Waiting on the moderators** (revival, once the last revivals asked for are recorded):
  no faction is asked; the moderators' channel is told what to record and reminded until
  the phase is closed (:class:`bot.session.questions.Questions` tells them). Each record
  (:meth:`WholeTurn.record`) is an action of the log like any other (in the Bidding,
  Revival and Battle phases, which the engine runs, a record is a moderator's correction).
- **Standing orders** that answer a choice are confirmed privately, as the faction's own
  answer.
- **A faction's own side** of the events its phase's words tell privately
  (:attr:`bot.words.phase_words.PhaseWords.own_side`: a card bought and the spice left, a
  hand taken or given back, a plan seen...) goes to its private channel, and to those the
  phase's words say see it too (``seen_by``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from bot.delivery import Delivery
from bot.ledger import Ledger, SubmitResult
from bot.publisher import ModeratorNotice, PrivateNotice
from bot.session.autopilot import Autopilot
from bot.store import SYSTEM_ACTOR
from bot.waits import Wait, wait_of
from bot.words import phase_words
from bot.words import truthtrance as truthtrance_words
from bot.words.choices import answer_words
from bot.words.refusals import SessionError
from bot.words.turn import private_notice
from rules.actions import Action, FactionAction, PhaseDone, Record
from rules.defaults import default_action
from rules.events import Event, TruthtranceAnswered, TruthtrancePlayed
from rules.factions import Faction
from rules.game import GameState

DEFAULTS_PER_FACTION = 8  # a faction owes at most a few set-up choices
OWN_SIDE = (
    TruthtrancePlayed,  # the asker's own side: its question, then the answer to it
    TruthtranceAnswered,
)
"""The events whose private side the session tells the factions concerned, besides those
the phases' words tell (:attr:`bot.words.phase_words.PhaseWords.own_side`)."""
Cause = Callable[[Faction], str]


class After(Protocol):
    """What the session does after a change: announce it, follow standing orders, re-arm."""

    def __call__(
        self, result: SubmitResult, action: Action | Cause | None, *, note: str | None = None
    ) -> Awaitable[None]: ...


def check_record(action: Action) -> None:
    """Only a record or "phase done" is a moderator's record."""
    if not isinstance(action, Record | PhaseDone):
        raise SessionError(f"{action.name.replace('_', ' ')} is not a moderator's record")


class WholeTurn:
    """Choices' defaults, the moderators' records, orders' confirmations and each faction's
    own side of the events; see the module's docstring."""

    def __init__(
        self,
        *,
        state: Callable[[], GameState | None],
        ledger: Callable[[], Ledger],
        after: After,
        delivery: Delivery,
        autopilot: Autopilot,
    ) -> None:
        self._state = state
        self._ledger = ledger
        self._after = after
        self._delivery = delivery
        self._autopilot = autopilot

    # -- the moderators' records ----------------------------------------------------------

    async def record(self, moderator: int, action: Record | PhaseDone, *, key: str) -> SubmitResult:
        """A moderator's record, a correction of a phase (the caller checked ``moderator``), or
        "phase done"; announced publicly. The engine refuses a record of another phase (its
        rule cited) and nothing changes; a repeated ``key`` is not applied twice."""
        result = await self._ledger().submit(action, actor=moderator, key=key)
        if not result.duplicate:
            closed = isinstance(action, PhaseDone)
            note = f"<@{moderator}> closed the phase." if closed else f"Recorded by <@{moderator}>."
            await self._after(result, action, note=note)
        return result

    async def close_recorded(self, moderator: int | None, *, key: str) -> None:
        """A moderator skipping or ending a phase that waits on the moderators closes it
        ("phase done"); time alone never does."""
        if moderator is None:
            return
        result = await self._ledger().submit(PhaseDone(), actor=moderator, key=key)
        if not result.duplicate:
            await self._after(result, PhaseDone(), note=f"<@{moderator}> closed the phase.")

    # -- the defaults of a choice -----------------------------------------------------------

    async def choice_defaults(self, wait: Wait, *, reason: str, key: str) -> None:
        """Each faction ``wait`` still awaits gets its default, one action at a time, until
        what is awaited changes."""
        for faction in wait.factions:
            for n in range(DEFAULTS_PER_FACTION):
                state = self._state()
                assert state is not None
                now = wait_of(state)
                if now is None or now.key != wait.key or faction not in now.factions:
                    break
                action = default_action(state, faction)
                if action is None:
                    break
                await self._apply_default(action, reason=reason, key=f"{key}:{faction.value}:{n}")

    async def _apply_default(self, action: FactionAction, *, reason: str, key: str) -> None:
        result = await self._ledger().submit(action, actor=SYSTEM_ACTOR, key=key)
        if result.duplicate:
            return
        faction = action.faction
        said = answer_words(action, self._phase_value())
        self._delivery.private(PrivateNotice(faction, f"{reason}: {said}."))
        note = f"{reason}: {faction.label} answers by default."
        await self._after(result, _timed_out(faction), note=note)

    def confirm_order(self, answer: FactionAction) -> None:
        """A standing order (or the autopilot) answered a choice: its player hears what."""
        said = answer_words(answer, self._phase_value())
        on = self._autopilot.on(answer.faction)
        who = "On autopilot, the game" if on else "Your standing order"
        self._delivery.private(PrivateNotice(answer.faction, f"{who} answered: {said}."))

    def _phase_value(self) -> str:
        state = self._state()
        return state.game.phase.value if state is not None else ""

    def tell_own_side(self, events: Sequence[Event]) -> None:
        """Each faction concerned by events with a private side hears its own side of them
        privately (nobody else's)."""
        state = self._state()
        if state is None:
            return
        for line in truthtrance_words.moderator_lines(events, state):  # the referees read it
            self._delivery.moderators(ModeratorNotice(line))
        registered = phase_words.every()
        kinds = OWN_SIDE + tuple(kind for words in registered for kind in words.own_side)
        mine = [e for e in events if isinstance(e, kinds)]
        concerned: set[Faction] = set()
        for event in mine:
            for words in registered:  # who sees it besides those it names (the card on offer)
                concerned.update(words.seen_by(event))
            for name in ("faction", "paid_to", "target", "to", "asker", "ally"):
                who = getattr(event, name, None)
                if isinstance(who, Faction):
                    concerned.add(who)
        for faction in sorted(concerned & set(state.factions)):
            notice = private_notice(mine, state.view_for(faction))
            if notice is not None:
                self._delivery.private(notice)


def _timed_out(faction: Faction) -> Cause:
    """How prompts closed after ``faction``'s default: its own timed out."""

    def how(other: Faction) -> str:
        return "time ran out" if other is faction else "the game moved on"

    return how
