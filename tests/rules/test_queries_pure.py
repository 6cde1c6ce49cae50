"""Queries never change the position: ``is_legal``, ``dry_run``, ``legal_actions`` and
``view_for`` leave ``to_dict()`` as it was, and ``dry_run(a)`` says what ``apply(a)`` does
(its events, or its refusal), for positions of random whole games of every phase."""

from __future__ import annotations

import random
from itertools import islice

import pytest

from rules.actions import Action
from rules.errors import RulesError
from rules.game import GameState
from rules.game_model import GamePhase
from tests.rules.random_play import choose, random_rules, random_seats
from tests.rules.test_whole_game_properties import wrong_action

GAMES = 12
EVERY = 4  # one position in so many is queried
PER_FACTION = 3  # legal actions tried per faction awaited


def _tried(state: GameState, rng: random.Random) -> list[Action]:
    """Some of the awaited factions' legal actions, and something probably wrong."""
    tried: list[Action] = [wrong_action(state, rng)]
    for faction in state.waiting_on():
        tried += islice(state.legal_actions(faction), PER_FACTION)
    return tried


def _applied(stored: dict[str, object], action: Action) -> tuple[object, ...] | RulesError:
    """What ``apply(action)`` does on a separate game read from the stored position."""
    game = GameState.from_dict(stored)
    try:
        return tuple(game.apply(action))
    except RulesError as refusal:
        return refusal


def _parts(state: GameState) -> tuple[object, ...]:
    """The live position's containers and values, as objects."""
    return (state.factions, state.stacks, state.board_spice, state.phase, state.game)


def _check_queries(state: GameState, rng: random.Random) -> set[GamePhase]:
    before = state.to_dict()
    parts = _parts(state)
    for faction in state.factions:
        list(state.legal_actions(faction))
        state.view_for(faction)
    for action in _tried(state, rng):
        state.is_legal(action)
        expected = _applied(before, action)
        try:
            trial = state.dry_run(action)
        except RulesError as refusal:
            assert isinstance(expected, RulesError), (action, expected)
            assert (type(refusal), str(refusal)) == (type(expected), str(expected))
        else:
            assert trial.events == expected, action
        assert state.to_dict() == before, action
    assert all(a is b for a, b in zip(_parts(state), parts, strict=True))  # not even put back
    return {state.game_phase}


@pytest.mark.parametrize("seed", range(GAMES))
def test_queries_leave_the_position_and_dry_run_is_apply(seed: int) -> None:
    rng = random.Random(seed)
    state = GameState.new_game(random_seats(rng), seed=seed, rules=random_rules(rng))
    phases: set[GamePhase] = set()
    for step in range(3000):
        if step % EVERY == 0:
            phases |= _check_queries(state, rng)
        action = choose(state, rng)
        if action is None:
            break
        state.apply(action)
    assert state.game_phase is GamePhase.OVER
    assert len(phases) >= 6, phases  # positions of most phases were queried


def test_a_query_tries_the_action_on_a_copy_never_on_the_live_position() -> None:
    """The live position is not changed and put back: its very objects stay."""
    rng = random.Random(1)
    state = GameState.new_game(random_seats(rng), seed=1, rules=random_rules(rng))
    faction = state.waiting_on()[0]
    action = next(iter(state.legal_actions(faction)))
    parts = _parts(state)
    assert state.is_legal(action)
    state.dry_run(action)
    assert all(a is b for a, b in zip(_parts(state), parts, strict=True))
