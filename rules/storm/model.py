"""The Storm phase's steps, its rules' numbers and the predicates other modules read its
step through (1.01).

Turn 1 the two players seated nearest the Storm Start on either side dial 0-20 in secret
(0.16). Later turns the two who used battle wheels last dial 1-3 (1.01.02), or, in the
advanced game with the Fremen, the storm card the Fremen drew last turn is revealed
(2.04.13). The storm moves one sector at a time and destroys forces on unprotected sand and
all spice in each sector it enters (1.01.03; readings D1 and D2 in
docs/whole-turn-readings.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rules.game_model import GamePhase, StatePart, TurnState, state_part
from rules.phase_spec import Stepped
from rules.position import Position

PHASE_RULE = "1.01"
FIRST_STORM_RULE = "0.16"
DIAL_RULE = "1.01.02"
DESTRUCTION_RULE = "1.01.03"
FIRST_PLAYER_RULE = "1.01.01"
STORM_DECK_RULE = "2.04.13"
FREMEN_LOSSES_RULE = "2.04.16"
WEATHER_CONTROL_RULE = "3.01.23"
FAMILY_ATOMICS_RULE = "3.01.07"


class StormStep(StrEnum):
    """The Storm phase's steps: the dials, the storm cards (turn 2 on), the Fremen's
    choice of their storm losses (2.04.16)."""

    DIAL = "dial"
    STORM_CARDS = "storm_cards"
    FREMEN_LOSSES = "fremen_losses"


def dialing(game: Stepped) -> bool:
    """The storm's dials are awaited (1.01.02)."""
    return game.phase == GamePhase.STORM and game.step == StormStep.DIAL


def asking_storm_cards(game: Stepped) -> bool:
    """Everyone who could hold a storm card is asked alike (docs/secrets-and-waits.md)."""
    return game.phase == GamePhase.STORM and game.step == StormStep.STORM_CARDS


@dataclass(frozen=True, slots=True)
class StormTurn:
    """The Storm phase's own state: the storm card the Fremen hold face down for next turn
    (``next``, 2.04.13) and whether a Karama kept them from seeing it (``hidden``, 2.04.14);
    this turn's move once known, while storm cards may be played (``move``, 3.01.23)."""

    next: int | None = None
    hidden: bool = False
    move: int | None = None


def _write(turn: StormTurn) -> Mapping[str, Any]:
    return {"storm_next": turn.next, "storm_move": turn.move, "storm_card_hidden": turn.hidden}


def _read(data: Mapping[str, Any]) -> StormTurn:
    return StormTurn(
        data.get("storm_next"), bool(data.get("storm_card_hidden", False)), data.get("storm_move")
    )


STORM_TURN: StatePart[StormTurn] = state_part("storm_turn", StormTurn(), _write, _read)
"""The Storm phase's state, kept in the game's state (stored under its old keys)."""


def storm_turn(game: TurnState) -> StormTurn:
    """The Storm phase's state in ``game``."""
    return STORM_TURN.of(game)


def set_storm_turn(state: Position, turn: StormTurn) -> None:
    """The Storm phase's state is now ``turn``."""
    state.set_game(parts=STORM_TURN.put(state.whole.parts, turn))
