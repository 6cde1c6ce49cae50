"""The preview of a shipment or move: the engine's dry run, in words, changing nothing."""

from __future__ import annotations

import pytest

from bot.words.preview import preview
from rules.errors import IllegalActionError
from rules.factions import Faction
from rules.game import GameState
from tests.rules.helpers import parse, position

TWO = ["atreides", "fremen", None, None, None, None]
SPICE = {"atreides": {"spice": 10, "reserves": 10}, "fremen": {"spice": 3, "reserves": 10}}


def allies_in_arrakeen() -> GameState:
    return position(
        seats=TWO,
        factions=SPICE,
        alliances=[["atreides", "fremen"]],
        board=[{"faction": "fremen", "territory": "Arrakeen", "sector": 9, "forces": 2}],
    )


def test_a_shipment_says_what_it_does_and_costs_and_changes_nothing() -> None:
    state = position(seats=TWO, factions=SPICE)
    before = state.to_dict()
    text = preview(state, parse("atreides", "ship", to="Arrakeen", sector=9, forces=3), "A note.")
    assert text.splitlines() == [
        "**Preview**",
        "Atreides ships 3 forces to Arrakeen (sector 9) for 3 spice to the Spice Bank.",
        "Your spice: 10 → 7.",
        "A note.",
        "Confirm to submit it.",
    ]
    assert state.to_dict() == before


def test_forces_next_to_an_ally_are_said_to_be_lost_at_the_end_of_the_turn() -> None:
    text = preview(
        allies_in_arrakeen(), parse("atreides", "ship", to="Arrakeen", sector=9, forces=3)
    )
    assert (
        "If your turn ended now, the alliance constraint would send 3 forces in Arrakeen "
        "(sector 9) to the Tleilaxu Tanks (1.06.03.08)."
    ) in text.splitlines()


def test_an_illegal_action_raises_the_engines_refusal_and_changes_nothing() -> None:
    state = position(seats=TWO, factions=SPICE)
    before = state.to_dict()
    with pytest.raises(IllegalActionError):
        preview(state, parse("atreides", "ship", to="Arrakeen", sector=9, forces=30))
    assert state.to_dict() == before
    assert state.factions[Faction.ATREIDES].spice == 10
