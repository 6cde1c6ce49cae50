"""The phase session: runs one game's Shipment & Movement phase in time.

One asyncio task per game takes requests from a queue (player actions,
moderator commands, standing orders) and wakes for deadlines. Every accepted
action is committed to the store before anything is announced. What is
awaited (the faction to act, or an open stage of prompts) has a deadline; a
reminder goes out before it, and on expiry the default happens (the faction
passes its step; open prompts are declined), announced publicly.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from bot import narrate
from bot.activity import Activity
from bot.clock import Clock
from bot.delivery import Delivery, Posted
from bot.orders import StandingOrders, standing_answer
from bot.publisher import (
    AttachmentRefusedError,
    ChannelGoneError,
    ModeratorNotice,
    PrivateNotice,
    PublicNotice,
    Publisher,
)
from bot.store import SYSTEM_ACTOR, Store, SubmitResult
from rules.actions import Action, ClosePrompts, Decline, FactionAction, Pass
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
RETRY_DEFAULT = timedelta(minutes=1)  # a deadline's default that failed is tried again


@dataclass(frozen=True, slots=True)
class Timing:
    """How long each wait lasts (minutes for live games, hours for asynchronous ones)."""

    step: timedelta = timedelta(hours=12)
    prompt: timedelta = timedelta(hours=2)
    reminder: timedelta = timedelta(hours=1)  # before the deadline

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Timing:
        raw = options.get("timing", {})
        default = cls()
        return cls(
            step=timedelta(seconds=raw.get("step_s", default.step.total_seconds())),
            prompt=timedelta(seconds=raw.get("prompt_s", default.prompt.total_seconds())),
            reminder=timedelta(seconds=raw.get("reminder_s", default.reminder.total_seconds())),
        )

    def to_options(self) -> dict[str, float]:
        return {
            "step_s": self.step.total_seconds(),
            "prompt_s": self.prompt.total_seconds(),
            "reminder_s": self.reminder.total_seconds(),
        }


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


@dataclass(frozen=True, slots=True)
class Wait:
    """What the phase waits on now: its identity, kind and who may end it."""

    key: str
    kind: str  # "step" or "prompt"
    factions: tuple[Faction, ...]


@dataclass
class _Request:
    run: Callable[[], Awaitable[Any]]
    done: asyncio.Future[Any] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


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
    ) -> None:
        self.game_id = game_id
        self.store = store
        self.publisher = publisher
        self.clock = clock
        self.timing = timing or Timing()
        self.renderer = renderer
        self.state: GameState | None = None
        self.orders: dict[Faction, StandingOrders] = {}
        self.ally_offers: dict[Faction, tuple[Faction, int]] = {}  # shipper: (ally, amount)
        self.paused_left: timedelta | None = None
        self.activity = Activity()
        self.delivery = Delivery(
            game_id, publisher, clock, activity=self.activity, trouble=self._on_trouble
        )
        self._queue: asyncio.Queue[_Request] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._deadline: datetime | None = None
        self._wait: Wait | None = None
        self._reminded = False
        self._seq = 0  # the last log entry this session has seen
        self._idle = False
        self._last_wait = ""
        self._token: str | None = None  # identifies the current wait (the log seq it opened at)
        self._asked: dict[Faction, str | None] = {}  # the prompt message of each faction asked
        self._closed: dict[str, str] = {}  # "token:faction": how that prompt closed
        self._last_action: Action | None = None  # the last accepted action

    # -- life cycle --------------------------------------------------------------

    async def start(self) -> None:
        loaded = await self.store.load_game(self.game_id)
        self.state, self._seq = loaded.state, loaded.seq
        options = loaded.record.options
        self.orders = {
            Faction(f): StandingOrders.from_dict(o)
            for f, o in options.get("standing_orders", {}).items()
        }
        self.ally_offers = {
            Faction(shipper): (Faction(offer["ally"]), int(offer["amount"]))
            for shipper, offer in options.get("ally_offers", {}).items()
        }
        self._restore_timers(loaded.record.deadlines, loaded.record.options)
        self.delivery.start()
        self._task = asyncio.create_task(self._run(), name=f"phase-session-{self.game_id}")
        self._task.add_done_callback(self._report_crash)
        self._ask_again()
        await self._call(lambda: self._follow_orders_and_wait(_position_changed))

    async def stop(self) -> None:
        """Stop the task and the delivery, whatever happened to them."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
        await self.delivery.stop()

    def _report_crash(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("session of game %d stopped", self.game_id, exc_info=task.exception())

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
        earlier = await self.store.earlier_result(self.game_id, action, key)
        if earlier is not None:
            return earlier
        if token is not None:
            self.check_open(action.faction, token)
        self._check_running()
        self._check_not_early(action)
        if check is not None:
            check()
        result = await self.store.submit(self.game_id, actor, action, key)
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
            await self._save_option(
                "ally_offers",
                {s.value: {"ally": a.value, "amount": n} for s, (a, n) in self.ally_offers.items()},
            )

        await self._call(run)

    async def set_orders(self, faction: Faction, orders: StandingOrders) -> None:
        """Record a faction's standing orders privately and apply them if a prompt waits."""

        async def run() -> None:
            self.orders[faction] = orders
            await self._save_orders()
            self.delivery.private(
                PrivateNotice(faction, f"Standing orders saved: {orders.describe()}.")
            )
            await self._follow_orders_and_wait(_position_changed)

        await self._call(run)

    async def tell(self, notice: PrivateNotice) -> None:
        """A private message to a faction, from the application (returns once tried)."""

        async def run() -> None:
            self.delivery.private(notice)

        await self._call(run)

    async def pause(self, moderator: int) -> None:
        async def run() -> None:
            self._check_awaiting("there is nothing to pause")
            if self.paused_left is None and self._deadline is not None:
                self.paused_left = self._deadline - self.clock.now()
                await self._save_timers()
            self._moderator_note(f"Paused by <@{moderator}>. Deadlines are frozen.")
            self._show_deadline()

        await self._call(run)

    async def resume(self, moderator: int) -> None:
        async def run() -> None:
            self._check_awaiting("there is nothing to resume")
            if self.paused_left is not None:
                self._deadline = self.clock.now() + self.paused_left
                self.paused_left = None
                await self._save_timers()
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
            await self._save_timers()
            self._moderator_note(f"<@{moderator}> extended the deadline by {by}.")
            self._show_deadline()

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
        (else the store accepts only its listed moderators)."""

        async def run() -> SubmitResult:
            result = await self.store.undo(self.game_id, moderator, key, authorised=authorised)
            view = result.state.public_view()
            note = narrate.correction_note(moderator, "undone", result.events, view)
            await self._after(result, _corrected, note=note)
            return result

        result: SubmitResult = await self._call(run)
        return result

    async def redo(self, moderator: int, key: str, *, authorised: bool = False) -> SubmitResult:
        """``authorised``: the caller checked that ``moderator`` moderates the game
        (else the store accepts only its listed moderators)."""

        async def run() -> SubmitResult:
            result = await self.store.redo(self.game_id, moderator, key, authorised=authorised)
            note = narrate.correction_note(moderator, "redone", result.events)
            await self._after(result, _corrected, note=note)
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
        """Run ``run`` in the session's turn; returns once its messages were tried."""
        request = _Request(run)
        await self._queue.put(request)
        try:
            return await request.done
        finally:
            await self.activity.until_quiet()

    def _later(self, run: Callable[[], Awaitable[None]]) -> None:
        """Run ``run`` in the session's turn, when its queue comes to it (nobody waits)."""

        async def logged() -> None:
            try:
                await run()
            except Exception:
                log.exception("game %d: a follow-up failed", self.game_id)

        self._queue.put_nowait(_Request(logged))
        self.activity.mark("session", idle=False)

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

    # -- the task ---------------------------------------------------------------

    async def _run(self) -> None:
        while True:
            request = await self._next_request()
            if request is None:
                await self._on_timer_safely()
                continue
            try:
                request.done.set_result(await request.run())
            except (MentatError, LookupError, PermissionError, ValueError) as error:
                request.done.set_exception(error)
            except Exception as error:  # keep the game alive; report to the caller
                log.exception("game %d: request failed", self.game_id)
                request.done.set_exception(error)

    def next_idle(self) -> Awaitable[bool]:
        """Completes the next time the game (its session and its delivery) has nothing left
        to do (tests, tools)."""
        return self.activity.next_quiet()

    async def until_idle(self) -> None:
        await self.activity.until_quiet()

    def _set_idle(self, idle: bool) -> None:
        self._idle = idle
        self.activity.mark("session", idle=idle)

    async def _next_request(self) -> _Request | None:
        """The next queued request, or None when a timer (reminder, deadline) is due."""
        try:
            return await self._wait_for_request()
        finally:
            self._set_idle(False)

    async def _wait_for_request(self) -> _Request | None:
        getter = asyncio.ensure_future(self._queue.get())
        due = self._next_timer()
        sleeper = asyncio.ensure_future(self.clock.sleep_until(due)) if due else None
        try:
            await asyncio.sleep(0)  # let the timer register before saying we are idle
            self._set_idle(self._queue.empty() and not getter.done())
            waiting = {getter} if sleeper is None else {getter, sleeper}
            done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            return getter.result() if getter in done else None
        finally:  # also when the session is stopped: leave no timer or reader behind
            if sleeper is not None:
                sleeper.cancel()
            if not getter.done():
                getter.cancel()

    def _next_timer(self) -> datetime | None:
        if self._deadline is None or self.paused_left is not None:
            return None
        if not self._reminded:
            return self._deadline - self.timing.reminder
        return self._deadline

    async def _on_timer_safely(self) -> None:
        """A timer's work never ends the task: on a failure, the deadline is tried again
        a minute later (never at once, over and over)."""
        try:
            await self._on_timer()
        except Exception:
            log.exception("game %d: the deadline's default failed", self.game_id)
            if self._deadline is not None and self._deadline <= self.clock.now():
                self._deadline = self.clock.now() + RETRY_DEFAULT

    async def _on_timer(self) -> None:
        if self._deadline is None or self.paused_left is not None:
            return
        if self.clock.now() < self._deadline:
            self._reminded = True
            await self._save_timers()
            self._remind()
            return
        prompt = self._wait is not None and self._wait.kind == "prompt"
        how = "the window timed out" if prompt else "time ran out"
        await self._default(
            reason="Time ran out", key=f"{self.game_id}:deadline:{self._seq}", how=how
        )

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
            done, cause = action, _by(action)
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
        self.delivery.public(notice)
        self.delivery.spectators(notice)

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
            result = await self.store.submit(self.game_id, SYSTEM_ACTOR, answer, key)
            self.state, self._seq = result.state, max(self._seq, result.seq)
            await self._announce(list(result.events), answer)
            await self._close_finished(_by(answer))
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
                self.delivery.close_prompt(faction, ref, f"Closed: {how}.")

    async def _arm(self) -> None:
        """Start a new deadline when what is awaited has changed; tell who must answer."""
        wait = self.current_wait()
        if wait is None:
            self._deadline, self._wait, self._token = None, None, None
            await self._save_timers()
            return
        if self._wait is not None and wait.key == self._wait.key:
            await self._save_timers()
            return
        self._wait, self._reminded, self._token = wait, False, str(self._seq)
        length = self.timing.step if wait.kind == "step" else self.timing.prompt
        self._deadline = self.clock.now() + length
        self._ask(wait)
        await self._save_timers()

    def current_wait(self) -> Wait | None:
        assert self.state is not None
        state = self.state
        if state.is_complete:
            return None
        prompts = state.open_prompts()
        if prompts:
            who = tuple(dict.fromkeys(f for p in prompts for f in p.waiting_on()))
            parts = [f"{p.kind.value}/{p.subject}/{p.ability}/{p.territory}" for p in prompts]
            return Wait("prompts:" + "|".join(parts), "prompt", who)
        turn = state.phase.turn
        assert turn is not None
        key = f"turn:{turn.faction.value}:{turn.step.value}:{turn.moves_made}:{turn.hajr_played}"
        return Wait(key + f":{sorted(f.value for f in state.phase.done)}", "step", (turn.faction,))

    def _ask(self, wait: Wait) -> None:
        """Each faction that may act or answer hears it privately, with its choices (its
        prompt message is known once posted)."""
        for faction in wait.factions:
            self._asked[faction] = None
            self.delivery.ask(self._prompt(faction, wait), self._posted(faction))

    def _ask_again(self) -> None:
        """After a restart: the prompts of the current wait that were never posted."""
        if self._wait is None:
            return
        for faction, ref in self._asked.items():
            if ref is None and faction in self._wait.factions:
                self.delivery.ask(self._prompt(faction, self._wait), self._posted(faction))

    def _posted(self, faction: Faction) -> Posted:
        token = self._token

        def record(ref: str | None) -> None:
            if ref is not None:
                self._later(lambda: self._record_prompt(faction, token, ref))

        return record

    async def _record_prompt(self, faction: Faction, token: str | None, ref: str) -> None:
        """Keep a posted prompt's message, or close it at once if its wait is over."""
        if token == self._token and faction in self._asked and self._asked[faction] is None:
            self._asked[faction] = ref
            await self._save_timers()
            return
        how = self._closed.get(f"{token}:{faction.value}", "it is over")
        self.delivery.close_prompt(faction, ref, f"Closed: {how}.")

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

    def _show_deadline(self) -> None:
        """After a pause, resume or extension, the open prompts show the new deadline."""
        if self._wait is None:
            return
        for faction, ref in self._asked.items():
            if ref is not None:
                self.delivery.edit_prompt(ref, self._prompt(faction, self._wait))

    def _remind(self) -> None:
        if self._wait is None:
            return
        for faction in self._wait.factions:
            text = f"Reminder: the deadline is {self._deadline_text()}."
            self.delivery.private(PrivateNotice(faction, text))

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
        result = await self.store.submit(self.game_id, SYSTEM_ACTOR, action, key)
        if not result.duplicate:
            await self._after(result, lambda _: how, note=f"{reason}: {what}.")

    def _moderator_note(self, text: str) -> None:
        self.delivery.moderators(ModeratorNotice(text))
        self.delivery.public(PublicNotice(text, game_id=self.game_id))

    # -- channels that are gone -------------------------------------------------------

    def _on_trouble(self, gone: ChannelGoneError) -> None:
        """A channel of the game is gone or closed to the bot: the moderators hear it (in
        the table channel if theirs is the one); without a table, the game pauses."""
        if isinstance(gone, AttachmentRefusedError):
            text = f"Mentat may not attach maps in {gone.where} ({gone.why}): it sends text."
        else:
            text = (
                f"Mentat cannot post in {gone.where}: {gone.why}. What it misses is kept; "
                "`/mod channels` repairs the game's channels and delivers it."
            )
        self.delivery.moderators(ModeratorNotice(text), or_table=gone.role != "table")
        if gone.role == "table" and not isinstance(gone, AttachmentRefusedError):
            self._later(self._pause_unseen)

    async def _pause_unseen(self) -> None:
        if self._wait is None or self.paused_left is not None or self._deadline is None:
            return
        self.paused_left = max(self._deadline - self.clock.now(), timedelta(0))
        await self._save_timers()
        self.delivery.moderators(
            ModeratorNotice(
                "The game is paused: nobody can see its table channel. Repair it with "
                "`/mod channels`, then `/mod resume`."
            )
        )
        self._show_deadline()

    async def rebind(self, channels: Mapping[str, int], private: Mapping[Faction, int]) -> int:
        """The game's channels after a repair (only those given change); what could not
        be delivered is sent again. Returns how many kept messages that is."""

        async def run() -> int:
            if channels:
                record = await self.store.game(self.game_id)
                await self.store.set_channels(self.game_id, {**record.channels, **channels})
            if private:
                options = dict((await self.store.game(self.game_id)).options)
                bound = {**options.get("private_channels", {})}
                bound.update({f.value: c for f, c in private.items()})
                await self._save_option("private_channels", bound)
            return self.delivery.redeliver()

        count: int = await self._call(run)
        return count

    # -- persistence of timers and orders --------------------------------------------

    async def _save_timers(self) -> None:
        deadlines: dict[str, datetime] = {}
        if self._deadline is not None and self._wait is not None:
            deadlines["deadline"] = self._deadline
            if self._reminded:
                deadlines["reminded"] = self._deadline
        options = dict((await self.store.game(self.game_id)).options)
        options["session"] = {
            "wait": self._wait.key if self._wait else None,
            "paused_left_s": self.paused_left.total_seconds() if self.paused_left else None,
            "token": self._token,
            "asked": {f.value: ref for f, ref in self._asked.items()},
            "closed": self._closed,
        }
        await self.store.set_deadlines(self.game_id, deadlines)
        await self.store.set_options(self.game_id, options)

    async def _save_orders(self) -> None:
        orders = {f.value: o.to_dict() for f, o in self.orders.items()}
        await self._save_option("standing_orders", orders)

    async def _save_option(self, key: str, value: Any) -> None:
        """Options are rewritten only from this task, so no write is lost."""
        options = dict((await self.store.game(self.game_id)).options)
        options[key] = value
        await self.store.set_options(self.game_id, options)

    def _restore_timers(
        self, deadlines: Mapping[str, datetime], options: Mapping[str, Any]
    ) -> None:
        saved = options.get("session", {})
        self._asked = {Faction(f): ref for f, ref in saved.get("asked", {}).items()}
        self._closed = dict(saved.get("closed", {}))
        self._token = saved.get("token")
        deadline = deadlines.get("deadline")
        if self.state is None or deadline is None:
            return
        wait = self.current_wait()
        if wait is None or wait.key != saved.get("wait"):
            return
        self._wait, self._deadline = wait, deadline
        self._reminded = "reminded" in deadlines
        if saved.get("paused_left_s") is not None:
            self.paused_left = timedelta(seconds=saved["paused_left_s"])


def _by(action: Action | None) -> Cause:
    """How an action closed each faction's prompt, in that faction's words."""

    def how(faction: Faction) -> str:
        if not isinstance(action, FactionAction):
            return "the game moved on"
        if action.faction is not faction:
            return f"{action.faction.label} acted first, and the game moved on"
        if isinstance(action, Decline):
            return "you declined"
        return "you passed" if isinstance(action, Pass) else "you acted"

    return how


def _position_changed(faction: Faction) -> str:
    return "the position changed (a correction or a new phase)"


def _corrected(faction: Faction) -> str:
    return "a moderator corrected the game"
