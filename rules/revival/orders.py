"""The Revival phase's standing order (1.05): "free", the free revival alone, so that the
faction is never asked. Pure, like the rest of the engine; the bot finds it by the phase's
name (``rules.<phase>.orders`` exporting ``ORDER``) and never names it.
"""

from __future__ import annotations

from typing import Final

from rules.actions import FactionAction, Pass
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from rules.revival.actions import Revive
from rules.revival.prices import free_forces

VALUES: Final = frozenset({"free"})
"""Each value the order may hold ("ask" aside): its words are the phase's
(:mod:`bot.words.revival`)."""


class RevivalOrder:
    """The Revival phase's order kind: its name, its values and the answer it gives."""

    name: Final = "revival"
    side_actions: Final[tuple[type[FactionAction], ...]] = ()

    def valid(self, value: str) -> bool:
        return value in VALUES

    def answer(self, state: GameState, faction: Faction, value: str) -> FactionAction | None:
        """The free revival only (1.05.01): a pass, in the Revival phase."""
        return Pass(faction) if state.whole.phase is GamePhase.REVIVAL else None

    def as_a_pass(self, state: GameState, faction: Faction) -> tuple[FactionAction, ...]:
        """The free revival alone, named as a revival: it is what a pass gives."""
        return (Revive(faction, *free_forces(state, faction)),)


ORDER = RevivalOrder()
"""The Revival phase's order kind, as the bot's standing orders look it up."""
