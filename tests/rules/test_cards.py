"""The treachery cards this phase knows: those of rules/data/factions.json."""

from __future__ import annotations

import json
from importlib import resources

from rules.factions import TREACHERY_CARDS, card_named


def test_the_card_list_is_the_data_files() -> None:
    text = resources.files("rules").joinpath("data/factions.json").read_text(encoding="utf-8")
    cards = json.loads(text)["cards"]
    listed = {name for name in cards if name != "worthless"} | set(cards["worthless"])
    assert set(TREACHERY_CARDS) == listed


def test_a_card_is_named_as_printed() -> None:
    assert card_named("  jubba cloak ") == "Jubba Cloak"
    assert card_named("KARAMA") == "Karama"
    assert card_named("Karma") is None and card_named("") is None
