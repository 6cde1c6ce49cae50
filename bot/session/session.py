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
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from bot.activity import Activity
from bot.clock import Clock
from bot.delivery import Delivery
from bot.ledger import Ledger, SubmitResult
from bot.orders import StandingOrders
from bot.publisher import (
    ModeratorNotice,
    PrivateNotice,
    PublicNotice,
    Publisher,
)
from bot.record.announce import Announcer, Renderer, draw_maps
from bot.record.record import SpectatorRecord
from bot.serial import SerialTask
from bot.session.autopilot import Autopilot
from bot.session.opening import OpeningControls
from bot.session.passes import RepeatedPasses
from bot.session.prompts import PromptMessages, deadline_text, pings, prompt_for, reminder_for
from bot.session.timing import TimingControls
from bot.session.trouble import TroubleControls
from bot.session.turns import TurnControls
from bot.session.windows import WindowControls, is_window, offer_prompt
from bot.settings import AllyOffer, GameSettings, Offer, SessionTimers, Timing
from bot.store import SYSTEM_ACTOR, Store
from bot.waits import CHOICE, MODERATORS, PROMPT, Wait, game_over, wait_of
from bot.words import ceremony, narrate
from bot.words.choices import choice_prompt
from bot.words.refusals import PromptClosedError, SessionError, bare_pass_step, check_not_early
from rules.actions import Action, ClosePrompts, Correction, FactionAction, Pass, Record
from rules.events import Event
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase

log = logging.getLogger(__name__)
__all__ = ["PhaseSession", "PromptClosedError", "SessionError", "Wait"]

Cause = Callable[[Faction], str]
"""How a faction's open prompt closed, in its own words ("you declined")."""
END_PHASE_LIMIT = 500  # defaults one /mod end-phase may apply (a phase needs far fewer)
SEATED = "asked again below, for the player who holds the seat now"


class PhaseSession(TimingControls, TurnControls, TroubleControls, WindowControls, OpeningControls):
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
        self.timing = timing or Timing()
        self.renderer = renderer
        self.ledger = ledger  # opened by start() unless given
        self.settings = GameSettings()
        self.state: GameState | None = None
        self.orders: dict[Faction, StandingOrders] = {}
        self.ally_offers: dict[Faction, tuple[Faction, int]] = {}  # shipper: (ally, amount)
        self.paused_left: timedelta | None = None
        self.activity = Activity()
        self.delivery = Delivery(
            game_id, publisher, clock, activity=self.activity, trouble=self._on_trouble
        )
        self.announcer = Announcer(game_id, self.delivery, self.activity)
        self._serial = SerialTask(
            f"session of game {game_id}",
            clock,
            next_timer=self._next_timer,
            on_timer=self._on_timer_safely,
            on_idle=lambda idle: self.activity.mark("session", idle=idle),
        )
        self._deadline: datetime | None = None
        self._wait: Wait | None = None
        self._reminded = False
        self._seq = 0  # the last log entry this session has seen
        self._last_wait = ""
        self.prompts = PromptMessages(self.delivery)
        self.spectating = SpectatorRecord(game_id, store)  # what the spectators read
        self._last_action: Action | None = None  # the last accepted action
        self.offer = Offer()  # the prompts offered together now (bot.session.windows)
        self.passes = RepeatedPasses()  # each faction's last /pass (bot.session.passes)
        self.autopilot = Autopilot()  # factions that missed too many deadlines in a row

    # -- life cycle --------------------------------------------------------------

    async def start(self) -> None:
        if self.ledger is None:
            self.ledger = await Ledger.open(self.store, self.game_id)
        self.state, self._seq = self.ledger.state, self.ledger.seq
        self.settings = await self.store.settings(self.game_id)
        self.orders = dict(self.settings.orders)
        self.ally_offers = {s: (o.ally, o.amount) for s, o in self.settings.ally_offers.items()}
        self._restore_timers(saved := self.settings.timers)
        self.autopilot = Autopilot(self.settings.seating.autopilot_after, saved.missed)
        await self.spectating.restore(self.state.public_view())
        self.delivery.start(await self.store.take_undelivered(self.game_id))
        self._serial.start()
        self._ask_again()
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
            if await self._keep_answer(action, token):  # kept privately: nothing applied yet
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
            if token is not None:
                self.check_open(action.faction, token)
            self._check_running()
            check_not_early(state, action)
            if check is not None:
                check()

        result = await self._ledger().submit(action, actor=actor, key=key, guard=guard)
        if not result.duplicate:
            await self._back(action.faction, actor)
            await self._after(result, action)
        return result

    async def set_ally_offer(self, shipper: Faction, ally: Faction, amount: int) -> None:
        """Record (0: withdraw) an ally's consent to pay up to ``amount`` of ``shipper``'s
        next shipment; stored with the game, so a restart keeps it."""

        async def run() -> None:
            if amount > 0:
                self.ally_offers[shipper] = (ally, amount)
            else:
                self.ally_offers.pop(shipper, None)
            await self._save_settings()

        await self._call(run)

    async def set_orders(self, faction: Faction, orders: StandingOrders) -> None:
        """Record a faction's standing orders privately and apply them if a prompt waits."""

        async def run() -> None:
            self.orders[faction] = orders
            await self._save_settings()
            self.delivery.private(
                PrivateNotice(faction, f"Standing orders saved: {orders.describe()}.")
            )
            await self._follow_orders_and_wait(narrate.position_changed)

        await self._call(run)

    async def undo(self, moderator: int, key: str, *, authorised: bool = False) -> SubmitResult:
        """``authorised``: the caller checked that ``moderator`` moderates the game
        (else the ledger accepts only its listed moderators)."""

        async def run() -> SubmitResult:
            result = await self._ledger().undo(moderator, key, authorised=authorised)
            view = result.state.public_view()
            note = narrate.correction_note(moderator, "undone", result.events, view)
            await self._after(result, narrate.corrected, note=note)
            return result

        result: SubmitResult = await self._call(run)
        return result

    async def redo(self, moderator: int, key: str, *, authorised: bool = False) -> SubmitResult:
        """``authorised``: the caller checked that ``moderator`` moderates the game
        (else the ledger accepts only its listed moderators)."""

        async def run() -> SubmitResult:
            result = await self._ledger().redo(moderator, key, authorised=authorised)
            note = narrate.correction_note(moderator, "redone", result.events)
            await self._after(result, narrate.corrected, note=note)
            return result

        result: SubmitResult = await self._call(run)
        return result

    async def correct(self, moderator: int, correction: Correction, *, key: str) -> SubmitResult:
        """A moderator's correction (the caller checked ``moderator``): a log action taken
        even while paused; the pause, deadline, prompts, orders and offers stay."""

        async def run() -> SubmitResult:
            result = await self._ledger().submit(correction, actor=moderator, key=key)
            if not result.duplicate:
                note = narrate.correction_made(moderator, result.events)
                await self._after(result, narrate.corrected, note=note)
                self._show_deadline()  # the prompts show the corrected figures
            return result

        result: SubmitResult = await self._call(run)
        return result

    async def end_phase(self, moderator: int, key: str) -> None:
        """Decline every prompt and pass every remaining step, in order; in a whole game,
        give every choice its default, or close a phase that waits on the moderators, until
        the phase is over."""

        async def run() -> None:
            assert self.state is not None
            phase = (self.state.game_phase, self.state.turn)
            step = 0
            while not game_over(self.state) and (self.state.game_phase, self.state.turn) == phase:
                if self.current_wait() is None or step >= END_PHASE_LIMIT:
                    break
                await self._default(
                    reason=f"<@{moderator}> ended the phase",
                    key=f"{key}:{step}",
                    how="a moderator ended the phase",
                    moderator=moderator,
                )
                step += 1

        await self._call(run)

    async def tell(self, notice: PrivateNotice) -> None:
        """A private message to a faction, from the application (returns once tried)."""

        async def run() -> None:
            self.delivery.private(notice)

        await self._call(run)

    async def seated(self, faction: Faction) -> None:
        """A player took ``faction``'s seat (and reads its channel): an open prompt of the
        faction, posted before them, is posted again below, pinging them once."""

        async def run() -> None:
            await self._back(faction, None)  # a new player: off autopilot
            if self._wait is not None:
                prompt = partial(self._prompt, wait=self._wait)
                self.prompts.post_again((faction,), prompt, self._posted, ping=True, closed=SEATED)

        await self._call(run)

    async def _call(self, run: Callable[[], Awaitable[Any]]) -> Any:
        """Run ``run`` in the session's turn; returns once its messages were tried."""
        try:
            return await self._serial.call(run)
        finally:
            await self.activity.until_quiet()

    def _ledger(self) -> Ledger:
        assert self.ledger is not None, "the session is not started"
        return self.ledger

    def _check_awaiting(self, nothing: str) -> None:
        """Moderators' timing commands need something awaited."""
        if self.state is None or game_over(self.state) or self._wait is None:
            over = "game" if self.state is not None and self.state.game else "phase"
            raise SessionError(f"the {over} is over; {nothing}")

    def check_open(self, faction: Faction, token: str) -> None:
        """Is the prompt or step ``token`` still open for ``faction``?"""
        wait = self.current_wait()
        if (
            wait is not None
            and self._wait is not None
            and wait.key == self._wait.key
            and token == self.prompts.token
            and faction in wait.factions
        ):
            return
        raise PromptClosedError(self.prompts.how_closed(token, faction))

    def _check_running(self) -> None:
        if self.paused_left is not None:
            raise SessionError("the game is paused by a moderator")

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
            done, cause = action, narrate.closed_by(action)
        else:
            done, cause = None, action
        await self._announce(list(result.events), done, note=note)
        await self._follow_orders_and_wait(cause)

    async def _announce(
        self, events: list[Event], action: Action | None, *, note: str | None = None
    ) -> None:
        assert self.state is not None
        self._tell_own_side(events)  # the Atreides' look at a card, a buyer's spice left
        if not events and not note:
            return  # a secret choice (the Fremen's about their ally): nothing public happened
        view = self.state.public_view()
        opening = self._opening(events, view)
        record = await self.spectating.add(events, view, note=note, opening=opening)
        wait = ceremony.describe_wait(view)
        if not note and not ceremony.has_news(events) and wait == self._last_wait:
            return  # a "no" to a prompt that others still consider: nothing to tell
        self._last_wait = wait
        notice = ceremony.public_notice(
            events, view, game_id=self.game_id, note=note, opening=opening
        )
        notice = self.window_line(notice)  # an open window says when it closes
        # the words now; the map drawn off this task, attached to them and a turn's record
        self.announcer.announce(notice, draw_maps(self.renderer, view, events, record), record)

    async def _follow_orders_and_wait(self, cause: Cause) -> None:
        """Apply standing orders that answer what is open, then (re)arm the deadline.

        Prompts that closed on the way are marked closed, saying how (``cause``).
        """
        assert self.state is not None
        await self._close_finished(cause)
        for _ in range(50):
            answer = self._standing_answer()
            if answer is None:
                break
            key = f"{self.game_id}:order:{self._seq}:{answer.faction.value}"
            choice = self.state.game_phase is not GamePhase.SHIPMENT_MOVEMENT
            result = await self._ledger().submit(answer, actor=SYSTEM_ACTOR, key=key)
            self.state, self._seq = result.state, max(self._seq, result.seq)
            if choice and not result.duplicate:
                self._confirm_order(answer)
            await self._announce(list(result.events), answer)
            await self._close_finished(narrate.closed_by(answer))
        await self._arm()

    async def _close_finished(self, cause: Cause) -> None:
        """Each faction's prompt message whose prompt or step is over says how it closed."""
        wait = self.current_wait()
        same = wait is not None and self._wait is not None and wait.key == self._wait.key
        same = same or self._continues_offer(wait)  # a new stage of the same offer
        self.prompts.close(wait.factions if same and wait is not None else (), cause)

    async def _arm(self) -> None:
        """Start a new deadline when what is awaited has changed; tell who must answer."""
        wait = self.current_wait()
        if wait is None:
            self._deadline, self._wait, self.prompts.token = None, None, None
            await self._save_settings()
            await self._finish_if_over()
            return
        if self._wait is not None and wait.key == self._wait.key:
            old, self._wait = self._wait, wait
            self._ask_changed(old, wait)  # a choice: newcomers asked, changed questions shown
            await self._save_settings()
            return
        if self._continue_offer(wait):  # the same messages, the next stage's deadline
            await self._save_settings()
            return
        self._wait, self._reminded, self.prompts.token = wait, False, str(self._seq)
        self._deadline = self.clock.now() + self.timing.step
        self._new_offer(wait)  # prompts: the window's or the prompt's deadline
        self._ask(wait)
        await self._save_settings()

    async def _finish_if_over(self) -> None:
        """Once the game is over (a phase on its own: complete; a whole game: won), the
        game is finished (not loaded at start-up); ``/mod undo`` reopens it."""
        ledger = self._ledger()
        if self.state is not None and game_over(self.state) and ledger.record.is_active:
            await ledger.finish()
            self._moderator_note(f"{narrate.GAME_FINISHED} {narrate.UNDO_AFTER_THE_END}")
            self.delivery.spectators(PublicNotice(narrate.GAME_FINISHED, game_id=self.game_id))

    def current_wait(self) -> Wait | None:
        assert self.state is not None
        return self._offer_wait(wait_of(self.state))

    def _ask(self, wait: Wait) -> None:
        """Each faction that may act or answer hears it privately, with its choices (a
        phase that waits on the moderators: they hear what to record)."""
        if wait.kind == MODERATORS:
            self._tell_moderators(wait)
        prompt = partial(self._prompt, wait=wait)
        self.prompts.ask(wait.factions, prompt, self._posted, ping=pings(wait))

    def _ask_again(self) -> None:
        """After a restart: the prompts of the current wait that were never posted."""
        if self._wait is not None:
            wait = self._wait
            prompt = partial(self._prompt, wait=wait)
            self.prompts.ask_again(wait.factions, prompt, self._posted, ping=pings(wait))

    def _posted(self, faction: Faction, token: str | None, ref: str) -> None:
        async def record() -> None:
            if self.prompts.record(faction, token, ref):
                await self._save_settings()

        self._serial.later(record)

    def _prompt(self, faction: Faction, wait: Wait) -> PrivateNotice:
        assert self.state is not None
        deadline = self._deadline_text()
        if wait.kind == CHOICE:
            return choice_prompt(self.state, faction, wait, self.prompts.token, deadline)
        if wait.kind == PROMPT:
            offered = self.offered(faction)
            return offer_prompt(self.state, faction, offered, self.prompts.token, deadline)
        return prompt_for(self.state, faction, wait, self.prompts.token, deadline)

    def prompt_now(self, faction: Faction) -> PrivateNotice | None:
        """``faction``'s prompt as it reads now (a command shows it again), if it is asked."""
        wait = self._wait
        if wait is None or faction not in wait.factions or wait != self.current_wait():
            return None
        return self._prompt(faction, wait)

    def _deadline_text(self) -> str:
        return deadline_text(self._deadline, self.paused_left)

    def _show_deadline(self) -> None:
        """After a pause, resume or extension, the open prompts show the new deadline."""
        if self._wait is not None:
            wait = self._wait
            self.prompts.show(lambda f: self._prompt(f, wait))

    def _remind(self) -> None:
        if self._wait is None:
            return
        if self._wait.kind == MODERATORS:
            self._remind_moderators()
            return
        assert self.state is not None
        for faction in self._wait.factions:
            text = reminder_for(self.state, faction, self._wait, self._deadline_text())
            self.delivery.private(PrivateNotice(faction, text))

    async def _default(
        self, *, reason: str, key: str, how: str, moderator: int | None = None
    ) -> None:
        """What happens when nobody answers in time: pass the step or decline the prompts;
        in a choice, each faction still awaited gets its default; a wait on the moderators has none
        (a ``moderator`` skipping or ending it closes it)."""
        assert self.state is not None
        if game_over(self.state):
            return
        wait = self.current_wait()
        if wait is not None and wait.kind == CHOICE:
            await self._choice_defaults(wait, reason=reason, key=key, how=how)
            return
        if wait is not None and wait.kind == MODERATORS:
            await self._close_recorded(moderator, key=key)
            return
        action: Action
        prompts = self.state.open_prompts()
        if is_window(prompts):  # a secret window's normal end, whatever its reason
            action, note = ClosePrompts(), narrate.WINDOW_CLOSED
        elif prompts:
            action, note = ClosePrompts(), f"{reason}: the open prompts are declined."
        else:
            faction = self.state.to_act()
            assert faction is not None
            action, note = Pass(faction), f"{reason}: {faction.label} passes."
        result = await self._ledger().submit(action, actor=SYSTEM_ACTOR, key=key)
        if not result.duplicate:
            await self._after(result, lambda _: how, note=note)

    def _moderator_note(self, text: str) -> None:
        self.delivery.moderators(ModeratorNotice(text))
        self.delivery.public(PublicNotice(text, game_id=self.game_id))

    # -- persistence of timers, orders and offers ---------------------------------------

    async def _save_settings(self) -> None:
        """The session's part of the game's settings, written whole (this task alone writes
        them, so no write is lost)."""
        timers = replace(
            self.prompts.timers(self.paused_left), offer=self.offer, missed=self.autopilot.missed
        )
        if self._deadline is not None and self._wait is not None:
            timers = replace(
                timers, wait=self._wait.key, deadline=self._deadline, reminded=self._reminded
            )
        offers = {s: AllyOffer(a, s, n) for s, (a, n) in self.ally_offers.items()}
        self.settings = replace(
            self.settings, timers=timers, orders=dict(self.orders), ally_offers=offers
        )
        await self.store.set_settings(self.game_id, self.settings)

    def _restore_timers(self, saved: SessionTimers) -> None:
        self.prompts.restore(saved.token, saved.asked, saved.closed)
        self.offer = saved.offer
        if self.state is None or saved.deadline is None:
            return
        wait = self.current_wait()
        if wait is None or wait.key != saved.wait:
            return
        self._wait, self._deadline = wait, saved.deadline
        self._reminded = saved.reminded
        self.paused_left = saved.paused_left
