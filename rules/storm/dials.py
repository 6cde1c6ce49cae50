"""The storm's dials (0.16, 1.01.02): who dials, what they may dial, and the phase's start,
when the Fremen's storm card may stand for the dials (2.04.13)."""

from __future__ import annotations

from dataclasses import replace

from rules.components import storm_deck
from rules.errors import InvalidActionError, NotYourTurnError, quote
from rules.events import Event
from rules.factions import Faction
from rules.game_model import GamePhase
from rules.position import Position
from rules.storm.actions import Dial
from rules.storm.cards import move_known
from rules.storm.events import StormCardRevealed, StormDialed, StormDialsRevealed
from rules.storm.model import (
    DIAL_RULE,
    FIRST_STORM_RULE,
    STORM_DECK_RULE,
    StormStep,
    set_storm_turn,
    storm_turn,
)


def first_dialers(seats: tuple[Faction | None, ...]) -> tuple[Faction, ...]:
    """The nearest seated faction on each side of the Storm Start (0.16)."""
    padded = list(seats) + [None] * (6 - len(seats))
    after = next((f for f in padded if f is not None), None)
    before = next((f for f in reversed(padded) if f is not None), None)
    return tuple(f for f in dict.fromkeys((before, after)) if f is not None)


def uses_storm_deck(state: Position) -> bool:
    return state.rules.advanced and Faction.FREMEN in state.factions and state.whole.turn > 1


def begin(state: Position) -> list[Event]:
    game = state.whole
    if uses_storm_deck(state):
        chance = game.chance
        held = storm_turn(game)
        value = held.next
        if value is None:  # a position given without the Fremen's card: draw it now
            drawn, chance = chance.pick(storm_deck())
            value = drawn
        state.set_game(chance=chance)
        set_storm_turn(state, replace(held, next=None))
        return [StormCardRevealed(value, STORM_DECK_RULE), *move_known(state, value)]
    dialers = game.dialers if game.turn > 1 and game.dialers else first_dialers(state.seats)
    state.set_game(dialers=dialers, dials={}, waiting=dialers, step=StormStep.DIAL)
    return []


def dial_range(state: Position) -> range:
    return range(21) if state.whole.turn == 1 else range(1, 4)


def dial(state: Position, action: Dial) -> list[Event]:
    game = state.whole
    rule = FIRST_STORM_RULE if game.turn == 1 else DIAL_RULE
    if game.phase is not GamePhase.STORM or game.step != StormStep.DIAL:
        raise NotYourTurnError("nobody dials the storm now", rule=rule)
    if action.faction not in game.dialers:
        names = " and ".join(f.label for f in game.dialers)
        raise NotYourTurnError(
            f"{action.faction.label} does not dial the storm: only {names} do", rule=rule
        )
    if action.faction in game.dials:
        raise NotYourTurnError(f"{action.faction.label} has already dialed", rule=rule)
    allowed = dial_range(state)
    if action.value not in allowed:
        raise InvalidActionError(
            f"the storm dial is {allowed.start} to {allowed.stop - 1}, not {quote(action.value)}",
            rule=rule,
        )
    dials = {**game.dials, action.faction: action.value}
    waiting = tuple(f for f in game.waiting if f != action.faction)
    state.set_game(dials=dials, waiting=waiting)
    events: list[Event] = [StormDialed(action.faction)]
    if waiting:
        return events
    events.append(
        StormDialsRevealed(tuple(game.dialers), tuple(dials[f] for f in game.dialers), rule)
    )
    return events + move_known(state, sum(dials.values()))
