"""Moderators' corrections: the announcement's words, the cards a moderator may give."""

from __future__ import annotations

from typing import Any

import pytest

from bot.corrections import CorrectionError, give_card, place, remove
from rules.factions import Faction
from tests.rules.helpers import position

BG = Faction.BENE_GESSERIT


def table() -> dict[str, Any]:
    data: dict[str, Any] = position(factions={"emperor": {"special_reserves": 3}}).to_dict()
    return data


def test_forces_placed_in_the_polar_sink_are_announced_as_there() -> None:
    data = table()
    said = place(data, BG, "Polar Sink", None, 1)
    assert said == "Bene Gesserit place 1 force from reserves in the Polar Sink."
    said = remove(data, BG, "polar sink", None, 1, to_tanks=True)
    assert said == "Bene Gesserit lose 1 force in the Polar Sink to the Tleilaxu Tanks."


def test_forces_in_a_sector_are_counted_in_words() -> None:
    data = table()
    said = place(data, Faction.EMPEROR, "Arrakeen", 9, 2, 1)
    assert said == "Emperor place 2 forces and 1 starred from reserves in Arrakeen (sector 9)."


def test_any_card_of_the_deck_may_be_given_by_its_printed_name() -> None:
    data = table()
    assert give_card(data, Faction.ATREIDES, " lasgun ") == "Atreides receive a treachery card."
    assert data["factions"]["atreides"]["cards"] == ["Lasgun"]


@pytest.mark.parametrize(
    ("typed", "hint"),
    [
        ("Karma", "(did you mean Karama?)"),
        ("K" * 2000, "(the card option lists every card)"),
        ("@everyone", "(the card option lists every card)"),
    ],
)
def test_a_card_not_in_the_deck_is_refused_with_a_hint(typed: str, hint: str) -> None:
    data = table()
    with pytest.raises(CorrectionError) as refused:
        give_card(data, Faction.ATREIDES, typed)
    assert str(refused.value).endswith(hint) and len(str(refused.value)) < 200
    assert data["factions"]["atreides"]["cards"] == []
