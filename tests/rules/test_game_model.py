"""The whole game's frozen state: ``evolve`` is ``dataclasses.replace``, only faster."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.factions import Faction
from rules.game_model import Chance, GamePhase, TurnState, evolve


def test_evolve_gives_what_replace_gives_and_leaves_the_original_alone() -> None:
    game = TurnState(Chance(7), order=(Faction.ATREIDES,), treachery_deck=("Lasgun",))
    changes = {"phase": GamePhase.BIDDING, "waiting": (Faction.FREMEN,), "turn": 3}
    evolved = evolve(game, changes)
    assert evolved == replace(game, **changes)  # type: ignore[arg-type]
    assert evolved.to_dict() == replace(game, **changes).to_dict()  # type: ignore[arg-type]
    assert game.phase is GamePhase.SETUP and game.turn == 1 and game.waiting == ()
    with pytest.raises(AttributeError):
        evolved.turn = 4  # type: ignore[misc]  # still frozen


def test_evolve_refuses_a_field_that_does_not_exist() -> None:
    with pytest.raises(TypeError, match="no field 'turns'"):
        evolve(TurnState(Chance(1)), {"turns": 2})
