"""Moderators' corrections: the announcement's words, the cards a moderator may give."""

from __future__ import annotations

import pytest

from bot.words.narrate import correction_made
from rules.actions import GiveCard, PlaceForces, RemoveForces
from rules.errors import CorrectionError
from rules.factions import Faction
from rules.game import GameState
from tests.rules.helpers import position

BG = Faction.BENE_GESSERIT


def table() -> GameState:
    return position(factions={"emperor": {"special_reserves": 3}})


def said(state: GameState, correction: PlaceForces | RemoveForces | GiveCard) -> str:
    return correction_made(1, state.apply(correction)).removeprefix("Correction by <@1>: ")


def test_forces_placed_in_the_polar_sink_are_announced_as_there() -> None:
    state = table()
    placed = said(state, PlaceForces(BG, "Polar Sink", None, 1))
    assert placed == "Bene Gesserit place 1 force from reserves in the Polar Sink."
    removed = said(state, RemoveForces(BG, "polar sink", None, 1, to_tanks=True))
    assert removed == "Bene Gesserit loses 1 force in the Polar Sink to the Tleilaxu Tanks."


def test_forces_in_a_sector_are_counted_in_words() -> None:
    placed = said(table(), PlaceForces(Faction.EMPEROR, "Arrakeen", 9, 2, 1))
    assert placed == "Emperor place 2 forces and 1 Sardaukar from reserves in Arrakeen (sector 9)."


def test_any_card_of_the_deck_may_be_given_by_its_printed_name() -> None:
    state = table()
    assert said(state, GiveCard(Faction.ATREIDES, " lasgun ")) == (
        "Atreides receive a treachery card."
    )
    assert state.factions[Faction.ATREIDES].cards == ("Lasgun",)


@pytest.mark.parametrize(
    ("typed", "hint"),
    [
        ("Karma", "(did you mean Karama?)"),
        ("K" * 2000, "(the card option lists every card)"),
        ("@everyone", "(the card option lists every card)"),
    ],
)
def test_a_card_not_in_the_deck_is_refused_with_a_hint(typed: str, hint: str) -> None:
    state = table()
    with pytest.raises(CorrectionError) as refused:
        state.apply(GiveCard(Faction.ATREIDES, typed))
    assert str(refused.value).endswith(hint) and len(str(refused.value)) < 200
    assert state.factions[Faction.ATREIDES].cards == ()
