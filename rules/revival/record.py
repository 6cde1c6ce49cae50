"""The moderator's records of the Revival phase while the engine runs it: a faction's whole
revival, a Tleilaxu Ghola played, and the records listed now ("phase done" first)."""

from __future__ import annotations

from dataclasses import replace

from rules.actions import (
    FactionAction,
    PhaseDone,
    Record,
    RecordGhola,
)
from rules.errors import IllegalActionError, NotYourTurnError
from rules.events import Event
from rules.factions import Faction
from rules.game_model import GamePhase
from rules.position import Position
from rules.revival.actions import RecordRevival
from rules.revival.ghola import ghola_revival
from rules.revival.model import (
    GHOLA_FORCES,
    PHASE_RULE,
    REVIVAL_RULE,
    RevivalStep,
    revivals,
    reviving,
    set_revivals,
)
from rules.revival.phase import answered, has_choice, paid_revival

# -- the moderator's records (corrections in this phase) ---------------------------


def _require_record(state: Position, action: FactionAction) -> None:
    game = state.whole
    if game.phase is not GamePhase.REVIVAL or game.step != RevivalStep.REVIVE:
        raise NotYourTurnError(
            f"{action.name} is recorded in the revival phase, not now "
            f"({game.phase.value.replace('_', ' ')})",
            rule=PHASE_RULE,
        )


def record_revival(state: Position, action: RecordRevival) -> list[Event]:
    """The moderator records a faction's whole revival: the faction is not asked and gets
    no free revival again; the phase goes on (it waits for the others or "phase done")."""
    _require_record(state, action)
    faction = action.faction
    if faction in revivals(state.whole).done:
        raise IllegalActionError(
            f"{faction.label}'s revival is already done this turn", rule=REVIVAL_RULE
        )
    events = paid_revival(
        state,
        faction,
        action.forces,
        action.special,
        action.leader,
        action.emperor_pays,
        free_first=False,
    )
    if action.emperor_pays:
        set_revivals(state, replace(revivals(state.whole), ally_room=0, ally_paid=True))
    state.set_game(waiting=tuple(f for f in state.whole.waiting if f is not faction))
    if Faction.EMPEROR in state.whole.waiting and not has_choice(state, Faction.EMPEROR):
        answered(state, Faction.EMPEROR)
    return events


def record_ghola(state: Position, action: RecordGhola) -> list[Event]:
    _require_record(state, action)
    return ghola_revival(state, action.faction, action.forces, action.special, action.leader)


def records(state: Position) -> list[Record | PhaseDone]:
    """Some records the moderator could make now (small amounts), "phase done" first."""
    return [PhaseDone(), *_records_of_each(state)] if reviving(state.whole) else []


def _records_of_each(state: Position) -> list[Record | PhaseDone]:
    game = state.whole
    out: list[Record | PhaseDone] = []
    for faction in game.order:
        own = state.factions[faction]
        if faction not in revivals(game).done:
            out += [RecordRevival(faction, n) for n in range(min(own.tanks, 3) + 1)]
            out += [
                RecordRevival(faction, 0, leader=n) for n in game.held(game.leaders_tanks, faction)
            ]
        out += [RecordGhola(faction, min(own.tanks, GHOLA_FORCES))] if own.tanks else []
    return out
