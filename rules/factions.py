"""The six base factions, and the names of the treachery cards the rules of this phase name.

The deck itself (every card, its copies and its kind) is :mod:`rules.components`'.
"""

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

    @property
    def starred(self) -> str:
        """What the board calls the faction's starred forces ("Sardaukar", "Fedaykin")."""
        return _STARRED.get(self, "starred forces")

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

_STARRED = {Faction.EMPEROR: "Sardaukar", Faction.FREMEN: "Fedaykin"}

KARAMA = "Karama"
HAJR = "Hajr"


def same_card(a: str, b: str) -> bool:
    return a.strip().lower() == b.strip().lower()
