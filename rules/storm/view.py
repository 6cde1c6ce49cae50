"""The Storm phase's part of the views (:class:`rules.phase_spec.PhaseView`): whether the
Fremen hold a storm card for next turn, for everyone (never its value), and its value, for
the Fremen alone while no Karama keeps them from seeing it (2.04.13, 2.04.14)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.factions import Faction
from rules.phase_spec import PhaseView
from rules.position import Position
from rules.storm.model import storm_turn

if TYPE_CHECKING:
    from rules.view import GameSecrets, GameView

NAME = "storm_card_held"
"""The view's name: the stored public view keeps the flag under it, as before."""


@dataclass(frozen=True, slots=True)
class StormSecrets:
    """A faction's own side of the storm: the storm card the Fremen drew for next turn
    (None for anyone else, or while a Karama keeps the Fremen from seeing it)."""

    storm_next: int | None = None


def card_held(state: Position) -> bool:
    """Whether the Fremen hold next turn's storm card (everyone sees that they do)."""
    return storm_turn(state.whole).next is not None


def own_card(state: Position, faction: Faction) -> StormSecrets:
    held = storm_turn(state.whole)
    seen = faction is Faction.FREMEN and not held.hidden
    return StormSecrets(held.next if seen else None)


VIEW = PhaseView(NAME, card_held, own_card)


def storm_card_held(game: GameView) -> bool:
    """Whether the Fremen hold next turn's storm card, from the public view."""
    return game.parts.get(NAME) is True


def storm_secrets(secrets: GameSecrets | None) -> StormSecrets:
    """A faction's own side of the storm, from its secrets."""
    part = secrets.parts.get(NAME) if secrets is not None else None
    return part if isinstance(part, StormSecrets) else StormSecrets()
