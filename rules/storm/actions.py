"""The Storm phase's actions (1.01): a storm dial, the storm cards played once the move is
known (Weather Control, Family Atomics) and the advanced Fremen's choice of their storm
losses (2.04.16)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.actions import FactionAction


@dataclass(frozen=True, slots=True)
class Dial(FactionAction):
    """Storm: secretly dial the storm's move (0.16 turn 1: 0..20; 1.01.02 later: 1..3)."""

    name: ClassVar[str] = "dial"
    value: int


@dataclass(frozen=True, slots=True)
class FremenStormLosses(FactionAction):
    """Advanced Fremen: how many Fedaykin are among a stack's storm losses (2.04.16)."""

    name: ClassVar[str] = "fremen_storm_losses"
    territory: str
    sector: int
    special: int


@dataclass(frozen=True, slots=True)
class WeatherControl(FactionAction):
    """Storm, turn 2 on: move the storm 0-10 sectors instead of the normal move (3.01.23)."""

    name: ClassVar[str] = "weather_control"
    sectors: int


@dataclass(frozen=True, slots=True)
class FamilyAtomics(FactionAction):
    """Storm, turn 2 on: destroy the Shield Wall and every force on it (3.01.07)."""

    name: ClassVar[str] = "family_atomics"
