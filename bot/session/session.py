"""The session: runs one game in time, a Shipment & Movement phase or a whole game.

One asyncio task per game takes requests from a queue (player actions,
moderator commands and records, standing orders) and wakes for deadlines. Every
accepted action is committed to the store before anything is announced. What is
awaited (the faction to act, an open stage of prompts, the factions a choice
phase waits on) has a deadline; a reminder goes out before it, and on expiry the
default happens (the faction passes its step; open prompts are declined; each
faction still awaited in a choice gets its default, :mod:`rules.defaults`),
announced publicly. A phase the moderators record has no default: they are told
what to record, and reminded (:mod:`bot.session.turns`).

:class:`PhaseSession` owns the queue, the ledger, the store and the flow after every
change (announce, follow standing orders, arm the deadline); its parts, each with its own
state, are built in ``__init__`` with what they need (docs/architecture.md names them).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from datetime import timedelta
from typing import Any

from bot.activity import Activity
from bot.clock import Clock
from bot.delivery import Delivery
from bot.ledger import Ledger, SubmitResult
from bot.orders import StandingOrders
from bot.publisher import ChannelGoneError, PrivateNotice, PublicNotice, Publisher
from bot.record.announce import Announcer, Renderer
from bot.record.record import SpectatorRecord
from bot.serial import SerialTask
from bot.session.autopilot import Autopilot
from bot.session.corrections import Corrections
from bot.session.expiry import Expiry
from bot.session.extensions import Extensions
from bot.session.kept import Kept
from bot.session.opening import Opening
from bot.session.passes import RepeatedPasses
from bot.session.questions import Questions
from bot.session.telling import Telling
from bot.session.timing import Deadline
from bot.session.trouble import Trouble
from bot.session.turns import WholeTurn, check_record
from bot.session.windows import Windows
from bot.settings import GameSettings, SessionTimers, Timing
from bot.store import SYSTEM_ACTOR, Store
from bot.waits import Wait, game_over, wait_of
from bot.words import narrate
from bot.words.refusals import PromptClosedError, SessionError, bare_pass_step, check_not_early
from rules.actions import Action, Correction, FactionAction, Pass, PhaseDone, Record
from rules.events import Event
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase

log = logging.getLogger(__name__)
__all__ = ["PhaseSession", "PromptClosedError", "SessionError", "Wait"]

Cause = Callable[[Faction], str]
"""How a faction's open prompt closed, in its own words ("you declined")."""


class PhaseSession:
    """Drives one game: the queue, the deadlines, the announcements."""

    def __init__(
        self,
        game_id: int,
        *,
        store: Store,
        publisher: Publisher,
        clock: Clock,
        timing: Timing | None = None,
        renderer: Renderer | None = None,
        ledger: Ledger | None = None,
    ) -> None:
        self.game_id = game_id
        self.store = store
        self.publisher = publisher
        self.clock = clock
        self.timing = timing = timing or Timing()
        self.renderer = renderer
        self.ledger = ledger  # opened by start() unless given
        self.state: GameState | None = None
        self._seq = 0  # the last log entry this session has seen
        self._last_action: Action | None = None  # the last accepted action
        self.activity = Activity()
        self.delivery = delivery = Delivery(
            game_id, publisher, clock, activity=self.activity, trouble=self._on_trouble
        )
        self.announcer = Announcer(game_id, delivery, self.activity)
        self.deadline = Deadline(
            clock,
            timing.reminder,
            on_reminder=lambda: self.expiry.reminder(),
            on_expiry=lambda: self.expiry.expired(),
            name=f"game {game_id}",
        )
        self._serial = serial = SerialTask(
            f"session of game {game_id}",
            clock,
            next_timer=self.deadline.next_timer,
            on_timer=self.deadline.fire,
            on_idle=lambda idle: self.activity.mark("session", idle=idle),
        )
        state = self._state
        self.kept = Kept(store, game_id, self._timers)
        self.autopilot = Autopilot()  # factions that missed too many deadlines in a row
        self.passes = RepeatedPasses()  # each faction's last /pass (bot.session.passes)
        self.windows = Windows(
            state=state,
            orders=lambda: self.kept.orders,
            autopilot=self.autopilot,
            clock=clock,
            timing=timing,
        )
        self.extensions = Extensions(self.deadline, lambda: self.questions.wait)
        self.questions = Questions(
            delivery,
            state=state,
            deadline=self.extensions.text,
            offered=self.windows.offered,
            later=serial.later,
            save=self.kept.save,
        )
        self.spectating = SpectatorRecord(game_id, store)  # what the spectators read
        self.turns = WholeTurn(
            state=state,
            ledger=self._ledger,
            after=self._after,
            delivery=delivery,
            autopilot=self.autopilot,
        )
        self.opening = Opening(
            game_id,
            state=state,
            ledger=lambda: self.ledger,
            current_wait=self.current_wait,
            deadline=self.deadline,
            timing=timing,
            delivery=delivery,
            spectating=self.spectating,
        )
        self.telling = Telling(
            game_id,
            state=state,
            own_side=self.turns.tell_own_side,
            opening=self.opening.lines,
            window_line=lambda notice: self.windows.window_line(notice, self.deadline.at),
            renderer=lambda: self.renderer,
            delivery=delivery,
            announcer=self.announcer,
            spectating=self.spectating,
        )
        self.expiry = Expiry(
            game_id,
            state=state,
            current_wait=self.current_wait,
            seq=lambda: self._seq,
            ledger=self._ledger,
            after=self._after,
            deadline=self.deadline,
            questions=self.questions,
            turns=self.turns,
            telling=self.telling,
            kept=self.kept,
            autopilot=self.autopilot,
            extensions=self.extensions,
            delivery=delivery,
            clock=clock,
            step=timing.step,
        )
        self.corrections = Corrections(
            state=state,
            current_wait=self.current_wait,
            ledger=self._ledger,
            after=self._after,
            show=self.questions.show,
            default=self.expiry.default,
        )
        self.trouble = Trouble(
            game_id,
            store=store,
            delivery=delivery,
            deadline=self.deadline,
            questions=self.questions,
            kept=self.kept,
            later=serial.later,
        )

    def _state(self) -> GameState | None:
        return self.state

    @property
    def settings(self) -> GameSettings:
        """The game's settings as this session last read or wrote them."""
        return self.kept.settings

    @property
    def orders(self) -> Mapping[Faction, StandingOrders]:
        """Each faction's standing orders (its own; never shown to another)."""
        return self.kept.orders

    @property
    def ally_offers(self) -> Mapping[Faction, tuple[Faction, int]]:
        """Each shipper's ally's offer to pay: (ally, up to how much)."""
        return self.kept.ally_offers

    # -- life cycle --------------------------------------------------------------

    async def start(self) -> None:
        if self.ledger is None:
            self.ledger = await Ledger.open(self.store, self.game_id)
        self.state, self._seq = self.ledger.state, self.ledger.seq
        settings = await self.kept.load()
        self._restore_timers(saved := settings.timers)
        self.autopilot.restore(settings.seating.autopilot_after, saved.missed)
        await self.spectating.restore(self.state.public_view())
        self.delivery.start(await self.store.take_undelivered(self.game_id))
        self._serial.start()
        self.questions.ask_again()
        await self._call(lambda: self._follow_orders_and_wait(narrate.position_changed))

    async def stop(self) -> None:
        """Stop whatever happened to the task; what is undelivered is kept in the store."""
        try:
            await self._serial.stop()
        except Exception:
            log.exception("game %d: the session's task had failed", self.game_id)
        await self.announcer.stop()
        kept = await self.delivery.stop()
        if kept:
            await self.store.keep_undelivered(self.game_id, kept)

    def next_idle(self) -> Awaitable[bool]:
        """Completes the next time the session and its delivery are both idle (tests)."""
        return self.activity.next_quiet()

    async def until_idle(self) -> None:
        await self.activity.until_quiet()

    # -- requests (any task may call these; they run one at a time) ---------------

    async def submit(
        self,
        faction: Faction,
        action: FactionAction,
        *,
        actor: int,
        key: str,
        token: str | None = None,
        check: Callable[[], None] | None = None,
    ) -> SubmitResult:
        """A player's action; raises the RulesError of a refusal (nothing changes).

        ``token`` binds an answer to the prompt or step it was made for (a button):
        once that closed, the answer is refused with :class:`PromptClosedError`.
        ``check``, if given, runs in the session's turn just before the action is taken
        (e.g. that an ally's offer still stands) and refuses by raising.
        """
        if action.faction is not faction:
            raise SessionError(f"you play {faction.label}, not {action.faction.label}")
        if isinstance(action, Record):
            raise SessionError("only a moderator records what happened, with `/mod record`")

        async def run() -> SubmitResult:
            cause = self.windows.keep(action, lambda: self._check_answer(action.faction, token))
            if cause is not None:  # kept privately: nothing applied yet
                await self._follow_orders_and_wait(cause)
                assert self.state is not None
                return SubmitResult(self._seq, (), self.state, kept=True)
            return await self._submit_now(action, actor=actor, key=key, token=token, check=check)

        result: SubmitResult = await self._call(run)
        return result

    async def pass_step(
        self, faction: Faction, step: str | None, *, actor: int, key: str
    ) -> str | None:
        """``/pass``: pass ``step`` (by default, see :func:`bare_pass_step`); returns it."""

        async def run() -> str | None:
            assert self.state is not None
            bare = bare_pass_step(self.state, faction, self._last_action)
            if self.state.game_phase is not GamePhase.SHIPMENT_MOVEMENT:
                bare = None  # a choice's pass (a Nexus, charity) has no step
            now = self.clock.now()
            self.passes.check(self.state, faction, now)  # a repeated /pass: already passed
            own = self.passes.before(self.state, faction, now)
            action = Pass(faction, step=step or bare)
            await self._submit_now(action, actor=actor, key=key, token=None)
            self.passes.remember(faction, own)
            return action.step

        passed: str | None = await self._call(run)
        return passed

    async def _submit_now(
        self,
        action: FactionAction,
        *,
        actor: int,
        key: str,
        token: str | None,
        check: Callable[[], None] | None = None,
    ) -> SubmitResult:
        def guard(state: GameState) -> None:
            self._check_answer(action.faction, token)
            check_not_early(state, action)
            if check is not None:
                check()

        result = await self._ledger().submit(action, actor=actor, key=key, guard=guard)
        if not result.duplicate:
            await self.expiry.back(action.faction, actor)
            await self._after(result, action)
        return result

    async def set_ally_offer(self, shipper: Faction, ally: Faction, amount: int) -> None:
        """Record (0: withdraw) an ally's consent to pay up to ``amount`` of ``shipper``'s
        next shipment; stored with the game, so a restart keeps it."""

        async def run() -> None:
            self.kept.set_ally_offer(shipper, ally, amount)
            await self.kept.save()

        await self._call(run)

    async def set_orders(self, faction: Faction, orders: StandingOrders) -> None:
        """Record a faction's standing orders privately and apply them if a prompt waits."""

        async def run() -> None:
            self.kept.set_orders(faction, orders)
            await self.kept.save()
            self.delivery.private(
                PrivateNotice(faction, f"Standing orders saved: {orders.describe()}.")
            )
            await self._follow_orders_and_wait(narrate.position_changed)

        await self._call(run)

    async def undo(self, moderator: int, key: str, *, authorised: bool = False) -> SubmitResult:
        """``authorised``: the caller checked that ``moderator`` moderates the game
        (else the ledger accepts only its listed moderators)."""
        fix = self.corrections
        result: SubmitResult = await self._call(
            lambda: fix.undo(moderator, key, authorised=authorised)
        )
        return result

    async def redo(self, moderator: int, key: str, *, authorised: bool = False) -> SubmitResult:
        """As :meth:`undo`."""
        fix = self.corrections
        result: SubmitResult = await self._call(
            lambda: fix.redo(moderator, key, authorised=authorised)
        )
        return result

    async def correct(self, moderator: int, correction: Correction, *, key: str) -> SubmitResult:
        """A moderator's correction (the caller checked ``moderator``; :class:`Corrections`)."""
        fix = self.corrections
        result: SubmitResult = await self._call(lambda: fix.correct(moderator, correction, key=key))
        return result

    async def end_phase(self, moderator: int, key: str) -> None:
        """Give what is awaited its default until the phase is over (:class:`Corrections`)."""
        await self._call(lambda: self.corrections.end_phase(moderator, key))

    async def tell(self, notice: PrivateNotice) -> None:
        """A private message to a faction, from the application (returns once tried)."""

        async def run() -> None:
            self.delivery.private(notice)

        await self._call(run)

    async def announce(self, events: Sequence[Event], *, note: str) -> None:
        """Tell the table and spectators ``events`` (public ones: a new game's deals)."""
        await self._call(lambda: self.telling.announce(events, note=note))

    async def record(self, moderator: int, action: Record | PhaseDone, *, key: str) -> SubmitResult:
        """A moderator's record or "phase done" (:meth:`WholeTurn.record`)."""
        check_record(action)
        result: SubmitResult = await self._call(
            lambda: self.turns.record(moderator, action, key=key)
        )
        return result

    async def come_back(self, faction: Faction, actor: int) -> bool:
        """``/back``: ``faction``'s player takes it off autopilot (False: it was not on)."""

        async def run() -> bool:
            if not self.autopilot.on(faction):
                return False
            await self.expiry.back(faction, actor)
            await self._arm()  # the game waits for them again from the next question
            return True

        result: bool = await self._call(run)
        return result

    async def seated(self, faction: Faction) -> None:
        """A player took ``faction``'s seat (and reads its channel): an open prompt of the
        faction, posted before them, is posted again below, pinging them once."""

        async def run() -> None:
            await self.expiry.back(faction, None)  # a new player: off autopilot
            self.questions.seated(faction)

        await self._call(run)

    # -- the moderators' timing commands (bot.session.expiry) ---------------------------

    async def pause(self, moderator: int) -> None:
        await self._call(lambda: self.expiry.pause(moderator))

    async def resume(self, moderator: int) -> None:
        await self._call(lambda: self.expiry.resume(moderator))

    async def extend(self, moderator: int, by: timedelta, faction: Faction | None = None) -> None:
        await self._call(lambda: self.expiry.extend(moderator, by, faction))

    async def skip(self, moderator: int, key: str) -> None:
        """The default for what is awaited now (a phase the moderators record: closed)."""
        await self._call(lambda: self.expiry.skip(moderator, key))

    async def begin(self, moderator: int) -> None:
        """``/game start``: the game runs; a phase played alone, nobody acted yet, is opened
        with its ceremony, to the table (the first player pinged) and the spectators."""
        await self.resume(moderator)
        await self.open_phase()

    async def open_phase(self) -> None:
        """A phase played alone, nobody acted yet: its opening (:class:`Opening`)."""
        await self._call(self.opening.open_phase)

    # -- lost channels (bot.session.trouble) -----------------------------------------------

    def _on_trouble(self, gone: ChannelGoneError) -> None:
        self.trouble.on_trouble(gone)

    async def table_lost(self, why: str) -> None:
        """Discord said the table is gone (deleted, or the bot left the server): pause."""
        log.warning("game %d: the table is gone: %s", self.game_id, why)
        await self._call(self.trouble.pause_unseen)

    async def rebind(
        self, channels: Mapping[str, int], private: Mapping[Faction, int]
    ) -> tuple[int, int]:
        """Bind repaired channels (:meth:`Trouble.rebind`)."""
        counts: tuple[int, int] = await self._call(lambda: self.trouble.rebind(channels, private))
        return counts

    async def _call(self, run: Callable[[], Awaitable[Any]]) -> Any:
        """Run ``run`` in the session's turn; returns once its messages were tried."""
        try:
            return await self._serial.call(run)
        finally:
            await self.activity.until_quiet()

    def _ledger(self) -> Ledger:
        assert self.ledger is not None, "the session is not started"
        return self.ledger

    def check_open(self, faction: Faction, token: str) -> None:
        """Is the prompt or step ``token`` still open for ``faction``?"""
        self.questions.check_open(faction, token, self.current_wait())

    def _check_answer(self, faction: Faction, token: str | None) -> None:
        """An answer's prompt (if bound to one) is still open, and the game not paused."""
        if token is not None:
            self.check_open(faction, token)
        if self.deadline.paused:
            raise SessionError("the game is paused by a moderator")

    def current_wait(self) -> Wait | None:
        assert self.state is not None
        return self.windows.wait_of(wait_of(self.state))

    def prompt_now(self, faction: Faction) -> PrivateNotice | None:
        """``faction``'s prompt as it reads now (a command shows it again), if it is asked."""
        return self.questions.prompt_now(faction, self.current_wait())

    # -- after every change ---------------------------------------------------------

    async def _after(
        self,
        result: SubmitResult,
        action: Action | Cause | None,
        *,
        note: str | None = None,
    ) -> None:
        """``action`` is what was done (or, for a correction, how prompts closed)."""
        self.state, self._seq = result.state, max(self._seq, result.seq)
        self._last_action = action if isinstance(action, Action) else None
        if isinstance(action, FactionAction):
            self.passes.forget(action.faction)  # its next /pass repeats nothing
        if isinstance(action, Action) or action is None:
            cause = narrate.closed_by(action)
        else:
            cause = action
        await self.telling.announce(result.events, note=note)
        await self._follow_orders_and_wait(cause)

    async def _follow_orders_and_wait(self, cause: Cause) -> None:
        """Apply standing orders that answer what is open, then (re)arm the deadline.

        Prompts that closed on the way are marked closed, saying how (``cause``).
        """
        assert self.state is not None
        self._close_finished(cause)
        for _ in range(50):
            answer = self.windows.standing_answer()
            if answer is None:
                break
            key = f"{self.game_id}:order:{self._seq}:{answer.faction.value}"
            choice = self.state.game_phase is not GamePhase.SHIPMENT_MOVEMENT
            result = await self._ledger().submit(answer, actor=SYSTEM_ACTOR, key=key)
            self.state, self._seq = result.state, max(self._seq, result.seq)
            if choice and not result.duplicate:
                self.turns.confirm_order(answer)
            await self.telling.announce(result.events)
            self._close_finished(narrate.closed_by(answer))
        await self._arm()

    def _close_finished(self, cause: Cause) -> None:
        """Each faction's prompt message whose prompt or step is over says how it closed."""
        wait, asked = self.current_wait(), self.questions.wait
        same = wait is not None and asked is not None and wait.key == asked.key
        same = same or self.windows.continues(wait, asked)  # a new stage of the same offer
        self.questions.prompts.close(wait.factions if same and wait is not None else (), cause)

    async def _arm(self) -> None:
        """Start a new deadline when what is awaited has changed; tell who must answer."""
        wait, asked = self.current_wait(), self.questions.wait
        if wait is None:
            self.deadline.clear()
            self.questions.over()
            await self.kept.save()
            await self._finish_if_over()
            return
        if asked is not None and wait.key == asked.key:
            self.questions.changed(wait)  # a choice: newcomers asked, changed questions shown
        elif self.windows.continues(wait, asked):  # the same messages, the next stage's time
            stage = self.windows.stage_deadline(self.clock.now(), self.deadline.at)
            self.deadline.arm(stage, late_reminder=False)
            self.questions.changed(wait)
        else:
            self.deadline.arm(self.clock.now() + self.timing.step)
            stage_deadline = self.windows.new_offer(wait, self.deadline.at)
            if stage_deadline is not None:  # prompts: the window's or the prompt's deadline
                self.deadline.arm(stage_deadline, late_reminder=False)
            self.questions.ask(wait, str(self._seq))
        await self.kept.save()

    async def _finish_if_over(self) -> None:
        """Once the game is over (won, or the one phase it was to play done), the
        game is finished (not loaded at start-up); ``/mod undo`` reopens it."""
        ledger = self._ledger()
        if self.state is not None and game_over(self.state) and ledger.record.is_active:
            await ledger.finish()
            self.telling.moderator_note(f"{narrate.GAME_FINISHED} {narrate.UNDO_AFTER_THE_END}")
            self.delivery.spectators(PublicNotice(narrate.GAME_FINISHED, game_id=self.game_id))

    # -- persistence of timers ----------------------------------------------------------

    def _timers(self) -> SessionTimers:
        """The session's timers as they are now, saved with the game's settings."""
        prompts, deadline, wait = self.questions.prompts, self.deadline, self.questions.wait
        timers = replace(
            prompts.timers(deadline.paused_left),
            offer=self.windows.offer,
            missed=dict(self.autopilot.missed),
            extended=self.extensions.now(),
        )
        if deadline.at is not None and wait is not None:
            timers = replace(
                timers, wait=wait.key, deadline=deadline.at, reminded=deadline.reminded
            )
        return timers

    def _restore_timers(self, saved: SessionTimers) -> None:
        self.questions.prompts.restore(saved.token, saved.asked, saved.closed)
        self.windows.offer = saved.offer
        if self.state is None or saved.deadline is None:
            return
        wait = self.current_wait()
        if wait is None or wait.key != saved.wait:
            return
        self.questions.wait = wait
        self.deadline.restore(
            saved.deadline, reminded=saved.reminded, paused_left=saved.paused_left
        )
        self.extensions.restore(wait.key, saved.extended)
