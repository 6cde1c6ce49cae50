"""The treachery deck: one list of the cards, rules/data/treachery.json."""

from __future__ import annotations

import json
from importlib import resources

from rules.components import is_worthless, treachery_card, treachery_cards, worthless_cards
from rules.factions import HAJR, KARAMA


def deck_file() -> dict[str, dict[str, object]]:
    text = resources.files("rules").joinpath("data/treachery.json").read_text(encoding="utf-8")
    cards: dict[str, dict[str, object]] = json.loads(text)["cards"]
    return cards


def test_the_deck_is_the_data_file_33_cards_24_names() -> None:
    deck = treachery_cards()
    assert set(deck) == set(deck_file())
    assert len(deck) == 24 and sum(deck.values()) == 33


def test_the_cards_the_rules_name_are_in_the_deck() -> None:
    assert treachery_card(KARAMA) == KARAMA and treachery_cards()[KARAMA] == 2
    assert treachery_card(HAJR) == HAJR and treachery_cards()[HAJR] == 1


def test_the_worthless_cards_are_the_decks_worthless_kind() -> None:
    assert worthless_cards() == {"Baliset", "Jubba Cloak", "Kulon", "La La La", "Trip to Gamont"}
    assert is_worthless(" la la la ") and not is_worthless(KARAMA) and not is_worthless("Lasgun")


def test_a_card_is_named_as_printed() -> None:
    assert treachery_card("  jubba cloak ") == "Jubba Cloak"
    assert treachery_card("KARAMA") == "Karama"
    assert treachery_card("maula pistol") == "Maula Pistol"
    assert treachery_card("Karma") is None and treachery_card("") is None
