"""The Storm phase's events (1.01): the dials in and revealed, the Fremen's storm card
revealed or drawn (2.04.13), a storm card played, the storm's move and the storm order it
gives (1.01.01). What the storm destroys is told by the generic ``ForcesDestroyed`` and
``SpiceDestroyed``; a moderator's correction of the storm's sector is ``StormSet``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.events import Event
from rules.factions import Faction


@dataclass(frozen=True, slots=True)
class StormDialed(Event):
    """A dial is in; its value stays secret until every dial is."""

    kind: ClassVar[str] = "storm_dialed"
    faction: Faction


@dataclass(frozen=True, slots=True)
class StormDialsRevealed(Event):
    kind: ClassVar[str] = "storm_dials_revealed"
    factions: tuple[Faction, ...]
    values: tuple[int, ...]
    rule: str


@dataclass(frozen=True, slots=True)
class StormCardRevealed(Event):
    kind: ClassVar[str] = "storm_card_revealed"
    value: int
    rule: str


@dataclass(frozen=True, slots=True)
class StormCardDrawn(Event):
    """The Fremen drew next turn's storm card (face down: they alone see it)."""

    kind: ClassVar[str] = "storm_card_drawn"
    faction: Faction
    rule: str


@dataclass(frozen=True, slots=True)
class StormMoved(Event):
    kind: ClassVar[str] = "storm_moved"
    from_sector: int
    to_sector: int
    sectors: int
    rule: str


@dataclass(frozen=True, slots=True)
class StormCardPlayed(Event):
    """Weather Control or Family Atomics played in the Storm Phase."""

    kind: ClassVar[str] = "storm_card_played"
    faction: Faction
    card: str
    sectors: int | None  # Weather Control's move
    rule: str


@dataclass(frozen=True, slots=True)
class StormOrder(Event):
    kind: ClassVar[str] = "storm_order"
    order: tuple[Faction, ...]
    rule: str
