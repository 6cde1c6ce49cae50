"""The Revival phase's event (1.05): forces and a leader back from the tanks, whatever
brought them back (a revival, the Emperor's Karama, a Tleilaxu Ghola)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.events import Event
from rules.factions import Faction


@dataclass(frozen=True, slots=True)
class Revived(Event):
    kind: ClassVar[str] = "revived"
    faction: Faction
    forces: int
    special: int
    leader: str | None
    cost: int
    rule: str
