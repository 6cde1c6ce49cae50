"""The Battle phase's words (1.07), in one place: its events, its choices and answers
(:mod:`.phase`), the private battle plan builder (:mod:`.plan_builder`), the traitor cards
it is fought with, dealt and kept at set-up (:mod:`.traitors`), and its part of the game's
summary, the turning battles (:mod:`.summary`).

Importing the package registers them (:mod:`bot.words.phase_words`), which the generic
words find by the phase's name.
"""

from __future__ import annotations

from bot.words.battle import traitors
from bot.words.battle.phase import (
    battle_answer,
    battle_options,
    describe_battle_event,
    foreseen_line,
    foreseen_lines,
    plan_words,
)

__all__ = [
    "battle_answer",
    "battle_options",
    "describe_battle_event",
    "foreseen_line",
    "foreseen_lines",
    "plan_words",
    "traitors",
]
