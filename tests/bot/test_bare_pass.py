"""What a bare ``/pass`` means (bot.words.refusals.bare_pass_step) in a whole game."""

from __future__ import annotations

from dataclasses import replace

from bot.words.refusals import bare_pass_step
from rules.actions import Pass
from rules.factions import Faction
from tests.rules.game_helpers import game_at
from tests.rules.helpers import act

F = Faction


def test_a_pass_outside_shipment_and_movement_has_no_step() -> None:
    """Last turn's finished phase still lists everyone as done; the storm's pass is no
    movement pass (and the engine takes it as the storm card declined)."""
    state = game_at(
        "storm",
        turn=3,
        storm=7,
        dialers=(F.EMPEROR, F.FREMEN),
        factions={"atreides": {"cards": ("Weather Control",)}},
    )
    act(state, "emperor", "dial", value=1)
    act(state, "fremen", "dial", value=1)
    state.phase = replace(state.phase, done=frozenset(F))
    assert bare_pass_step(state, F.ATREIDES, None) is None
    state.apply(Pass(F.ATREIDES, None))
    assert state.whole.step != "storm_cards"


def test_in_shipment_and_movement_the_step_is_still_named() -> None:
    phase_state = game_at("shipment_movement", turn=3)
    first = phase_state.to_act()
    assert first is not None
    assert bare_pass_step(phase_state, first, None) == "shipment"
