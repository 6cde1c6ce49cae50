"""The Storm phase's standing order (1.01): "pass", never play a storm card (Weather Control,
Family Atomics), so that the faction passes at once when asked about them. Pure, like the
rest of the engine; the bot finds it by the phase's name (``rules.<phase>.orders`` exporting
``ORDER``) and never names it.
"""

from __future__ import annotations

from typing import Final

from rules.actions import FactionAction, Pass
from rules.factions import Faction
from rules.game import GameState
from rules.storm.model import asking_storm_cards

VALUES: Final = frozenset({"pass"})
"""Each value the order may hold ("ask" aside): its words are the phase's
(:mod:`bot.words.storm`)."""


class StormCardsOrder:
    """The Storm phase's order kind: its name, its values and the answer it gives."""

    name: Final = "storm"
    side_actions: Final[tuple[type[FactionAction], ...]] = ()

    def valid(self, value: str) -> bool:
        return value in VALUES

    def answer(self, state: GameState, faction: Faction, value: str) -> FactionAction | None:
        """A pass while everyone who could hold a storm card is asked; None otherwise."""
        return Pass(faction) if asking_storm_cards(state.whole) else None

    def as_a_pass(self, state: GameState, faction: Faction) -> tuple[FactionAction, ...]:
        """None: a storm card played is an answer."""
        del state, faction
        return ()


ORDER = StormCardsOrder()
"""The Storm phase's order kind, as the bot's standing orders look it up."""
