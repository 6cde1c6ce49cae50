"""Random whole games for the words and map tests: each action's events with the position
after it (public view and every faction's private view), played once per test session."""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from rules.events import Event
from rules.factions import Faction
from rules.game import GameState
from rules.model import RuleSet
from rules.view import PrivateView, PublicView
from tests.rules.random_play import SIX, choose

SEED_BASE = 987_654_321
"""A seed no sentence could show by chance (checked: it never reaches a sentence)."""


@dataclass(frozen=True, slots=True)
class Step:
    """One batch of events (the start, or an action's) and the position after it."""

    events: tuple[Event, ...]
    view: PublicView
    private: tuple[PrivateView, ...]

    def private_of(self, faction: Faction) -> PrivateView:
        return next(v for v in self.private if v.faction is faction)


@cache
def played(game: int, *, advanced: bool = True) -> tuple[Step, ...]:
    """Game number ``game`` played at random to its end, step by step."""
    state = GameState.new_game(SIX, seed=SEED_BASE + game, rules=RuleSet(advanced=advanced))
    rng = random.Random(game)
    steps = [_step(state, state.start_events)]
    for _ in range(5000):
        action = choose(state, rng)
        if action is None:
            break
        steps.append(_step(state, state.apply(action)))
    return tuple(steps)


def _step(state: GameState, events: list[Event]) -> Step:
    views = tuple(state.view_for(f) for f in sorted(state.factions))
    return Step(tuple(events), state.public_view(), views)


def games() -> list[tuple[Step, ...]]:
    """A few games, basic and advanced: together they hold almost every kind of event."""
    return [played(n, advanced=n % 3 != 2) for n in range(6)]
