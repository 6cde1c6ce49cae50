"""The CHOAM Charity phase's action (1.03): a claim."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.actions import FactionAction


@dataclass(frozen=True, slots=True)
class ClaimCharity(FactionAction):
    """CHOAM Charity: take spice from the bank up to 2 (1.03.01)."""

    name: ClassVar[str] = "claim_charity"
