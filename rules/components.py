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
    return _card_names().get(text.strip().lower())


@cache
def _card_names() -> dict[str, str]:
    return {name.strip().lower(): name for name in _data("treachery.json")["cards"]}


SHAI_HULUD = "Shai-Hulud"


def spice_cards() -> dict[str, tuple[int, int]]:
    """Each territory spice card: territory -> (printed blow sector, amount)."""
    cards = _data("components.json")["spice_deck"]["territory_cards"]
    return {c["territory"]: (int(c["sector"]), int(c["amount"])) for c in cards}


def spice_deck() -> tuple[str, ...]:
    """The 21 spice cards by name: 15 territories and 6 Shai-Hulud (1.02)."""
    worms: int = _data("components.json")["spice_deck"]["shai_hulud_count"]
    return (*spice_cards(), *([SHAI_HULUD] * worms))


def treachery_deck() -> tuple[str, ...]:
    """The 33 treachery cards, one entry per copy."""
    return tuple(name for name, count in treachery_cards().items() for _ in range(count))


def leaders(faction: Faction) -> dict[str, int]:
    """The faction's five leaders as printed, with their strengths."""
    return dict(_leaders(faction))


@cache
def _leaders(faction: Faction) -> tuple[tuple[str, int], ...]:
    rows = _data("components.json")["leaders"][faction.value]
    return tuple((str(r["name"]), int(r["strength"])) for r in rows)


def leader_owner(name: str) -> Faction | None:
    """The faction whose leader ``name`` is (any case), or None."""
    found = _leader_table().get(name.strip().lower())
    return found[0] if found else None


@cache
def _leader_table() -> dict[str, tuple[Faction, int]]:
    """Every leader's name (lower case) -> (owner, strength)."""
    return {
        name.strip().lower(): (faction, strength)
        for faction in Faction
        for name, strength in leaders(faction).items()
    }


def storm_deck() -> tuple[int, ...]:
    """The advanced storm deck's six cards (2.04.13)."""
    return tuple(int(v) for v in _data("components.json")["storm_deck"])


def extras(faction: Faction) -> dict[str, int]:
    """hand_limit, starting_treachery_cards, traitors_kept, free_revival."""
    row: dict[str, int] = _data("components.json")["faction_extras"][faction.value]
    return row


def limits(name: str) -> dict[str, int]:
    """One table of numbers of ``components.json`` by its name (a phase's limits: the
    Revival phase's ``revival_limits``, read by :mod:`rules.revival.model`)."""
    row: dict[str, int] = _data("components.json")[name]
    return row


def starting_spice(faction: Faction) -> int:
    spice: int = _data("factions.json")["factions"][faction.value]["starting_spice"]
    return spice


def starting_board(faction: Faction) -> list[tuple[str, int]]:
    """(territory, forces) placed at set-up; the Fremen place theirs by choice (0.08)."""
    rows = _data("factions.json")["factions"][faction.value]["starting_board"]
    if isinstance(rows, str):
        return []
    return [(str(r["territory"]), int(r["forces"])) for r in rows]


@cache
def worthless_cards() -> frozenset[str]:
    """The worthless cards (Baliset, Jubba Cloak, ...), which the Bene Gesserit may use as
    Karama (advanced game)."""
    cards = _data("treachery.json")["cards"]
    return frozenset(name for name, card in cards.items() if card["kind"] == "worthless")


def is_worthless(card: str) -> bool:
    return any(same_card(card, w) for w in worthless_cards())


def card_kind(card: str) -> str | None:
    """The kind of a treachery card as printed in ``treachery.json`` ("weapon_poison",
    "defense_projectile", "worthless", "special"...), any case; None for no card."""
    return _card_kinds().get(card.strip().lower())


@cache
def _card_kinds() -> dict[str, str]:
    cards = _data("treachery.json")["cards"]
    return {name.strip().lower(): str(c["kind"]) for name, c in cards.items()}


def leader_strength(name: str) -> int:
    """A leader's printed strength (0 for a name that is no leader: a Cheap Hero)."""
    found = _leader_table().get(name.strip().lower())
    return found[1] if found else 0
