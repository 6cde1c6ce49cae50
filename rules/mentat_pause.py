"""The Mentat Pause (1.09): who has won, or on to the next turn.

A faction alone in 3 strongholds wins; an alliance holding 4 together wins
(1.09.02). A stronghold is held by its only occupant with fighters; advisors
neither hold nor block (2.02.12). If several qualify, the first in storm order
wins (1.09.03, reading D4). The Bene Gesserit win alone instead when the
faction they predicted wins by strongholds on the predicted turn (2.02.03;
D16: never on a default win). At the end of the last turn: the Fremen's
special victory if the Guild plays and it is met, else the Guild's; without
the Guild the Fremen by default; without either, the most strongholds
(1.09.05; D5: everyone tied wins unless ``last_turn_tie`` says "storm_order").
"""

from __future__ import annotations

from enum import StrEnum

from rules import bribes
from rules.board import standard_board
from rules.events import Event, GameWon
from rules.factions import Faction
from rules.game_model import GamePhase, PhaseStep, Winner
from rules.phase_spec import PhaseSpec
from rules.position import Position
from rules.variants import LastTurnTie

ALONE_RULE = "1.09.02.01"
ALLIANCE_RULE = "1.09.02.02"
SEVERAL_RULE = "1.09.03"
LAST_TURN_RULE = "1.09.05"
PREDICTION_RULE = "2.02.03"
FREMEN_RULE = "2.04.09"
GUILD_RULE = "2.06.08"
ALONE = 3
ALLIED = 4
FREMEN_SIETCHES = ("Sietch Tabr", "Habbanya Sietch")
NOT_IN_TUEKS = frozenset({Faction.ATREIDES, Faction.HARKONNEN, Faction.EMPEROR})
PHASE_RULE = "1.09"


class MentatPauseStep(StrEnum):
    """The pause runs by itself: done, or the game over (its step then, in ``OVER``)."""

    OVER = "over"


def strongholds() -> list[str]:
    return list(_STRONGHOLDS)


_STRONGHOLDS = tuple(sorted(t.name for t in standard_board() if t.is_stronghold))


def holder(state: Position, territory: str) -> Faction | None:
    """The only faction with fighters in ``territory`` (advisors ignored), or None."""
    present = state.fighter_factions_in(territory)
    return next(iter(present)) if len(present) == 1 else None


def held_by(state: Position, factions: set[Faction]) -> int:
    return sum(1 for s in _STRONGHOLDS if holder(state, s) in factions)


def stronghold_winner(state: Position) -> Winner | None:
    """The first faction or alliance in storm order that meets 1.09.02."""
    for faction in state.whole.order:
        ally = state.ally_of(faction)
        if ally is None and held_by(state, {faction}) >= ALONE:
            return Winner((faction,), "strongholds", ALONE_RULE)
        if ally is not None and held_by(state, {faction, ally}) >= ALLIED:
            return Winner(tuple(sorted((faction, ally))), "alliance", ALLIANCE_RULE)
    return None


def with_ally(state: Position, faction: Faction) -> tuple[Faction, ...]:
    ally = state.ally_of(faction)
    return tuple(sorted((faction, ally))) if ally else (faction,)


def prediction_met(state: Position, winner: Winner) -> bool:
    game = state.whole
    return (
        Faction.BENE_GESSERIT in state.factions
        and game.prediction is not None
        and game.prediction[1] == game.turn
        and game.prediction[0] in winner.factions
    )


def fremen_special(state: Position) -> bool:
    """2.04.09: the two sietches hold only Fremen or nobody; Tuek's no A, H or E."""
    for sietch in FREMEN_SIETCHES:
        if state.factions_present(sietch) - {Faction.FREMEN}:
            return False
    return not state.factions_present("Tuek's Sietch") & NOT_IN_TUEKS


def last_turn_winner(state: Position) -> Winner:
    if Faction.SPACING_GUILD in state.factions:
        if Faction.FREMEN in state.factions and fremen_special(state):
            return Winner(with_ally(state, Faction.FREMEN), "fremen", FREMEN_RULE)
        return Winner(with_ally(state, Faction.SPACING_GUILD), "guild", GUILD_RULE)
    if Faction.FREMEN in state.factions:
        return Winner(with_ally(state, Faction.FREMEN), "default", LAST_TURN_RULE)
    counts = {f: held_by(state, {f}) for f in state.whole.order}
    best = max(counts.values())
    tied = [f for f in state.whole.order if counts[f] == best]
    if state.rules.last_turn_tie is LastTurnTie.STORM_ORDER:
        tied = tied[:1]
    return Winner(tuple(sorted(tied)), "default", LAST_TURN_RULE)


def begin(state: Position) -> list[Event]:
    events = bribes.collect(state)
    winner = stronghold_winner(state)
    if winner is not None and prediction_met(state, winner):
        winner = Winner((Faction.BENE_GESSERIT,), "prediction", PREDICTION_RULE)
    elif winner is None and state.whole.turn >= state.whole.last_turn:
        winner = last_turn_winner(state)
    if winner is None:
        state.set_game(step=PhaseStep.DONE)
        return events
    state.set_game(winner=winner, phase=GamePhase.OVER, step=MentatPauseStep.OVER, waiting=())
    return [*events, GameWon(winner.factions, winner.how, winner.rule)]


SPEC = PhaseSpec(phase=GamePhase.MENTAT_PAUSE, rule=PHASE_RULE, steps=MentatPauseStep, begin=begin)
