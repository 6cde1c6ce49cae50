"""The engine's queries, at random positions of every phase (issue 24).

At positions reached by random legal play (whole games from set-up to their end, and a
Shipment & Movement phase played alone), for every faction:

1. each action ``legal_actions`` lists is legal, and ``apply`` takes it;
2. each action the phase's spec offers (``REGISTRY[phase].offers``) that is legal is
   listed, and so is each legal answer to a prompt of any stage (``answers``);
3. ``dry_run`` equals ``apply`` on a separate copy (read back from ``to_dict``): the same
   events, public view and actor's private view; a refused action's ``dry_run`` raises
   what ``apply`` raises;
4. no query changes the position: ``to_dict()`` is the same after each.

Not enumerable, so covered otherwise: shipments and moves (their targets come from
``legal_ship_destinations`` / ``legal_move_destinations``: each target listed takes one
force, checked with ``is_legal``), bribes and gifts of any amount (``kinds()`` names
them; a bribe of 1 is tried), and a revival's counts (the spec offers each one it lists).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.actions import Action, Bribe, FactionAction, Move, Pass, Ship
from rules.battle.plans import options_now
from rules.errors import RulesError
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from rules.phases import REGISTRY
from tests.rules.battle_helpers import duel
from tests.rules.helpers import position
from tests.rules.random_play import choose, random_rules, random_seats

EVERY = 9  # look at every ninth position of a game
ACTIONS_TRIED = 6  # dry runs per faction and position (the listed ones first)


def same_outcome(state: GameState, action: Action) -> None:
    """``dry_run`` says what ``apply`` does, on a copy read back from ``to_dict``."""
    copy = GameState.from_dict(state.to_dict())
    try:
        trial = state.dry_run(action)
    except RulesError as refused:
        with pytest.raises(type(refused)) as applied:
            copy.apply(action)
        assert str(applied.value) == str(refused)
        return
    events = copy.apply(action)
    assert tuple(events) == trial.events, action
    assert copy.public_view() == trial.public
    if isinstance(action, FactionAction):
        assert trial.private == copy.view_for(action.faction)


def queries(state: GameState, faction: Faction) -> list[Any]:
    """Every query of the interface, for ``faction`` (their answers, to be ignored)."""
    out: list[Any] = [
        state.public_view(),
        state.view_for(faction),
        state.waiting_on(),
        state.to_act(),
        state.moderator_actions(),
        options_now(state, faction),
        state.alliance_losses(faction),
        state.legal_actions(faction).kinds(),
        state.legal_actions(faction, open_stage_only=True).kinds(),
    ]
    for prompt in state.open_prompts():
        out.append(state.answers(prompt, faction))
    if state.to_act() is faction:
        ships = state.legal_ship_destinations(faction)
        out.append(ships)
        shipping = state.public_view().step == "ship"
        for found in ships[:2]:
            ship = Ship(faction, found.territory, found.sectors[0], 1)
            if shipping and found.affordable and state.factions[faction].reserves:
                assert state.is_legal(ship), ship
                out.append(state.shipment_price(ship))
        for owner, territory, sector in list(state.stacks)[:3]:
            if owner is faction:
                moves = state.legal_move_destinations(faction, territory, sector)
                out.append(moves)
                for found in moves[:1]:
                    move = Move(faction, territory, sector, found.territory, found.sectors[0], 1)
                    out.append(state.is_legal(move))
    return out


def check_position(state: GameState, rng: random.Random) -> None:
    before = state.to_dict()
    phase = state.game_phase
    spec = REGISTRY.get(phase)
    for faction in sorted(state.factions):
        queries(state, faction)
        assert state.to_dict() == before, f"a query of {faction.label} changed the position"
        legal = state.legal_actions(faction)
        listed = list(legal)
        for action in listed:
            assert state.is_legal(action), (action, phase)
        if spec is not None and spec.offered is not None:
            for action in spec.offers(state, faction):
                if state.is_legal(action):
                    assert action in listed, (action, phase, state.whole.step)
        for stage in state.phase.stages:
            for prompt in stage:
                if faction in prompt.waiting_on():
                    for action in state.answers(prompt, faction):
                        if state.is_legal(action):
                            assert action in listed, (action, prompt.kind)
        to = rng.choice([f.value for f in state.factions])
        tried = [*listed[:ACTIONS_TRIED], Pass(faction), Bribe(faction, to, 1)]
        for action in tried:
            same_outcome(state, action)
        assert state.to_dict() == before, "a dry run changed the position"


def play_and_check(
    state: GameState, rng: random.Random, seen: set[GamePhase], every: int = EVERY
) -> None:
    for n in range(3000):
        if n % every == 0:
            check_position(state, rng)
            seen.add(state.game_phase)
        action = choose(state, rng)
        if action is None:
            break
        state.apply(action)
    check_position(state, rng)
    seen.add(state.game_phase)


ASKING = {p for p, spec in REGISTRY.items() if spec.offered or spec.dispatch}
"""The phases that ask anyone anything (Spice Collection and the Mentat Pause never wait:
no position is ever left in them)."""


def test_queries_at_random_positions_of_every_phase() -> None:
    seen: set[GamePhase] = set()
    for seed in (11, 12, 13):
        rng = random.Random(seed)
        state = GameState.new_game(random_seats(rng), seed=seed, rules=random_rules(rng))
        play_and_check(state, rng, seen)
    for seed, battle in enumerate([duel(), duel(advanced=True, seed=3), duel(advanced=True)]):
        play_and_check(battle, random.Random(seed), seen, every=1)  # each step of a battle
    missed = {p for p in ASKING if p not in seen}
    assert not missed, f"no position seen in {sorted(p.value for p in missed)}"


def test_queries_in_a_shipment_and_movement_phase_played_alone() -> None:
    rng = random.Random(5)
    state = position()
    seen: set[GamePhase] = set()
    play_and_check(state, rng, seen)
    assert seen == {GamePhase.SHIPMENT_MOVEMENT} and state.whole.stopped
