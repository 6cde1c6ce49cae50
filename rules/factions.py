"""The six base factions and the treachery cards this phase uses."""

from __future__ import annotations

import enum


class Faction(enum.StrEnum):
    ATREIDES = "atreides"
    BENE_GESSERIT = "bene_gesserit"
    EMPEROR = "emperor"
    FREMEN = "fremen"
    HARKONNEN = "harkonnen"
    SPACING_GUILD = "spacing_guild"

    @property
    def label(self) -> str:
        """The faction's printed name, e.g. ``Spacing Guild``."""
        return _LABELS[self]

    @classmethod
    def parse(cls, text: str) -> Faction | None:
        key = text.strip().lower().replace(" ", "_").replace("-", "_")
        try:
            return cls(key)
        except ValueError:
            return None


_LABELS = {
    Faction.ATREIDES: "Atreides",
    Faction.BENE_GESSERIT: "Bene Gesserit",
    Faction.EMPEROR: "Emperor",
    Faction.FREMEN: "Fremen",
    Faction.HARKONNEN: "Harkonnen",
    Faction.SPACING_GUILD: "Spacing Guild",
}

KARAMA = "Karama"
HAJR = "Hajr"
WORTHLESS_CARDS = frozenset({"Baliset", "Jubba Cloak", "Kulon", "La La La", "Trip to Gamont"})


TREACHERY_CARDS = (KARAMA, HAJR, *sorted(WORTHLESS_CARDS))
"""The treachery cards this phase knows (rules/data/factions.json ``cards``)."""


def card_named(text: str) -> str | None:
    """The card ``text`` names (case and spaces ignored), spelled as printed; None if none."""
    return next((card for card in TREACHERY_CARDS if same_card(card, text)), None)


def same_card(a: str, b: str) -> bool:
    return a.strip().lower() == b.strip().lower()


def is_worthless(card: str) -> bool:
    return any(same_card(card, w) for w in WORTHLESS_CARDS)
