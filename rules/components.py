"""The printed components: each faction's force tokens and the treachery deck, the one
list of the cards (``rules/data/treachery.json``)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from rules.factions import Faction, same_card


@cache
def _data(name: str) -> dict[str, Any]:
    text = resources.files("rules").joinpath(f"data/{name}").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def forces_total(faction: Faction) -> int:
    """How many force tokens the faction owns, starred ones included (20 each)."""
    total: int = _data("factions.json")["factions"][faction.value]["forces_total"]
    return total


def starred_total(faction: Faction) -> int:
    """How many of those are starred (5 Sardaukar, 3 Fedaykin, else 0)."""
    total: int = _data("factions.json")["factions"][faction.value]["special_forces"]
    return total


def treachery_cards() -> dict[str, int]:
    """Each treachery card's printed name and how many copies the deck holds."""
    cards = _data("treachery.json")["cards"]
    return {name: card["count"] for name, card in cards.items()}


def treachery_card(text: str) -> str | None:
    """The printed name of the treachery card ``text`` names (any case), or None."""
    return next((name for name in treachery_cards() if same_card(name, text)), None)


@cache
def worthless_cards() -> frozenset[str]:
    """The worthless cards (Baliset, Jubba Cloak, ...), which the Bene Gesserit may use as
    Karama (advanced game)."""
    cards = _data("treachery.json")["cards"]
    return frozenset(name for name, card in cards.items() if card["kind"] == "worthless")


def is_worthless(card: str) -> bool:
    return any(same_card(card, w) for w in worthless_cards())
