"""The session's parts through their own narrow interfaces (issue 24, "the session is
composed"): the deadline on a fake clock, what is kept with the settings in a real
store, the questions asked through a real delivery, and the offer of a secret window on
the example phase's position."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.delivery import Delivery
from bot.orders import StandingOrders
from bot.publisher import PublicNotice, RecordingPublisher
from bot.session.autopilot import Autopilot
from bot.session.kept import Kept
from bot.session.questions import Questions
from bot.session.timing import RETRY_DEFAULT, Deadline
from bot.session.windows import Windows
from bot.settings import SessionTimers, Timing
from bot.store import Store
from bot.waits import wait_of
from bot.words.refusals import PromptClosedError, SessionError
from rules.actions import Decline, action_from_dict
from rules.errors import MentatError
from rules.factions import Faction
from rules.game import GameState
from rules.scenario import load_scenario
from tests.bot.test_session import scenario

ATREIDES, BG, GUILD = Faction.ATREIDES, Faction.BENE_GESSERIT, Faction.SPACING_GUILD
HARKONNEN, EMPEROR, FREMEN = Faction.HARKONNEN, Faction.EMPEROR, Faction.FREMEN
REMINDER = timedelta(minutes=10)
HOUR = timedelta(hours=1)


class Fired:
    """What a deadline's timers did, in order; ``fail`` makes the expiry raise it."""

    def __init__(self, fail: Exception | None = None) -> None:
        self.seen: list[str] = []
        self.fail = fail

    async def reminder(self) -> None:
        self.seen.append("reminder")

    async def expiry(self) -> None:
        self.seen.append("expiry")
        if self.fail is not None:
            raise self.fail


def timer(clock: FakeClock, fired: Fired) -> Deadline:
    return Deadline(clock, REMINDER, on_reminder=fired.reminder, on_expiry=fired.expiry)


# -- the deadline ---------------------------------------------------------------------------


async def test_a_deadline_wakes_for_its_reminder_then_its_expiry() -> None:
    clock, fired = FakeClock(), Fired()
    deadline = timer(clock, fired)
    assert deadline.next_timer() is None and deadline.text() == "none"
    end = clock.now() + HOUR
    deadline.arm(end)
    assert deadline.next_timer() == end - REMINDER
    await clock.advance((HOUR - REMINDER).total_seconds())
    await deadline.fire()
    assert fired.seen == ["reminder"] and deadline.reminded
    assert deadline.next_timer() == end
    await clock.advance(REMINDER.total_seconds())
    await deadline.fire()
    assert fired.seen == ["reminder", "expiry"]
    stamp = int(end.timestamp())
    assert deadline.text() == f"<t:{stamp}:f> (<t:{stamp}:R>)"


async def test_a_paused_deadline_never_fires_and_resumes_with_the_time_left() -> None:
    clock, fired = FakeClock(), Fired()
    deadline = timer(clock, fired)
    deadline.arm(clock.now() + HOUR)
    await clock.advance(20 * 60)
    assert deadline.pause() and not deadline.pause()  # the second changes nothing
    assert deadline.paused_left == timedelta(minutes=40) and deadline.next_timer() is None
    assert deadline.text() == "paused by a moderator"
    await clock.advance(3 * 3600)
    await deadline.fire()
    assert fired.seen == []
    assert deadline.resume() and not deadline.resume()
    assert deadline.at == clock.now() + timedelta(minutes=40) and not deadline.paused


async def test_extending_moves_the_deadline_or_the_time_left() -> None:
    clock, fired = FakeClock(), Fired()
    deadline = timer(clock, fired)
    end = clock.now() + HOUR
    deadline.arm(end)
    await clock.advance((HOUR - REMINDER).total_seconds())
    await deadline.fire()
    deadline.extend(timedelta(minutes=30))
    assert deadline.at == end + timedelta(minutes=30)
    assert not deadline.reminded  # reminded again before the new deadline
    deadline.pause()
    deadline.extend(timedelta(minutes=5))
    assert deadline.paused_left == timedelta(minutes=45) and deadline.at == end + timedelta(
        minutes=30
    )


def test_a_stage_armed_after_its_reminder_time_sends_none() -> None:
    clock = FakeClock()
    deadline = timer(clock, Fired())
    deadline.arm(clock.now() + timedelta(minutes=5), late_reminder=False)
    assert deadline.reminded and deadline.next_timer() == deadline.at
    deadline.arm(clock.now() + HOUR, late_reminder=False)
    assert not deadline.reminded and deadline.next_timer() == deadline.at - REMINDER
    deadline.arm(clock.now() + timedelta(minutes=5))  # a wait's own deadline: reminded late
    assert not deadline.reminded
    deadline.clear()
    assert deadline.next_timer() is None


@pytest.mark.parametrize("fail", [MentatError("already written"), RuntimeError("store down")])
async def test_an_expiry_that_fails_is_tried_again_a_minute_later(fail: Exception) -> None:
    clock, fired = FakeClock(), Fired(fail)
    deadline = timer(clock, fired)
    deadline.arm(clock.now())
    deadline.reminded = True
    await deadline.fire()  # never raises: the session's task goes on
    assert fired.seen == ["expiry"] and deadline.at == clock.now() + RETRY_DEFAULT


# -- what is kept with the settings ------------------------------------------------------------


async def test_kept_writes_orders_offers_channels_and_timers_and_reads_them_back(
    tmp_path: Path,
) -> None:
    store = await Store.open(tmp_path / "mentat.db")
    try:
        state = load_scenario(scenario()).initial_state()
        game_id = await store.create_game(1, state, moderators=[99])
        timers = SessionTimers(token="7", missed={HARKONNEN: 1})
        kept = Kept(store, game_id, lambda: timers)
        await kept.load()
        kept.set_orders(BG, StandingOrders(advise="never"))
        kept.set_ally_offer(ATREIDES, GUILD, 3)
        kept.set_ally_offer(EMPEROR, FREMEN, 2)
        kept.set_ally_offer(EMPEROR, FREMEN, 0)  # withdrawn
        kept.bind_private({BG: 555})
        await kept.save()
        again = Kept(store, game_id, SessionTimers)
        settings = await again.load()
        assert again.orders == {BG: StandingOrders(advise="never")}
        assert again.ally_offers == {ATREIDES: (GUILD, 3)}
        assert again.channels[BG] == 555
        assert settings.timers.token == "7" and dict(settings.timers.missed) == {HARKONNEN: 1}
    finally:
        await store.close()


# -- the questions asked ---------------------------------------------------------------------


class Turns:
    """The session's turn, for the questions' later steps: run when the test says."""

    def __init__(self) -> None:
        self.waiting: list[Callable[[], Awaitable[None]]] = []
        self.saved = 0

    def later(self, run: Callable[[], Awaitable[None]]) -> None:
        self.waiting.append(run)

    async def run(self) -> None:
        while self.waiting:
            await self.waiting.pop(0)()

    async def save(self) -> None:
        self.saved += 1


async def test_questions_ask_the_awaited_keep_the_message_and_refuse_a_stale_token() -> None:
    clock, publisher = FakeClock(), RecordingPublisher()
    delivery, turns = Delivery(1, publisher, clock), Turns()
    delivery.start()
    state = load_scenario(scenario()).initial_state()
    if state.open_prompts():  # the Guild is asked first whether it acts now
        state.apply(Decline(GUILD, "guild_timing"))
    wait = wait_of(state)
    assert wait is not None and wait.kind == "step"
    questions = Questions(
        delivery,
        state=lambda: state,
        deadline=lambda _: "in an hour",
        offered=lambda faction: [],
        later=turns.later,
        save=turns.save,
    )
    questions.ask(wait, "5")
    await delivery.settled()
    await turns.run()
    (faction,) = wait.factions
    assert questions.prompts.asked[faction] is not None and turns.saved == 1  # its message
    (asked,) = publisher.prompts.values()
    assert asked.faction is faction and asked.token == "5" and "in an hour" in asked.text
    questions.check_open(faction, "5", wait)  # open: no refusal
    with pytest.raises(PromptClosedError):
        questions.check_open(faction, "4", wait)  # an older prompt's button
    questions.remind()
    await delivery.settled()
    assert publisher.private_for(faction)[-1].text.startswith("Reminder: ")
    questions.over()
    with pytest.raises(PromptClosedError):
        questions.check_open(faction, "5", wait)
    assert questions.prompt_now(faction, wait) is None
    await delivery.stop()


# -- the offer and its window -------------------------------------------------------------------


def windowed() -> GameState:
    """The example phase after Harkonnen's shipment: a Karama window is open."""
    state = load_scenario(scenario()).initial_state()
    if state.open_prompts():
        state.apply(Decline(GUILD, "guild_timing"))
    state.apply(action_from_dict(scenario()["actions"][0]))
    return state


def test_a_windows_no_is_kept_privately_once_and_the_window_runs_its_time() -> None:
    clock, state = FakeClock(), windowed()
    timing = Timing(window=timedelta(minutes=5))
    windows = Windows(
        state=lambda: state,
        orders=dict,
        autopilot=Autopilot(),
        clock=clock,
        timing=timing,
    )
    wait = windows.wait_of(wait_of(state))
    assert wait is not None and ATREIDES in wait.factions  # it holds a Karama card
    closes = windows.new_offer(wait, None)
    assert closes == clock.now() + timing.window
    line = windows.window_line(PublicNotice("Harkonnen ships.", game_id=1), closes)
    assert f"The window closes <t:{int(closes.timestamp())}:R>" in line.text

    def paused() -> None:
        raise SessionError("the game is paused by a moderator")

    no = Decline(ATREIDES, "karama")
    with pytest.raises(SessionError, match="paused"):
        windows.keep(no, paused)
    assert windows.offer.declined == frozenset()  # refused: nothing kept
    how = windows.keep(no, lambda: None)
    assert how is not None and how(ATREIDES) == "you declined (the window still runs its time)"
    assert state.open_prompts()  # never sent to the engine: the window still runs
    after = windows.wait_of(wait_of(state))
    assert after is not None and ATREIDES not in after.factions
    with pytest.raises(SessionError, match="already answered"):
        windows.keep(no, lambda: None)
    assert windows.stage_deadline(clock.now(), closes) == closes  # the same window's time
