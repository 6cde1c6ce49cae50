"""The session runs a whole game: choices with deadlines and defaults, recorded phases,
standing orders, restarts, and the seed and secret dials never published."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from datetime import timedelta
from pathlib import Path

import pytest

from bot.app import Mentat, whole_game_start
from bot.clock import FakeClock
from bot.orders import OrderError
from bot.publisher import RecordingPublisher
from bot.session.session import PhaseSession, SessionError
from bot.settings import GameSettings, Timing
from bot.store import SYSTEM_ACTOR, Store
from bot.waits import CHOICE, MODERATORS
from rules.actions import (
    FactionAction,
    FremenAllyWorm,
    Pass,
    PhaseDone,
    PlaceAdvisor,
    PlaceFremen,
    Predict,
    RecordCardWon,
    SetSpice,
)
from rules.battle.actions import BattlePlan, KeepTraitor
from rules.battle.traitors import TRAITORS
from rules.choam_charity.actions import ClaimCharity
from rules.errors import NotYourTurnError
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from rules.storm.actions import Dial
from tests.rules.battle_helpers import at_battle

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

    async def create(self, seed: int = SEED, start: GameState | None = None) -> PhaseSession:
        self.store = await Store.open(self.path)
        self.app = Mentat(self.store, self.publisher, self.clock)
        await self.app.start()
        start = start or whole_game_start(SEATS, seed=seed)
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
    assert state.game_phase is GamePhase.SETUP
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
        assert f"Turn 2: the {phase} phase begins." in text
    assert "The Set-up phase is over." in text
    assert "The Bidding phase is over." in text
    assert "**Turn 1 is over.**" in text and "**Turn 2 is over.**" in text
    assert text.count("Seats: ") == 3  # each Shipment & Movement phase opens at the table
    spectated = "\n".join(n.text for _, n in table.publisher.spectator_notices)
    assert "Waiting for" not in spectated and "Storm order: " in spectated
    assert "**Turn 2 is over.**" in spectated and "The Bidding phase is over." in spectated
    assert spectated.count("**The Shipment & Movement phase in short**") == 3
    moderators = [n.text for _, n in table.publisher.moderator_notices]
    # bidding, revival and battle are run by the engine now: nothing is left to record
    assert not any("phase: please" in t for t in moderators)
    assert table.store is not None
    assert (await table.store.game(table.game_id)).status == "active"


STAMP = re.compile(r"<t:\d+:[a-zA-Z]>")


async def system_entries(table: WholeTable) -> list[dict[str, object]]:
    """The bodies of the actions the session took by itself (defaults, standing orders)."""
    assert table.store is not None
    return [
        e.body
        for e in await table.store.log(table.game_id)
        if e.kind == "action" and e.actor == SYSTEM_ACTOR
    ]


async def until(table: WholeTable, done: Callable[[], bool]) -> None:
    """Answer as :func:`play_turn` does until ``done()``."""
    for _ in range(300):
        if done():
            return
        state = table.state
        wait = table.session.current_wait()
        assert wait is not None
        if wait.kind == MODERATORS:
            await table.record(PhaseDone())
        elif wait.kind == "prompt":
            await table.session.end_phase(MODERATOR, table.key())
        elif state.game_phase is GamePhase.SETUP:
            await answer_set_up(table)
        else:
            faction = wait.factions[0]
            legal = list(state.legal_actions(faction, open_stage_only=True))
            await table.submit(
                next(
                    (a for a in legal if isinstance(a, Dial)),
                    next((a for a in legal if isinstance(a, ClaimCharity | Pass)), legal[0]),
                )
            )
    raise AssertionError("never reached")


def in_step(table: WholeTable, step: str) -> Callable[[], bool]:
    return lambda: table.state.game.step == step


async def test_set_up_and_dials_default_once_on_their_deadline(table: WholeTable) -> None:
    await table.create()
    waited = table.state.waiting_on()
    await table.advance(50 * 60)
    for faction in waited:
        reminders = [n for n in table.publisher.private_for(faction) if "Reminder" in n.text]
        assert len(reminders) == 1
    await table.advance(11 * 60)  # the set-up deadline: every choice owed gets its default
    assert table.state.game_phase is GamePhase.STORM
    defaults = await system_entries(table)
    owed = {
        "spacing_guild": ["keep_traitor"],
        "atreides": ["keep_traitor"],
        "fremen": ["keep_traitor", "place_fremen"],
        "emperor": ["keep_traitor"],
        "bene_gesserit": ["keep_traitor", "predict", "place_advisor"],
    }
    for faction, kinds in owed.items():
        assert sorted(d["action"] for d in defaults if d["faction"] == faction) == sorted(kinds)
    kept = TRAITORS.of(table.state.whole)[Faction.ATREIDES][0]
    atreides = [n.text for n in table.publisher.private_for(Faction.ATREIDES)]
    assert f"Time ran out: you keep {kept} as your traitor." in atreides
    assert kept not in table.public_text()  # the traitor is Atreides' secret
    assert "Time ran out: Atreides answers by default." in table.public_text()
    bg = table.state.whole
    assert bg.prediction == (Faction.HARKONNEN, 10)  # the first other faction, the last turn
    assert table.state.stacks.get((Faction.BENE_GESSERIT, "Polar Sink", None)) is not None
    # the storm dials (turn 1: the factions either side of the Storm Start)
    dialers = table.state.waiting_on()
    await table.advance(61 * 60)
    dials = [d for d in await system_entries(table) if d["action"] == "dial"]
    assert sorted(str(d["faction"]) for d in dials) == sorted(f.value for f in dialers)
    assert {d["value"] for d in dials} == {0}
    # storm and blow went by; charity asks everyone alike (spice is secret): their deadline
    assert table.state.game_phase is GamePhase.CHOAM_CHARITY
    unasked = set(table.state.factions) - set(table.state.waiting_on())
    assert unasked == {Faction.BENE_GESSERIT}  # advanced: paid their own, not asked
    await table.advance(61 * 60)
    assert table.state.game_phase is GamePhase.BIDDING
    before = await system_entries(table)
    await table.reopen()  # a restart applies nothing again
    await table.advance(1)
    assert await system_entries(table) == before


async def test_a_battle_asks_its_two_sides_privately_and_defaults_their_plans(
    table: WholeTable,
) -> None:
    """The Battle phase run by the engine (issue 17): only the two sides are asked, a plan
    stays its owner's until both are in, a deadline gives the documented default."""
    start = at_battle(
        seats=["harkonnen", None, None, None, "emperor", None],
        factions={"harkonnen": {"cards": ("Crysknife",)}},
        board=[("harkonnen", "Carthag", 10, 5), ("emperor", "Carthag", 10, 3)],
        halt=None,
    )
    await table.create(start=start)
    wait = table.session.current_wait()
    assert wait is not None and set(wait.factions) == {Faction.HARKONNEN, Faction.EMPEROR}
    for faction in wait.factions:
        asked = table.publisher.open_prompts_for(faction)
        assert asked and "battle plan" in asked[-1].text and "battle_plan" not in asked[-1].text
    await table.submit(BattlePlan(Faction.HARKONNEN, "Carthag", "Feyd Rautha", 4, "Crysknife"))
    assert "Harkonnen's battle plan is in" in table.public_text()
    assert "Crysknife" not in "\n".join(
        [table.public_text(), *(n.text for n in table.publisher.private_for(Faction.EMPEROR))]
    )
    await table.advance(61 * 60)  # the Emperor's deadline: the default plan
    emperor = [n.text for n in table.publisher.private_for(Faction.EMPEROR)]
    assert any("Time ran out: your plan: Bashar, dial 0, no card" in t for t in emperor)
    assert "Harkonnen's plan: Feyd Rautha, dials 4, plays Crysknife." in table.public_text()
    for _ in range(3):  # the traitor question, then the winner's cards: defaults too
        await table.advance(61 * 60)
    assert table.state.game_phase is not GamePhase.BATTLE
    assert "Crysknife kills Bashar." in table.public_text()
    assert table.state.factions[Faction.HARKONNEN].cards == ("Crysknife",)  # kept


async def test_nexus_and_charity_default_on_their_deadlines(table: WholeTable) -> None:
    await table.create()
    await until(table, in_step(table, "nexus_a"))
    assert table.store is not None and table.app is not None
    await table.app.correct(table.game_id, MODERATOR, SetSpice(Faction.ATREIDES, 0), key="zero")
    waited = table.state.waiting_on()
    earlier = len(await system_entries(table))
    await table.advance(61 * 60)  # everyone passes the Nexus; Atreides' charity is asked
    passes = [d for d in (await system_entries(table))[earlier:] if d["action"] == "pass"]
    assert sorted(str(d["faction"]) for d in passes) == sorted(f.value for f in waited)
    assert table.state.game_phase is GamePhase.CHOAM_CHARITY
    assert Faction.ATREIDES in table.state.waiting_on()
    asked = table.publisher.open_prompts_for(Faction.ATREIDES)[-1].text
    assert "claim CHOAM Charity, up to 2 spice (`/charity`)" in asked
    assert "claim_charity" not in asked
    await table.advance(61 * 60)
    claims = [d for d in (await system_entries(table))[earlier:] if d["action"] == "claim_charity"]
    assert [d["faction"] for d in claims] == ["atreides"]
    assert table.state.factions[Faction.ATREIDES].spice == 2


async def test_a_restart_mid_dial_keeps_the_dial_and_the_time_left(table: WholeTable) -> None:
    await table.create()
    await until(table, in_step(table, "dial"))
    first, second = table.state.waiting_on()
    earlier = len(await system_entries(table))
    await table.submit(Dial(first, 5))
    await table.advance(30 * 60)
    await table.reopen()
    assert table.state.whole.dials == {first: 5}
    await table.advance(29 * 60)
    assert table.state.game_phase is GamePhase.STORM  # half an hour was left, not a new hour
    await table.advance(2 * 60)
    dials = [d for d in (await system_entries(table))[earlier:] if d["action"] == "dial"]
    assert dials == [{"action": "dial", "faction": second.value, "value": 0}]
    assert table.state.storm_sector == 5  # 5 + 0 sectors from the Storm Start (18)
    assert table.state.game_phase is not GamePhase.STORM


async def test_a_restart_mid_nexus_resumes_with_the_time_left(table: WholeTable) -> None:
    await table.create()
    await until(table, in_step(table, "nexus_a"))
    waited = list(table.state.waiting_on())
    earlier = len(await system_entries(table))
    await table.advance(20 * 60)
    for faction in waited[:2]:
        await table.submit(Pass(faction))
    before = table.state.to_dict()
    await table.reopen()
    assert table.state.to_dict() == before  # the replayed game is the same position
    await table.advance(39 * 60)
    assert table.state.whole.step == "nexus_a"
    await table.advance(2 * 60)
    passes = [
        d["faction"] for d in (await system_entries(table))[earlier:] if d["action"] == "pass"
    ]
    assert sorted(passes) == sorted(f.value for f in waited[2:])


async def test_standing_orders_answer_choices_at_once_privately(table: WholeTable) -> None:
    await table.create()
    assert table.app is not None
    for faction in SEATS:
        await table.app.set_standing_order(table.game_id, faction, "nexus", "pass")
    await table.app.set_standing_order(table.game_id, Faction.BENE_GESSERIT, "dial", "7")
    await table.app.set_standing_order(table.game_id, Faction.ATREIDES, "charity", "claim")
    with pytest.raises(OrderError):
        await table.app.set_standing_order(table.game_id, Faction.ATREIDES, "dial", "21")
    await answer_set_up(table)
    assert Faction.BENE_GESSERIT not in table.state.waiting_on()  # dialed 7 at once
    assert table.state.whole.dials == {Faction.BENE_GESSERIT: 7}
    bg = [n.text for n in table.publisher.private_for(Faction.BENE_GESSERIT)]
    assert "Your standing order answered: you dial 7." in bg
    assert not [t for t in table.delivered() if "you dial 7" in t and t not in bg]
    earlier = len(await system_entries(table))
    await until(table, in_step(table, "auction"))  # turn 1 bidding
    await until(
        table, lambda: table.state.turn == 2 and table.state.game_phase is GamePhase.BIDDING
    )
    passes = [d for d in (await system_entries(table))[earlier:] if d["action"] == "pass"]
    assert {str(d["faction"]) for d in passes} == {f.value for f in SEATS}  # the turn-2 Nexus
    assert table.store is not None
    assert (await table.store.settings(table.game_id)).orders[Faction.ATREIDES].charity == "claim"


async def test_a_dial_is_never_published_before_the_reveal(table: WholeTable) -> None:
    await table.create()
    await until(table, in_step(table, "dial"))
    first, second = table.state.waiting_on()
    await table.submit(Dial(first, 17))
    own = {n.text for n in table.publisher.private_for(first)}
    others = [STAMP.sub("", t) for t in table.delivered() if t not in own]
    assert not [t for t in others if re.search(r"\b17\b", t)]
    assert table.state.whole.dials == {first: 17}  # taken, and kept secret
    await table.submit(Dial(second, 3))
    assert re.search(r"\b17\b", table.public_text())  # revealed together with the other


async def test_the_seed_never_appears_in_any_message(table: WholeTable) -> None:
    await table.create()
    await until(table, lambda: table.state.turn == 3)
    assert not any(str(SEED) in text for text in table.delivered())
    assert table.store is not None
    assert (await table.store.log(table.game_id))[0].body["game"]["seed"] == SEED


async def test_records_are_checked_refused_and_idempotent(table: WholeTable) -> None:
    await table.create()
    assert table.app is not None
    with pytest.raises(NotYourTurnError) as refused:  # no record in set-up
        await table.record(RecordCardWon(Faction.ATREIDES, 2))
    assert refused.value.rule == "0.00"  # the set-up phase takes no record
    await until(table, lambda: table.state.game_phase is GamePhase.BIDDING)
    with pytest.raises(SessionError, match="only this game's moderators"):
        await table.app.record(table.game_id, 555, PhaseDone(), key="player")
    spice = table.state.factions[Faction.ATREIDES].spice
    first = await table.app.record(
        table.game_id, MODERATOR, RecordCardWon(Faction.ATREIDES, 2), key="card-1"
    )
    again = await table.app.record(
        table.game_id, MODERATOR, RecordCardWon(Faction.ATREIDES, 2), key="card-1"
    )
    assert again.duplicate and again.seq == first.seq  # type: ignore[attr-defined]
    assert table.state.factions[Faction.ATREIDES].spice == spice - 2
    assert "Recorded by <@99>." in table.public_text()
    with pytest.raises(SessionError, match="not a moderator's record"):
        await table.session.record(MODERATOR, Pass(Faction.ATREIDES), key="junk")  # type: ignore[arg-type]
    await table.store.remove_moderator(table.game_id, MODERATOR)  # type: ignore[union-attr]
    with pytest.raises(SessionError):
        await table.app.record(table.game_id, MODERATOR, PhaseDone(), key="ex")
    assert table.state.game_phase is GamePhase.BIDDING


async def test_a_faction_asked_again_in_the_same_choice_keeps_its_deadline(
    table: WholeTable,
) -> None:
    await table.create()
    bg, fremen = Faction.BENE_GESSERIT, Faction.FREMEN
    deadline = STAMP.findall(table.publisher.open_prompts_for(fremen)[-1].text)
    assert deadline
    traitor = next(a for a in table.state.legal_actions(fremen) if isinstance(a, KeepTraitor))
    await table.submit(traitor)  # the Fremen still owe their placement: the prompt shows it
    shown = table.publisher.open_prompts_for(fremen)[-1].text
    assert "place your 10 forces" in shown and "keep one traitor" not in shown
    for kind in (KeepTraitor, Predict):  # the advisor waits for the Fremen placement
        await table.submit(next(a for a in table.state.legal_actions(bg) if isinstance(a, kind)))
    assert bg not in table.state.waiting_on()
    assert not table.publisher.open_prompts_for(bg)  # its prompt closed
    await table.submit(PlaceFremen(fremen, 4, 3, 3))
    assert bg in table.state.waiting_on()  # asked again, for its advisor
    asked = table.publisher.open_prompts_for(bg)
    assert len(asked) == 1 and "place your advisor" in asked[0].text
    assert STAMP.findall(asked[0].text) == deadline  # the same set-up, the same deadline


async def test_a_secret_choice_publishes_nothing(table: WholeTable) -> None:
    """The Fremen's choice about their ally and the worm (2.04.10) is theirs alone: the
    table and spectators do not even hear that something was chosen."""
    await table.create()
    await until(table, in_step(table, "dial"))
    public = len(table.publisher.public_notices), len(table.publisher.spectator_notices)
    await table.submit(FremenAllyWorm(Faction.FREMEN, protect=False))
    assert (len(table.publisher.public_notices), len(table.publisher.spectator_notices)) == public
    assert table.state.whole.fremen_expose_ally
