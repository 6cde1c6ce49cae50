"""The phase session: scripted phases, deadlines, concurrency, restarts, secrecy."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.clock import FakeClock
from bot.orders import StandingOrders
from bot.publisher import RecordingPublisher
from bot.session.session import PhaseSession, SessionError
from bot.session.windows import is_window
from bot.settings import Timing
from bot.store import Store
from rules.actions import Decline, FactionAction, Pass, action_from_dict
from rules.errors import IllegalActionError, NotYourTurnError
from rules.factions import Faction
from rules.scenario import load_scenario

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "advanced-phase.json"
TIMING = Timing(
    step=timedelta(minutes=30), prompt=timedelta(minutes=5), reminder=timedelta(minutes=2)
)


def scenario() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE.read_text())
    return data


class Table:
    """A game in a real SQLite file, a session, a fake clock and a recording publisher."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.clock = FakeClock()
        self.publisher = RecordingPublisher()
        self.store: Store | None = None
        self.session: PhaseSession | None = None
        self.game_id = 0
        self.keys = 0

    async def open(self, data: dict[str, Any] | None = None) -> PhaseSession:
        self.store = await Store.open(self.path)
        if data is not None:
            state = load_scenario(data).initial_state()
            self.game_id = await self.store.create_game(1, state, moderators=[99])
        self.session = PhaseSession(
            self.game_id,
            store=self.store,
            publisher=self.publisher,
            clock=self.clock,
            timing=TIMING,
        )
        await self.session.start()
        return self.session

    async def close(self) -> None:
        if self.session is not None:
            await self.session.stop()
        if self.store is not None:
            await self.store.close()

    async def play(self, raw: dict[str, Any]) -> Any:
        """Scripted players say no to every open prompt the action does not answer."""
        assert self.session is not None and self.session.state is not None
        action = action_from_dict(raw)
        while self.session.state.open_prompts() and not self.session.state.answers_open_prompt(
            action
        ):
            if is_window(self.session.state.open_prompts()):  # a window runs its time
                await self.advance(self.window_left() + 1)
                continue
            prompt = self.session.state.open_prompts()[0]
            for faction in prompt.waiting_on():
                await self.submit(Decline(faction, prompt.kind))
        return await self.submit(action)

    def window_left(self) -> float:
        assert self.session is not None and self.session.deadline.at is not None
        return (self.session.deadline.at - self.clock.now()).total_seconds()

    async def submit(self, action: FactionAction) -> Any:
        assert self.session is not None
        self.keys += 1
        return await self.session.submit(action.faction, action, actor=1, key=f"test-{self.keys}")

    async def advance(self, seconds: float) -> None:
        assert self.session is not None
        await self.session.until_idle()
        await self.clock.advance(seconds, settle=self.session.next_idle)

    def public_text(self) -> str:
        return "\n".join(n.text for _, n in self.publisher.public_notices)


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    t = Table(tmp_path / "mentat.db")
    try:
        yield t
    finally:
        await t.close()


async def test_a_whole_scripted_phase(table: Table) -> None:
    await table.open(scenario())
    for raw in scenario()["actions"]:
        try:
            await table.play(raw)
        except IllegalActionError as error:
            assert error.rule == "1.06.01"  # the example's one refused action
    assert table.session is not None and table.session.state is not None
    assert table.session.state.is_complete
    text = table.public_text()
    assert (
        "Harkonnen ships 2 forces to Carthag (sector 10) for 2 spice to the Spacing Guild" in text
    )
    assert "Atreides plays Karama to cancel the Fremen move of two territories" in text
    assert "The Shipment & Movement phase is over." in text
    spectated = [n.text for _, n in table.publisher.spectator_notices]
    heads = [text.splitlines()[0] for text in spectated]
    assert heads[:3] == [
        "**Harkonnen's turn**",
        "**Fremen's turn**",
        "**Fremen's turn**, continued",
    ]
    assert not any("Waiting for" in text for text in spectated)
    assert table.store is not None
    assert (await table.store.game(table.game_id)).status == "finished"  # the session ended it
    assert "The game is finished." in text
    await table.session.undo(99, "reopen")  # a moderator takes the last pass back
    assert (await table.store.game(table.game_id)).status == "active"
    assert not table.session.state.is_complete


async def test_refusals_change_nothing_and_reach_only_the_caller(table: Table) -> None:
    session = await table.open(scenario())
    await table.submit(Decline(Faction.SPACING_GUILD, "guild_timing"))
    before = session.state.to_dict() if session.state else None
    published = len(table.publisher.public_notices)
    with pytest.raises(NotYourTurnError):
        await table.submit(Pass(Faction.ATREIDES))
    assert session.state is not None and session.state.to_dict() == before
    assert len(table.publisher.public_notices) == published


async def test_prompts_first_then_the_faction_to_act_is_asked(table: Table) -> None:
    await table.open(scenario())
    guild = table.publisher.private_for(Faction.SPACING_GUILD)
    assert {a.action.name for a in guild[-1].answers} == {"guild_now", "decline"}
    assert not table.publisher.private_for(Faction.HARKONNEN)
    with pytest.raises(SessionError, match="Guild timing") as caught:
        await table.submit(action_from_dict(scenario()["actions"][0]))
    assert caught.value.rule == "2.06.12"
    await table.submit(Decline(Faction.SPACING_GUILD, "guild_timing"))
    asked = table.publisher.private_for(Faction.HARKONNEN)
    assert asked and "You may ship" in asked[-1].text  # a shipment: a command, not a button
    assert "You hold 10 spice" in asked[-1].text


async def test_reminder_then_default_pass_on_the_deadline(table: Table) -> None:
    await table.open(scenario())
    await table.submit(Decline(Faction.SPACING_GUILD, "guild_timing"))
    await table.advance(27 * 60)
    assert not [n for n in table.publisher.private_for(Faction.HARKONNEN) if "Reminder" in n.text]
    await table.advance(60)
    reminders = [n for n in table.publisher.private_for(Faction.HARKONNEN) if "Reminder" in n.text]
    assert len(reminders) == 1
    await table.advance(2 * 60)
    assert "Time ran out: Harkonnen passes." in table.public_text()
    assert table.session is not None and table.session.state is not None
    assert table.session.state.phase.turn is not None
    assert table.session.state.phase.turn.step.value == "move"


async def test_an_open_karama_window_closes_on_its_deadline(table: Table) -> None:
    await table.open(scenario())
    await table.play(scenario()["actions"][0])  # Harkonnen ships: Guild payment window
    assert table.session is not None and table.session.state is not None
    assert table.session.state.open_prompts()
    await table.advance(6 * 60)
    assert "The window for the others' answers closes." in table.public_text()


async def test_two_submissions_at_the_same_instant(table: Table) -> None:
    session = await table.open(scenario())
    await table.submit(Decline(Faction.SPACING_GUILD, "guild_timing"))
    ship = action_from_dict(scenario()["actions"][0])
    results = await asyncio.gather(
        session.submit(Faction.HARKONNEN, ship, actor=1, key="same-key"),
        session.submit(Faction.HARKONNEN, ship, actor=1, key="same-key"),
        session.submit(Faction.HARKONNEN, ship, actor=1, key="other-key"),
        return_exceptions=True,
    )
    accepted = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, Exception)]
    assert [r.duplicate for r in accepted] == [False, True]
    # a second shipment will never be legal: the engine's refusal, not "please wait"
    assert len(refused) == 1 and isinstance(refused[0], IllegalActionError)
    assert "already shipped" in str(refused[0]) and refused[0].rule
    assert session.state is not None
    assert session.state.factions[Faction.HARKONNEN].reserves == 8  # shipped once


async def test_restart_in_the_middle_of_a_karama_window(table: Table) -> None:
    actions = scenario()["actions"]
    await table.open(scenario())
    for raw in actions[:2]:
        await table.play(raw)
    await table.play(actions[3])  # Harkonnen moves; Fremen next
    await table.play(actions[4])  # Fremen send
    await table.play(actions[5])  # Fremen move of two: a Karama window opens
    await table.advance(3 * 60)  # two of its five minutes left
    await table.close()
    timed_out = table.public_text().count("Time ran out")

    await table.open()  # a new store and session on the same file
    session = table.session
    assert session is not None and session.state is not None
    assert session.state.open_prompts()[0].kind.value == "karama"
    await table.advance(60)
    assert table.public_text().count("Time ran out") == timed_out
    await table.play(actions[6])  # Atreides cancels after the restart
    assert "may retake the action" in table.public_text()


async def test_paused_games_refuse_actions_and_freeze_deadlines(table: Table) -> None:
    session = await table.open(scenario())
    await table.submit(Decline(Faction.SPACING_GUILD, "guild_timing"))
    await session.pause(99)
    with pytest.raises(SessionError):
        await table.play(scenario()["actions"][0])
    await table.advance(3 * 3600)
    assert "Time ran out" not in table.public_text()
    await session.resume(99)
    await table.advance(29 * 60)
    assert "Time ran out" not in table.public_text()
    await table.advance(2 * 60)
    assert "Time ran out" in table.public_text()


async def test_moderator_undo_is_announced_as_a_correction(table: Table) -> None:
    session = await table.open(scenario())
    await table.play(scenario()["actions"][0])
    await session.undo(99, "undo-1")
    text = table.public_text()
    assert "Correction by <@99>: the Harkonnen shipment of 2 forces to Carthag" in text
    assert "was taken back." in text and "{" not in text
    assert session.state is not None
    assert session.state.factions[Faction.HARKONNEN].reserves == 10


async def test_standing_orders_answer_without_waiting(table: Table) -> None:
    session = await table.open(scenario())
    await session.set_orders(Faction.BENE_GESSERIT, StandingOrders(advise="polar_sink"))
    await session.set_orders(Faction.SPACING_GUILD, StandingOrders(guild_timing="last"))
    await table.play(scenario()["actions"][0])  # Harkonnen ships: a Karama window opens
    assert session.state is not None
    assert session.state.stack(Faction.BENE_GESSERIT, "Polar Sink", None).forces == 1
    await table.advance(table.window_left() + 1)  # the window runs its time, then the order
    assert session.state.stack(Faction.BENE_GESSERIT, "Polar Sink", None).forces == 2
    assert "standing" not in table.public_text().lower()


async def test_standing_orders_survive_a_restart(table: Table) -> None:
    session = await table.open(scenario())
    await session.set_orders(Faction.BENE_GESSERIT, StandingOrders(advise="never"))
    await table.close()
    session = await table.open()
    assert session.orders[Faction.BENE_GESSERIT].advise == "never"


async def test_end_phase_declines_and_passes_everything(table: Table) -> None:
    session = await table.open(scenario())
    await session.end_phase(99, "end")
    assert session.state is not None and session.state.is_complete


async def test_nothing_private_reaches_public_or_spectators(table: Table) -> None:
    """Over a whole phase: no hand, no spice behind a shield, no private prompt in public."""
    await table.open(scenario())
    for raw in scenario()["actions"]:
        with contextlib.suppress(IllegalActionError):
            await table.play(raw)
    public = table.publisher.public_notices + table.publisher.spectator_notices
    assert len(public) > 10
    for _, notice in public:
        assert "Hajr" not in notice.text  # held by Atreides all phase, never played
        assert not re.search(r"You hold \d+ spice|You may:", notice.text)
    private = [n.text for n in table.publisher.private_for(Faction.ATREIDES)]
    assert any("You hold 10 spice" in text for text in private)


async def test_a_restart_keeps_the_remaining_time_of_an_open_window(table: Table) -> None:
    await table.open(scenario())
    await table.play(scenario()["actions"][0])  # Harkonnen ships: a five-minute window
    await table.advance(3 * 60)
    await table.close()
    await table.open()  # restart: two minutes of the window are left
    await table.advance(90)
    assert "Time ran out" not in table.public_text()
    await table.advance(45)
    assert "The window for the others' answers closes." in table.public_text()


async def test_saved_standing_orders_are_confirmed_in_words_privately(table: Table) -> None:
    session = await table.open(scenario())
    await session.set_orders(Faction.ATREIDES, StandingOrders(karama="never"))
    notes = [n.text for n in table.publisher.private_for(Faction.ATREIDES)]
    assert (
        "Standing orders saved: Karama windows: always decline (never play Karama in a window)."
        in notes
    )
    assert "karama" not in table.public_text().lower().replace("karama window", "")


async def test_an_ally_offer_survives_a_restart(table: Table) -> None:
    session = await table.open(scenario())
    await session.set_ally_offer(Faction.ATREIDES, Faction.SPACING_GUILD, 3)
    await table.close()
    session = await table.open()
    assert session.ally_offers == {Faction.ATREIDES: (Faction.SPACING_GUILD, 3)}
    await session.set_ally_offer(Faction.ATREIDES, Faction.SPACING_GUILD, 0)
    await table.close()
    assert (await table.open()).ally_offers == {}


async def test_a_sent_reminder_is_not_sent_again_after_a_restart(table: Table) -> None:
    await table.open(scenario())
    await table.submit(Decline(Faction.SPACING_GUILD, "guild_timing"))
    await table.advance(28 * 60)  # the reminder went out two minutes before the deadline
    await table.close()
    await table.open()
    await table.advance(60)
    reminders = [n for n in table.publisher.private_for(Faction.HARKONNEN) if "Reminder" in n.text]
    assert len(reminders) == 1
    await table.advance(90)
    assert "Time ran out: Harkonnen passes." in table.public_text()


async def test_a_paused_game_stays_paused_after_a_restart(table: Table) -> None:
    session = await table.open(scenario())
    await table.submit(Decline(Faction.SPACING_GUILD, "guild_timing"))
    await table.advance(10 * 60)
    await session.pause(99)
    await table.close()
    session = await table.open()
    assert session.deadline.paused_left == timedelta(minutes=20)
    with pytest.raises(SessionError, match="paused"):
        await table.play(scenario()["actions"][0])
    await session.resume(99)
    await table.advance(19 * 60)
    assert "Time ran out" not in table.public_text()
    await table.advance(2 * 60)
    assert "Time ran out: Harkonnen passes." in table.public_text()
