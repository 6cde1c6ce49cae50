"""Words for the Storm phase the engine runs (1.01): its standing order, never to play a
storm card (:mod:`rules.storm.orders`). :data:`STORM_WORDS` registers them for the generic
words (:mod:`bot.words.phase_words`).
"""

from __future__ import annotations

from bot.words.phase_words import OrderWords, PhaseWords, register
from rules.game_model import GamePhase
from rules.storm.orders import ORDER

ORDER_WORDS = {"pass": "never play a storm card (pass at once when asked)"}
"""Each value of the storm's standing order (:mod:`rules.storm.orders`), in words."""


def _order(value: str) -> str:
    return ORDER_WORDS.get(value, "as ordered")


STORM_WORDS = register(
    PhaseWords(
        GamePhase.STORM,
        order=OrderWords(ORDER.name, "Storm", _order),
    )
)
"""The Storm phase's words, for the generic words."""
