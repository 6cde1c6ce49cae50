"""Events: what happened, as public facts, in the order it happened.

An event is a frozen value, one class per kind. Every event the engine emits
is public: it never carries spice behind a shield or a hand of cards (amounts
paid for a shipment and cards played are public in Dune).

``to_dict()`` is the stored form, ``{"type": kind, field: value, ...}`` with the
fields in declaration order (games are kept as logs of these), and
``Event.from_dict`` reads it back.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from rules.factions import Faction
from rules.model import Ability, PromptKind, Side


@dataclass(frozen=True, slots=True)
class Event:
    """The base of every event: its ``kind`` names it in the stored form."""

    kind: ClassVar[str] = ""
    wire_names: ClassVar[Mapping[str, str]] = {}  # attribute -> stored key, where they differ

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind}
        for f in fields(self):
            out[self.wire_names.get(f.name, f.name)] = _plain(getattr(self, f.name))
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Event:
        """Read a stored event of any kind below (ValueError for an unknown kind)."""
        kind = str(data.get("type"))
        event_type = EVENT_TYPES.get(kind)
        if event_type is None or not issubclass(event_type, cls):
            raise ValueError(f"unknown event type {kind!r}")
        return event_type.read(data)

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> Event:
        """Build this kind of event from its stored form."""
        values = {
            f.name: _READERS[str(f.type)](data.get(cls.wire_names.get(f.name, f.name)))
            for f in fields(cls)
        }
        return cls(**values)


def _plain(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    return value


def _optional(read: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda value: None if value is None else read(value)


_READERS: dict[str, Callable[[Any], Any]] = {
    "Faction": Faction,
    "Faction | None": _optional(Faction),
    "Ability": Ability,
    "Side": Side,
    "str": str,
    "str | None": _optional(str),
    "int": int,
    "int | None": _optional(int),
    "bool": bool,
    "tuple[str, ...]": lambda value: tuple(str(v) for v in value),
    "tuple[PromptKind, ...]": lambda value: tuple(PromptKind(v) for v in value),
    "dict[str, Any]": lambda value: dict(value),
}


# -- the turn ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    kind: ClassVar[str] = "turn_started"
    faction: Faction


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    kind: ClassVar[str] = "turn_ended"
    faction: Faction


@dataclass(frozen=True, slots=True)
class ShipmentPassed(Event):
    kind: ClassVar[str] = "shipment_passed"
    faction: Faction


@dataclass(frozen=True, slots=True)
class MovementPassed(Event):
    kind: ClassVar[str] = "movement_passed"
    faction: Faction


@dataclass(frozen=True, slots=True)
class HajrPlayed(Event):
    kind: ClassVar[str] = "hajr_played"
    faction: Faction
    moves_allowed: int
    rule: str


@dataclass(frozen=True, slots=True)
class AllianceConstraint(Event):
    """Fighters sharing a territory with the ally's go to the tanks (1.06.03.08)."""

    kind: ClassVar[str] = "alliance_constraint"
    faction: Faction
    ally: Faction | None
    territory: str
    sector: int | None
    forces: int
    special: int
    rule: str


@dataclass(frozen=True, slots=True)
class PhaseComplete(Event):
    kind: ClassVar[str] = "phase_complete"


# -- prompts -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PromptsClosed(Event):
    """The flow moved on: these prompts of the open stage closed unanswered."""

    kind: ClassVar[str] = "prompts_closed"
    prompts: tuple[PromptKind, ...]


@dataclass(frozen=True, slots=True)
class PromptDeclined(Event):
    kind: ClassVar[str] = "prompt_declined"
    faction: Faction
    prompts: tuple[PromptKind, ...]


# -- shipment and movement -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Landing(Event):
    """Forces put down in a territory: the fields every shipment shares."""

    faction: Faction
    to: str
    sector: int | None
    forces: int
    special: int
    cost: int
    paid_to: str  # a faction's name, or "spice_bank"
    ally: Faction | None
    ally_paid: int


@dataclass(frozen=True, slots=True)
class Shipped(Landing):
    kind: ClassVar[str] = "shipment"
    karama: str | None  # the card that bought a half-price shipment


@dataclass(frozen=True, slots=True)
class Sent(Landing):
    kind: ClassVar[str] = "send"


@dataclass(frozen=True, slots=True)
class CrossShipped(Landing):
    kind: ClassVar[str] = "cross_ship"
    from_territory: str


@dataclass(frozen=True, slots=True)
class ShippedToReserves(Event):
    kind: ClassVar[str] = "ship_to_reserves"
    faction: Faction
    from_territory: str
    forces: int
    special: int
    cost: int
    paid_to: str
    rule: str


@dataclass(frozen=True, slots=True)
class Moved(Event):
    kind: ClassVar[str] = "move"
    faction: Faction
    from_territory: str
    to: str
    sector: int | None
    forces: int  # regular forces, or advisors
    special: int
    advisors: bool
    path: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class StormLosses(Event):
    kind: ClassVar[str] = "storm_losses"
    faction: Faction
    territory: str
    sector: int | None
    forces: int
    special: int
    rule: str


# -- Karama and the Guild ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class KaramaCancelled(Event):
    kind: ClassVar[str] = "karama_cancel"
    faction: Faction
    card: str
    ability: Ability
    against: Faction
    rule: str


@dataclass(frozen=True, slots=True)
class KaramaPrevented(Event):
    kind: ClassVar[str] = "karama_prevent"
    faction: Faction
    card: str
    ability: Ability
    rule: str


@dataclass(frozen=True, slots=True)
class Retake(Event):
    """The faction whose ability was cancelled may retake the action without it."""

    kind: ClassVar[str] = "retake"
    faction: Faction
    without: Ability
    rule: str


@dataclass(frozen=True, slots=True)
class GuildTimingCancelled(Event):
    kind: ClassVar[str] = "guild_timing_cancelled"
    faction: Faction
    rule: str


@dataclass(frozen=True, slots=True)
class GuildActsNow(Event):
    kind: ClassVar[str] = "guild_acts_now"
    faction: Faction
    before: Faction
    rule: str


@dataclass(frozen=True, slots=True)
class GuildDelays(Event):
    kind: ClassVar[str] = "guild_delays"
    faction: Faction
    rule: str


@dataclass(frozen=True, slots=True)
class ShipmentStopped(Event):
    kind: ClassVar[str] = "shipment_stopped"
    faction: Faction
    shipper: Faction
    territory: str
    sector: int | None
    forces: int
    special: int
    rule: str


# -- the Bene Gesserit ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SpiritualAdvisor(Event):
    kind: ClassVar[str] = "spiritual_advisor"
    wire_names: ClassVar[Mapping[str, str]] = {"token": "kind"}
    faction: Faction
    to: str
    sector: int | None
    token: str  # "fighter" (Polar Sink) or "advisor"
    rule: str


@dataclass(frozen=True, slots=True)
class Flipped(Event):
    kind: ClassVar[str] = "flipped"
    faction: Faction
    territory: str
    to: Side
    forces: int
    rule: str


EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        TurnStarted,
        TurnEnded,
        ShipmentPassed,
        MovementPassed,
        HajrPlayed,
        AllianceConstraint,
        PhaseComplete,
        PromptsClosed,
        PromptDeclined,
        Shipped,
        Sent,
        CrossShipped,
        ShippedToReserves,
        Moved,
        StormLosses,
        KaramaCancelled,
        KaramaPrevented,
        Retake,
        GuildTimingCancelled,
        GuildActsNow,
        GuildDelays,
        ShipmentStopped,
        SpiritualAdvisor,
        Flipped,
    )
}
"""Every kind of event the engine emits, by its stored name."""
