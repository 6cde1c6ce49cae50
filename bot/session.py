"""The phase session: runs one game's Shipment & Movement phase in time.

One asyncio task per game takes requests (player actions, moderator commands, standing
orders) and wakes for deadlines. Every accepted action (a correction too) is committed
before anything is announced. What is awaited (the faction to act, or open prompts) has a
deadline, a reminder before it and, on expiry, a default (pass the step; decline the
prompts), announced publicly. When the phase is over, the game is finished.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from bot import narrate
from bot.clock import Clock
from bot.ledger import Ledger, SubmitResult
from bot.orders import StandingOrders, standing_answer
from bot.publisher import ModeratorNotice, PrivateNotice, PublicNotice, Publisher
from bot.serial import SerialTask
from bot.settings import AllyOffer, GameSettings, SessionTimers, Timing
from bot.store import SYSTEM_ACTOR, Store
from bot.waits import Wait, wait_of
from rules.actions import Action, ClosePrompts, Correction, FactionAction, Pass
from rules.errors import MentatError
from rules.events import Event
from rules.factions import Faction
from rules.game import GameState
from rules.view import PublicView

log = logging.getLogger(__name__)

Renderer = Callable[[PublicView, list[Event]], Awaitable[bytes | None]]
Cause = Callable[[Faction], str]
"""How a faction's open prompt closed, in its own words ("you declined")."""
CLOSED_KEPT = 50  # how many closed prompts are remembered for stale buttons


class SessionError(MentatError):
    """A request the session cannot take (paused game, not a moderator, ...).

    ``rule`` names the game rule behind the refusal when there is one (e.g. an open
    Karama window, 3.01.11).
    """


class PromptClosedError(SessionError):
    """An answer to a prompt or step that is no longer open (a stale button)."""

    def __init__(self, how: str) -> None:
        super().__init__(f"this prompt has closed: {how}")
        self.how = how


class PhaseSession:
    """Drives one game's phase: the queue, the deadlines, the announcements."""

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
        name = f"session of game {game_id}"
        self._serial = SerialTask(name, clock, next_timer=self._next_timer, on_timer=self._on_timer)
        self._deadline: datetime | None = None
        self._wait: Wait | None = None
        self._reminded = False
        self._seq = 0  # the last log entry this session has seen
        self._last_wait = ""
        self._token: str | None = None  # identifies the current wait (the log seq it opened at)
        self._asked: dict[Faction, str | None] = {}  # the prompt message of each faction asked
        self._closed: dict[str, str] = {}  # "token:faction": how that prompt closed
        self._last_action: Action | None = None  # the last accepted action

    # -- life cycle --------------------------------------------------------------

    async def start(self) -> None:
        if self.ledger is None:
            self.ledger = await Ledger.open(self.store, self.game_id)
        self.state, self._seq = self.ledger.state, self.ledger.seq
        self.settings = await self.store.settings(self.game_id)
        self.orders = dict(self.settings.orders)
        self.ally_offers = {s: (o.ally, o.amount) for s, o in self.settings.ally_offers.items()}
        self._restore_timers(self.settings.timers)
        self._serial.start()
        await self._call(lambda: self._follow_orders_and_wait(narrate.position_changed))

    async def stop(self) -> None:
        await self._serial.stop()

    def next_idle(self) -> Awaitable[bool]:
        """Completes the next time the session has nothing left to do (tests, tools)."""
        return self._serial.next_idle()

    async def until_idle(self) -> None:
        await self._serial.until_idle()

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

        async def run() -> SubmitResult:
            return await self._submit_now(action, actor=actor, key=key, token=token, check=check)

        result: SubmitResult = await self._call(run)
        return result

    async def pass_step(
        self, faction: Faction, step: str | None, *, actor: int, key: str
    ) -> str | None:
        """``/pass``: pass ``step`` ("shipment" or "movement"); by default the step the
        faction is in, except right after its own shipment pass: a repeated bare pass
        (a double Enter, a laggy retry) means the shipment again and is refused as
        already passed. Returns the step passed."""

        async def run() -> str | None:
            action = Pass(faction, step=step or self._bare_pass_step(faction))
            await self._submit_now(action, actor=actor, key=key, token=None)
            return action.step

        passed: str | None = await self._call(run)
        return passed

    def _bare_pass_step(self, faction: Faction) -> str | None:
        assert self.state is not None
        if faction in self.state.phase.done:
            return "movement"
        turn = self.state.phase.turn
        if turn is None or turn.faction != faction:
            return None
        last = self._last_action
        just_passed = isinstance(last, Pass) and last.faction == faction and turn.moves_made == 0
        if turn.step.value == "move" and not just_passed:
            return "movement"
        return "shipment"

    async def _submit_now(
        self,
        action: FactionAction,
        *,
        actor: int,
        key: str,
        token: str | None,
        check: Callable[[], None] | None = None,
    ) -> SubmitResult:
        def guard(_: GameState) -> None:
            if token is not None:
                self.check_open(action.faction, token)
            self._check_running()
            self._check_not_early(action)
            if check is not None:
                check()

        result = await self._ledger().submit(action, actor=actor, key=key, guard=guard)
        if not result.duplicate:
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
            await self.publisher.private(
                self.game_id, PrivateNotice(faction, f"Standing orders saved: {orders.describe()}.")
            )
            await self._follow_orders_and_wait(narrate.position_changed)

        await self._call(run)

    async def pause(self, moderator: int) -> None:
        async def run() -> None:
            self._check_awaiting("there is nothing to pause")
            if self.paused_left is None and self._deadline is not None:
                self.paused_left = self._deadline - self.clock.now()
                await self._save_settings()
            await self._moderator_note(f"Paused by <@{moderator}>. Deadlines are frozen.")
            await self._show_deadline()

        await self._call(run)

    async def resume(self, moderator: int) -> None:
        async def run() -> None:
            self._check_awaiting("there is nothing to resume")
            if self.paused_left is not None:
                self._deadline = self.clock.now() + self.paused_left
                self.paused_left = None
                await self._save_settings()
            await self._moderator_note(f"Resumed by <@{moderator}>.")
            await self._show_deadline()

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
            await self._moderator_note(f"<@{moderator}> extended the deadline by {by}.")
            await self._show_deadline()

        await self._call(run)

    async def skip(self, moderator: int, key: str) -> None:
        """The moderator applies the default for what is awaited now."""

        async def run() -> None:
            self._check_awaiting("there is nothing to skip")
            await self._default(
                reason=f"<@{moderator}> skipped the wait", key=key, how="a moderator skipped it"
            )

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
        """A moderator's correction (the caller checked ``moderator``): an action in the log
        like any other, taken while paused; the pause, deadline, prompts, orders and offers stay.
        """

        async def run() -> SubmitResult:
            result = await self._ledger().submit(correction, actor=moderator, key=key)
            if not result.duplicate:
                note = narrate.correction_made(moderator, result.events)
                await self._after(result, narrate.corrected, note=note)
                await self._show_deadline()  # the prompts show the corrected figures
            return result

        result: SubmitResult = await self._call(run)
        return result

    async def end_phase(self, moderator: int, key: str) -> None:
        """Decline every prompt and pass every remaining step, in order."""

        async def run() -> None:
            step = 0
            while self.state is not None and not self.state.is_complete:
                await self._default(
                    reason=f"<@{moderator}> ended the phase",
                    key=f"{key}:{step}",
                    how="a moderator ended the phase",
                )
                step += 1

        await self._call(run)

    async def _call(self, run: Callable[[], Awaitable[Any]]) -> Any:
        return await self._serial.call(run)

    def _ledger(self) -> Ledger:
        assert self.ledger is not None, "the session is not started"
        return self.ledger

    def _check_awaiting(self, nothing: str) -> None:
        """Moderators' timing commands need something awaited."""
        if self.state is None or self.state.is_complete or self._wait is None:
            raise SessionError(f"the phase is over; {nothing}")

    def check_open(self, faction: Faction, token: str) -> None:
        """Is the prompt or step ``token`` still open for ``faction``?"""
        wait = self.current_wait()
        if (
            wait is not None
            and self._wait is not None
            and wait.key == self._wait.key
            and token == self._token
            and faction in wait.factions
        ):
            return
        raise PromptClosedError(self._closed.get(f"{token}:{faction.value}", "it is over"))

    def _check_running(self) -> None:
        if self.paused_left is not None:
            raise SessionError("the game is paused by a moderator")

    def _check_not_early(self, action: FactionAction) -> None:
        """While prompts are open, only their answers are taken: the rest waits."""
        assert self.state is not None
        prompts = self.state.public_view().prompts
        if prompts and not self.state.answers_open_prompt(action):
            waiting = " ".join(narrate.describe_prompt(p) for p in prompts)
            rule = self.state.open_prompts()[0].rule
            raise SessionError(f"please wait until this closes: {waiting}", rule=rule)

    # -- the timers ---------------------------------------------------------------

    def _next_timer(self) -> datetime | None:
        if self._deadline is None or self.paused_left is not None:
            return None
        if not self._reminded:
            return self._deadline - self.timing.reminder
        return self._deadline

    async def _on_timer(self) -> None:
        if self._deadline is None or self.paused_left is not None:
            return
        if self.clock.now() < self._deadline:
            self._reminded = True
            await self._save_settings()
            await self._remind()
            return
        prompt = self._wait is not None and self._wait.kind == "prompt"
        how = "the window timed out" if prompt else "time ran out"
        try:
            await self._default(
                reason="Time ran out", key=f"{self.game_id}:deadline:{self._seq}", how=how
            )
        except Exception:
            log.exception("game %d: default action failed", self.game_id)

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
        view = self.state.public_view()
        wait = narrate.describe_wait(view)
        if not note and not narrate.has_news(events) and wait == self._last_wait:
            return  # a "no" to a prompt that others still consider: nothing to tell
        self._last_wait = wait
        picture = await self.renderer(view, events) if self.renderer else None
        notice = narrate.public_notice(
            events, view, game_id=self.game_id, picture=picture, note=note
        )
        await self.publisher.public(self.game_id, notice)
        await self.publisher.spectators(self.game_id, notice)

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
            result = await self._ledger().submit(answer, actor=SYSTEM_ACTOR, key=key)
            self.state, self._seq = result.state, max(self._seq, result.seq)
            await self._announce(list(result.events), answer)
            await self._close_finished(narrate.closed_by(answer))
        await self._arm()

    def _standing_answer(self) -> FactionAction | None:
        assert self.state is not None
        if self.state.is_complete:
            return None
        for faction, orders in self.orders.items():
            if faction in self.state.factions:
                answer = standing_answer(self.state, faction, orders)
                if answer is not None:
                    return answer
        return None

    async def _close_finished(self, cause: Cause) -> None:
        """Each faction's prompt message whose prompt or step is over says how it closed."""
        wait = self.current_wait()
        same = wait is not None and self._wait is not None and wait.key == self._wait.key
        for faction, ref in list(self._asked.items()):
            if same and wait is not None and faction in wait.factions:
                continue
            how = cause(faction)
            del self._asked[faction]
            self._closed[f"{self._token}:{faction.value}"] = how
            while len(self._closed) > CLOSED_KEPT:
                del self._closed[next(iter(self._closed))]
            if ref is not None:
                await self.publisher.close_prompt(self.game_id, ref, f"Closed: {how}.")

    async def _arm(self) -> None:
        """Start a new deadline when what is awaited has changed; tell who must answer."""
        wait = self.current_wait()
        if wait is None:
            self._deadline, self._wait, self._token = None, None, None
            await self._save_settings()
            await self._finish_if_over()
            return
        if self._wait is not None and wait.key == self._wait.key:
            await self._save_settings()
            return
        self._wait, self._reminded, self._token = wait, False, str(self._seq)
        length = self.timing.step if wait.kind == "step" else self.timing.prompt
        self._deadline = self.clock.now() + length
        await self._ask(wait)
        await self._save_settings()

    async def _finish_if_over(self) -> None:
        """The phase is the whole game today: once over, the game is finished (not loaded
        at start-up); ``/mod undo`` reopens it."""
        ledger = self._ledger()
        if self.state is not None and self.state.is_complete and ledger.record.is_active:
            await ledger.finish()
            await self._moderator_note(narrate.GAME_FINISHED, spectators=True)

    def current_wait(self) -> Wait | None:
        assert self.state is not None
        return wait_of(self.state)

    async def _ask(self, wait: Wait) -> None:
        """Each faction that may act or answer hears it privately, with its choices."""
        for faction in wait.factions:
            notice = self._prompt(faction, wait)
            self._asked[faction] = await self.publisher.ask(self.game_id, notice)

    def _prompt(self, faction: Faction, wait: Wait) -> PrivateNotice:
        """What ``faction`` is asked now: the wait, its choices, its spice, the deadline."""
        assert self.state is not None
        choices = self.state.legal_actions(faction, open_stage_only=True).kinds()
        mine = self.state.view_for(faction)
        text = (
            f"{narrate.describe_wait(mine.public)}\nYou may: {', '.join(choices)}. "
            f"You hold {mine.spice} spice. Deadline: {self._deadline_text()}."
        )
        mine_first = (p for p in self.state.open_prompts() if faction in p.waiting_on())
        kind = None if wait.kind == "step" else next(mine_first).kind.value
        return PrivateNotice(faction, text, prompt=kind, choices=choices, token=self._token)

    def _deadline_text(self) -> str:
        """The deadline as Discord timestamps (each reader sees their own time zone)."""
        if self.paused_left is not None:
            return "paused by a moderator"
        if self._deadline is None:
            return "none"
        stamp = int(self._deadline.timestamp())
        return f"<t:{stamp}:f> (<t:{stamp}:R>)"

    async def _show_deadline(self) -> None:
        """After a pause, resume, extension or correction, the open prompts show it."""
        if self._wait is None:
            return
        for faction, ref in self._asked.items():
            if ref is not None:
                notice = self._prompt(faction, self._wait)
                await self.publisher.edit_prompt(self.game_id, ref, notice)

    async def _remind(self) -> None:
        if self._wait is None:
            return
        for faction in self._wait.factions:
            await self.publisher.private(
                self.game_id,
                PrivateNotice(faction, f"Reminder: the deadline is {self._deadline_text()}."),
            )

    async def _default(self, *, reason: str, key: str, how: str) -> None:
        """What happens when nobody answers in time: pass the step or decline the prompts."""
        assert self.state is not None
        if self.state.is_complete:
            return
        action: Action
        if self.state.open_prompts():
            action, what = ClosePrompts(), "the open prompts are declined"
        else:
            faction = self.state.to_act()
            assert faction is not None
            action, what = Pass(faction), f"{faction.label} passes"
        result = await self._ledger().submit(action, actor=SYSTEM_ACTOR, key=key)
        if not result.duplicate:
            await self._after(result, lambda _: how, note=f"{reason}: {what}.")

    async def _moderator_note(self, text: str, *, spectators: bool = False) -> None:
        await self.publisher.moderators(self.game_id, ModeratorNotice(text))
        notice = PublicNotice(text, game_id=self.game_id)
        await self.publisher.public(self.game_id, notice)
        if spectators:
            await self.publisher.spectators(self.game_id, notice)

    # -- persistence of timers, orders and offers ---------------------------------------

    async def _save_settings(self) -> None:
        """The session's part of the game's settings, written whole (this task alone writes
        them, so no write is lost)."""
        asked, closed = dict(self._asked), dict(self._closed)
        timers = SessionTimers(
            paused_left=self.paused_left, token=self._token, asked=asked, closed=closed
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
        self._asked, self._closed, self._token = dict(saved.asked), dict(saved.closed), saved.token
        if self.state is None or saved.deadline is None:
            return
        wait = self.current_wait()
        if wait is None or wait.key != saved.wait:
            return
        self._wait, self._deadline = wait, saved.deadline
        self._reminded = saved.reminded
        self.paused_left = saved.paused_left
