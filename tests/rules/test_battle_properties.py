"""Property tests of the Battle phase: random battles from random positions, every choice
drawn from the engine's legal actions. Forces, spice, cards and leaders are conserved and
never negative; a refused action changes nothing; replaying the log gives the same state."""

from __future__ import annotations

import contextlib
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.actions import Action, Bribe, RecordLeaderKilled, action_from_dict, action_to_dict
from rules.battle.actions import BattlePlan, CallTraitor, KeepCards
from rules.components import forces_total, leaders, starred_total, treachery_deck
from rules.errors import RulesError
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from tests.rules.battle_helpers import at_battle
from tests.rules.game_helpers import spice_total
from tests.rules.invariants import assert_commitments_held, assert_leaders_placed

FIGHTERS = tuple(Faction)
CARDS = tuple(dict.fromkeys(treachery_deck()))
TERRITORIES = (("Carthag", 10), ("Arrakeen", 9), ("The Great Flat", 14))


def leaders_of(state: GameState, faction: Faction) -> int:
    """Where a faction's five leaders are: any pool (captives too) or its tanks."""
    game = state.whole
    own = set(leaders(faction))
    pooled = sum(1 for names in game.leaders.values() for n in names if n in own)
    return pooled + len(game.held(game.leaders_tanks, faction))


def sound(state: GameState, total: int, cards: int) -> None:
    for faction, held in state.factions.items():
        on_board = sum(s.total for (f, _, _), s in state.stacks.items() if f is faction)
        off = held.reserves + held.special_reserves + held.tanks + held.special_tanks
        assert on_board + off == forces_total(faction)
        assert min(held.spice, held.reserves, held.tanks, held.special_tanks) >= 0
        assert leaders_of(state, faction) == 5
    game = state.whole
    hands = sum(len(s.cards) for s in state.factions.values())
    assert hands + len(game.treachery_deck) + len(game.treachery_discard) == cards
    assert spice_total(state) == total and state.spice_bank >= 0


@st.composite
def battles(draw: st.DrawFn) -> GameState:
    sides = draw(st.permutations(FIGHTERS))[:3]
    seats: list[str | None] = [None] * 6
    for seat, faction in zip(draw(st.permutations(range(6))), sides, strict=False):
        seats[seat] = faction.value
    territory, sector = draw(st.sampled_from(TERRITORIES))
    board = [(f.value, territory, sector, draw(st.integers(1, 6))) for f in sides]
    special = [
        (f.value, territory, sector, draw(st.integers(0, 3)))
        for f in sides
        if f in (Faction.EMPEROR, Faction.FREMEN)
    ]
    hands = {f.value: {"cards": tuple(draw(st.lists(st.sampled_from(CARDS), max_size=4)))}
             for f in sides}  # fmt: skip
    for f in sides:
        regular = next(n for g, _, _, n in board if g == f.value)
        starred = sum(n for g, _, _, n in special if g == f.value)
        hands[f.value]["spice"] = draw(st.integers(0, 6))
        hands[f.value]["reserves"] = forces_total(f) - starred_total(f) - regular
        hands[f.value]["special_reserves"] = starred_total(f) - starred
    traitors = {
        f: tuple(draw(st.lists(st.sampled_from([n for g in sides for n in leaders(g)]),
                               max_size=2, unique=True)))
        for f in sides
    }  # fmt: skip
    advanced = draw(st.booleans())
    pools, captives = _captive(draw, sides) if advanced else ({}, {})
    held = {"leaders": {f: tuple(leaders(f)) for f in sides} | pools, "captives": captives}
    return at_battle(
        **held,
        seats=seats,
        advanced=advanced,
        factions=hands,
        board=board,
        special=[s for s in special if s[3]],
        spice={(territory, sector): draw(st.integers(0, 8))},
        traitors=traitors,
        kwisatz_haderach_active=draw(st.booleans()) and advanced,
        variants={
            "voice_prescience": draw(st.sampled_from(["voice_first", "together"])),
            "ally_battle_spice": draw(st.sampled_from(["no", "yes"])),
        },
        treachery_deck=(),
        seed=draw(st.integers(0, 1000)),
    )


def _captive(
    draw: st.DrawFn, sides: tuple[Faction, ...]
) -> tuple[dict[Faction, tuple[str, ...]], dict[str, Faction]]:
    """Now and then the Harkonnen hold a captive (2.05.10): the pools and the captives."""
    hark = Faction.HARKONNEN
    others = [f for f in sides if f is not hark]
    if hark not in sides or not others or not draw(st.booleans()):
        return {}, {}
    owner = draw(st.sampled_from(others))
    name = draw(st.sampled_from(tuple(leaders(owner))))
    pools = {
        hark: (*leaders(hark), name),
        owner: tuple(n for n in leaders(owner) if n != name),
    }
    return pools, {name: owner}


def full_deck(state: GameState) -> int:
    return sum(len(s.cards) for s in state.factions.values())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(start=battles(), seed=st.integers(0, 10**6))
def test_random_battles_keep_the_invariants(start: GameState, seed: int) -> None:
    rng = random.Random(seed)
    begin = GameState.from_dict(start.to_dict())
    total = spice_total(start)
    cards = full_deck(start)
    state = start
    log: list[Action] = []
    for _ in range(200):
        sound(state, total, cards)
        if state.game_phase is not GamePhase.BATTLE:
            break
        waiting = list(state.waiting_on())
        assert waiting, state.whole.step
        faction = rng.choice(waiting)
        wrong = rng.choice(
            [
                BattlePlan(faction, "Carthag", "Nobody", 99),
                CallTraitor(rng.choice(list(state.factions))),
                KeepCards(faction, ("Lasgun", "Lasgun")),
            ]
        )
        if not state.is_legal(wrong):
            before = state.to_dict()
            with contextlib.suppress(RulesError):
                state.apply(wrong)
            assert state.to_dict() == before
        options = list(state.legal_actions(faction))
        assert options, (faction, state.whole.step)
        action = rng.choice(options)
        if rng.random() < 0.15:  # a bribe, from anyone, of what it holds (1.12)
            giver, to = rng.sample(sorted(state.factions), 2)
            held = state.factions[giver].spice
            bribe = Bribe(giver, to.value, rng.randint(1, max(1, held)))
            action = bribe if state.is_legal(bribe) else action
        if rng.random() < 0.1:  # the moderator records a leader killed, a captive often
            killed = [a for a in state.moderator_actions() if isinstance(a, RecordLeaderKilled)]
            captive = [a for a in killed if a.leader in state.whole.captives]
            action = rng.choice(captive or killed) if killed else action
        state.apply(action)
        log.append(action)
        assert_leaders_placed(state)
        assert_commitments_held(state)
    assert state.game_phase is not GamePhase.BATTLE
    replay = begin
    for action in log:
        replay.apply(action_from_dict(action_to_dict(action)))
    assert replay.to_dict() == state.to_dict()
