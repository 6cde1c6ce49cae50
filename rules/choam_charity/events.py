"""The CHOAM Charity phase's event (1.03): a charity paid."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.events import Event
from rules.factions import Faction


@dataclass(frozen=True, slots=True)
class CharityPaid(Event):
    """CHOAM paid a faction its charity (1.03.01; the Bene Gesserit's always, 2.02.09)."""

    kind: ClassVar[str] = "charity_paid"
    faction: Faction
    amount: int
    rule: str
