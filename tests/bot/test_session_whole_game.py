"""The session runs a whole game: choices with deadlines and defaults, recorded phases,
standing orders, restarts, and the seed and secret dials never published."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from bot.app import Mentat, whole_game_start
from bot.clock import FakeClock
from bot.publisher import RecordingPublisher
from bot.session import PhaseSession
from bot.settings import GameSettings, Timing
from bot.store import Store
from bot.waits import CHOICE, MODERATORS
from rules.actions import (
    ClaimCharity,
    Dial,
    FactionAction,
    KeepTraitor,
    Pass,
    PhaseDone,
    PlaceAdvisor,
    PlaceFremen,
    Predict,
    RecordCardWon,
)
from rules.factions import Faction
from rules.game_model import GamePhase

SEED = 8_675_309_123
SEATS = (
    Faction.HARKONNEN,
    Faction.SPACING_GUILD,
    Faction.ATREIDES,
    Faction.FREMEN,
    Faction.EMPEROR,
    Faction.BENE_GESSERIT,
)
CHANNELS = {"table": 101, "spectators": 102, "moderators": 103}
MODERATOR = 99
TIMING = Timing(
    step=timedelta(minutes=60), prompt=timedelta(minutes=5), reminder=timedelta(minutes=10)
)


class WholeTable:
    """A whole game in a real SQLite file, run by the application with a fake clock."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.clock = FakeClock()
        self.publisher = RecordingPublisher()
        self.store: Store | None = None
        self.app: Mentat | None = None
        self.game_id = 0
        self.keys = 0

    async def create(self, seed: int = SEED) -> PhaseSession:
        self.store = await Store.open(self.path)
        self.app = Mentat(self.store, self.publisher, self.clock)
        await self.app.start()
        start = whole_game_start(SEATS, seed=seed)
        settings = GameSettings(timing=TIMING, maps="never")
        session = await self.app.create_game(
            1, start, channels=CHANNELS, settings=settings, moderators=(MODERATOR,)
        )
        self.game_id = session.game_id
        await session.until_idle()
        return session

    async def reopen(self) -> PhaseSession:
        """Stop the application and start a new one over the same file (a restart)."""
        await self.close()
        self.publisher = RecordingPublisher()
        self.store = await Store.open(self.path)
        self.app = Mentat(self.store, self.publisher, self.clock)
        await self.app.start()
        session = self.session
        await session.until_idle()
        return session

    async def close(self) -> None:
        if self.app is not None:
            await self.app.stop()
            self.app = None
        if self.store is not None:
            await self.store.close()
            self.store = None

    @property
    def session(self) -> PhaseSession:
        assert self.app is not None
        return self.app.session(self.game_id)

    @property
    def state(self):  # type: ignore[no-untyped-def]
        state = self.session.state
        assert state is not None
        return state

    def key(self) -> str:
        self.keys += 1
        return f"test-{self.keys}"

    async def submit(self, action: FactionAction) -> object:
        return await self.session.submit(action.faction, action, actor=1, key=self.key())

    async def record(self, action: RecordCardWon | PhaseDone) -> object:
        assert self.app is not None
        return await self.app.record(self.game_id, MODERATOR, action, key=self.key())

    async def advance(self, seconds: float) -> None:
        await self.session.until_idle()
        await self.clock.advance(seconds, settle=self.session.next_idle)

    def delivered(self) -> list[str]:
        """Every text delivered anywhere: table, spectators, moderators, every faction."""
        p = self.publisher
        return [
            *(n.text for _, n in p.public_notices),
            *(n.text for _, n in p.spectator_notices),
            *(n.text for _, n in p.moderator_notices),
            *(n.text for _, n in p.private_notices),
            *(n.text for n in p.prompts.values()),
            *p.closed.values(),
        ]

    def public_text(self) -> str:
        return "\n".join(n.text for _, n in self.publisher.public_notices)


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[WholeTable]:
    t = WholeTable(tmp_path / "mentat.db")
    try:
        yield t
    finally:
        await t.close()


async def answer_set_up(table: WholeTable) -> None:
    """Every faction's set-up choices, answered by its player."""
    for _ in range(20):
        state = table.state
        if state.game_phase is not GamePhase.SETUP:
            return
        faction = state.waiting_on()[0]
        legal = list(state.legal_actions(faction))
        pick = next(
            (
                a
                for kind in (KeepTraitor, Predict, PlaceFremen, PlaceAdvisor)
                for a in legal
                if isinstance(a, kind)
            ),
            legal[0],
        )
        await table.submit(pick)


async def test_a_whole_game_is_created_with_its_seed_in_the_log_only(table: WholeTable) -> None:
    session = await table.create()
    state = table.state
    assert state.game is not None and state.game_phase is GamePhase.SETUP
    wait = session.current_wait()
    assert wait is not None and wait.kind == CHOICE
    assert set(wait.factions) == set(state.waiting_on())
    assert "A new game of Dune begins" in table.public_text()
    assert table.store is not None
    start = (await table.store.log(table.game_id))[0]
    assert start.kind == "start" and start.body["game"]["seed"] == SEED
    for faction in wait.factions:  # each asked privately, in words
        asked = table.publisher.open_prompts_for(faction)
        assert asked and "keep one traitor" in asked[-1].text
        assert "keep_traitor" not in asked[-1].text
    assert not any(str(SEED) in text for text in table.delivered())


async def play_turn(table: WholeTable) -> None:
    """Answer whatever the game waits on until the next turn's storm (or the end): dials 1,
    charity claimed, Nexus passed, nothing bought, every step passed, phases closed."""
    turn = table.state.turn
    for _ in range(300):
        state = table.state
        if state.game_phase is GamePhase.OVER or (state.turn != turn):
            return
        wait = table.session.current_wait()
        assert wait is not None
        if wait.kind == MODERATORS:
            await table.record(PhaseDone())
            continue
        faction = wait.factions[0]
        legal = list(state.legal_actions(faction, open_stage_only=True))
        choice: FactionAction = next(
            (a for a in legal if isinstance(a, Dial)),
            next((a for a in legal if isinstance(a, ClaimCharity | Pass)), legal[0]),
        )
        if wait.kind == "prompt":
            await table.session.end_phase(MODERATOR, table.key())  # S&M: as today
            continue
        await table.submit(choice)


async def test_a_whole_game_runs_through_set_up_and_several_turns(table: WholeTable) -> None:
    await table.create()
    await answer_set_up(table)
    assert table.state.game_phase is GamePhase.STORM
    for turn in (1, 2, 3):
        assert table.state.turn == turn
        await play_turn(table)
    text = table.public_text()
    for phase in ("Storm", "CHOAM Charity", "Bidding", "Revival", "Shipment & Movement", "Battle"):
        assert f"Turn 2 · {phase} phase begins." in text
    assert "The Set-up phase is over." in text
    assert "The Bidding phase is over." in text
    assert "**Turn 1 is over.**" in text and "**Turn 2 is over.**" in text
    assert table.publisher.spectator_notices == table.publisher.public_notices
    moderators = [n.text for _, n in table.publisher.moderator_notices]
    assert any("Bidding phase: please record each treachery card won" in t for t in moderators)
    assert table.store is not None
    assert (await table.store.game(table.game_id)).status == "active"
