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

from enum import StrEnum

from rules.game_model import GamePhase
from rules.phase_spec import Stepped

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
