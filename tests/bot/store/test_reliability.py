"""Issue 25, reliability: each seat's tenures are kept, and a player's record in a server
(games played and finished, deadlines missed, median time to answer, seats abandoned) is
computed from the store's logs, on both backends."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

import bot.store.store as store_module
from bot.seats.reliability import Level, ReliabilityError, reliability, require_level
from bot.settings import GameSettings
from bot.store import SYSTEM_ACTOR, Entry, Store
from rules.factions import Faction
from tests.bot.phase_script import start_position
from tests.bot.store.conftest import GUILD, MOD

ALICE, BOB, CAROL = 301, 302, 303
T0 = datetime(2026, 3, 1, 12, tzinfo=UTC)
F, A = Faction.FREMEN, Faction.ATREIDES


class Clock:
    """The store's clock, moved by hand: each write is stamped with ``now``."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> str:
        return self.now.isoformat(timespec="microseconds")

    def wait(self, **span: float) -> None:
        self.now += timedelta(**span)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Clock]:
    made = Clock()
    monkeypatch.setattr(store_module, "_now", made)
    yield made


class Game:
    """One game's log, written entry by entry as the session would."""

    def __init__(self, store: Store, game_id: int, clock: Clock) -> None:
        self.store, self.id, self.clock, self.seq = store, game_id, clock, 1

    async def act(self, faction: Faction, actor: int, *, key: str = "", after: float = 0) -> None:
        self.clock.wait(minutes=after)
        self.seq += 1
        body = {"action": "pass", "faction": faction.value}
        key = key or f"discord:{self.id}:{self.seq}"
        await self.store.append(self.id, Entry(self.seq, "action", actor, key, body, None, ()))

    async def deadline(self, faction: Faction, *, after: float) -> None:
        """Time ran out: the bot's default for ``faction`` (the session's key)."""
        await self.act(faction, SYSTEM_ACTOR, key=f"{self.id}:deadline:{self.seq}", after=after)


async def new(store: Store, clock: Clock, seats: dict[Faction, int], **settings: str) -> Game:
    game_id = await store.create_game(
        GUILD, start_position(), moderators=[MOD], settings=GameSettings(**settings)
    )
    for faction, user in seats.items():
        await store.seat(game_id, user, faction)
    clock.wait(minutes=1)
    return Game(store, game_id, clock)


async def test_each_tenure_of_a_seat_is_kept_in_order(store: Store, clock: Clock) -> None:
    game = await new(store, clock, {F: ALICE, A: BOB})
    clock.wait(hours=1)
    await store.seat(game.id, CAROL, F, turn=3)
    tenures = await store.tenures(GUILD, ALICE)
    assert [(t.faction, t.user_id, t.since, t.turn) for t in tenures] == [
        (A, BOB, T0, None),
        (F, ALICE, T0, None),
        (F, CAROL, T0 + timedelta(hours=1, minutes=1), 3),
    ]
    assert await store.seats(game.id) == {F: CAROL, A: BOB}  # the seats now, as before
    assert await store.tenures(GUILD + 1, ALICE) == []  # another server's games: none
    assert await store.tenures(GUILD, 999) == []


async def test_the_light_log_holds_a_player_s_actions_and_the_deadlines_defaults(
    store: Store, clock: Clock
) -> None:
    game = await new(store, clock, {F: ALICE, A: BOB})
    await game.act(F, ALICE, after=5)
    await game.act(A, BOB, after=2)  # another player's: left out
    await game.deadline(A, after=60)  # every default at a deadline: in
    other = await new(store, clock, {A: BOB})
    assert await store.first_actions([game.id, other.id]) == {game.id: T0 + timedelta(minutes=6)}
    answer, default = await store.answers([game.id, other.id], ALICE)
    assert (answer.seq, answer.actor, answer.faction) == (2, ALICE, F)
    assert (answer.at, answer.previous) == (T0 + timedelta(minutes=6), T0)  # after the start
    assert (default.actor, default.key, default.faction) == (
        SYSTEM_ACTOR,
        f"{game.id}:deadline:3",
        A,
    )
    assert default.previous == T0 + timedelta(minutes=8)


async def test_a_player_s_record_from_the_logs(store: Store, clock: Clock) -> None:
    first = await new(store, clock, {F: ALICE, A: BOB})
    await first.act(F, ALICE, after=10)  # 10 minutes to answer
    await first.act(A, BOB, after=3)
    await first.deadline(F, after=720)  # Alice missed one
    await first.act(F, MOD, after=1)  # a moderator acting for her: not her answer
    await first.act(F, ALICE, after=30)  # 30 minutes
    await store.finish_game(first.id)
    second = await new(store, clock, {F: ALICE})
    await second.act(F, ALICE, after=50)  # 50 minutes
    await second.deadline(F, after=720)
    clock.wait(minutes=5)
    await store.seat(second.id, CAROL, F)  # re-seated away mid-game: abandoned
    await second.act(F, CAROL, after=1)
    await second.deadline(F, after=720)  # Carol's miss, not Alice's
    record = await reliability(store, GUILD, ALICE)
    assert (record.played, record.finished, record.abandoned) == (2, 1, 1)
    assert (record.answered, record.missed) == (3, 2)
    assert record.median_answer == timedelta(minutes=30)
    assert record.level is Level.NEW  # fewer than three games
    carol = await reliability(store, GUILD, CAROL)
    assert (carol.played, carol.answered, carol.missed, carol.abandoned) == (1, 1, 1, 0)
    assert (await reliability(store, GUILD + 1, ALICE)).played == 0


async def test_a_seat_taken_before_the_game_began_is_no_game_played(
    store: Store, clock: Clock
) -> None:
    game = await new(store, clock, {F: ALICE})
    await store.seat(game.id, BOB, F)  # changed before any action: Alice never played
    await game.act(F, BOB, after=2)
    alice = await reliability(store, GUILD, ALICE)
    assert (alice.played, alice.abandoned) == (0, 0)
    assert (await reliability(store, GUILD, BOB)).played == 1


async def test_levels_and_a_game_that_requires_one(store: Store, clock: Clock) -> None:
    for _ in range(3):  # Alice answers everything; Bob misses every other deadline
        game = await new(store, clock, {F: ALICE, A: BOB})
        await game.act(F, ALICE, after=5)
        await game.act(A, BOB, after=5)
        await game.deadline(A, after=720)
    assert (await reliability(store, GUILD, ALICE)).level is Level.RELIABLE
    bob = await reliability(store, GUILD, BOB)
    assert (bob.missed, bob.answered, bob.level) == (3, 3, Level.UNRELIABLE)
    assert (await reliability(store, GUILD, CAROL)).level is Level.NEW
    strict = await new(store, clock, {}, required_level="reliable")
    await require_level(store, strict.id, ALICE)
    with pytest.raises(ReliabilityError) as refused:
        await require_level(store, strict.id, CAROL)
    assert str(refused.value).startswith(
        f"game #{strict.id} seats only Reliable players, and <@{CAROL}> is New in this server"
    )
    lenient = await new(store, clock, {}, required_level="not_unreliable")
    await require_level(store, lenient.id, CAROL)
    with pytest.raises(ReliabilityError, match=r"seats only New or Reliable players, .* Unrel"):
        await require_level(store, lenient.id, BOB)
