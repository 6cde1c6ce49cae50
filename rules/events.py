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
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

from rules.factions import Faction
from rules.model import Ability, PromptKind, Side


@dataclass(frozen=True, slots=True)
class Event:
    """The base of every event: its ``kind`` names it in the stored form."""

    kind: ClassVar[str] = ""
    wire_names: ClassVar[Mapping[str, str]] = {}  # attribute -> stored key, where they differ

    def __init_subclass__(cls) -> None:
        """Every engine event with a kind of its own is registered by it: the log reads it
        back (the store's own log events, outside ``rules``, keep a table of their own)."""
        if cls.__dict__.get("kind") and cls.__module__.startswith("rules."):
            EVENT_TYPES[cls.kind] = cls

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
            if cls.wire_names.get(f.name, f.name) in data or f.default is MISSING
        }  # a field added since with a default: an older log's event reads with it
        return cls(**values)


EVENT_TYPES: dict[str, type[Event]] = {}
"""Every kind of event the engine emits, by its stored name: each registers itself as its
class is made (a phase's own events in its package: ``rules`` imports every phase)."""


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
    "float": lambda value: int(value) if float(value).is_integer() else float(value),
    "bool": bool,
    "tuple[str, ...]": lambda value: tuple(str(v) for v in value),
    "tuple[Faction, ...]": lambda value: tuple(Faction(v) for v in value),
    "tuple[int, ...]": lambda value: tuple(int(v) for v in value),
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
class AbilityStopped(Event):
    """A Karama played earlier stops this use of a ✷ ability (3.01.11.02)."""

    kind: ClassVar[str] = "ability_stopped"
    faction: Faction  # whose ability
    ability: Ability
    rule: str


@dataclass(frozen=True, slots=True)
class KaramaPower(Event):
    """A faction's once-a-game Karama power (1.14), e.g. the Fremen's worm."""

    kind: ClassVar[str] = "karama_power"
    faction: Faction
    card: str
    power: str
    territory: str | None
    rule: str


@dataclass(frozen=True, slots=True)
class BribePaid(Event):
    """Spice given in the open; it lies in front of the receiver's shield (1.12.02)."""

    kind: ClassVar[str] = "bribe_paid"
    faction: Faction
    to: Faction
    amount: int
    rule: str


@dataclass(frozen=True, slots=True)
class TruthtrancePlayed(Event):
    """A Truthtrance played: ``faction`` asks ``target`` a question (3.01.21). The question
    itself is not here: it stays between the two (the private views)."""

    kind: ClassVar[str] = "truthtrance_played"
    faction: Faction
    target: Faction
    rule: str


@dataclass(frozen=True, slots=True)
class TruthtranceAnswered(Event):
    """The target (``faction``) answers ``asker``'s question: "yes", "no", or "none" (no
    answer given in time), with its remark; public (3.01.21)."""

    kind: ClassVar[str] = "truthtrance_answered"
    faction: Faction
    asker: Faction
    answer: str
    remark: str
    rule: str


@dataclass(frozen=True, slots=True)
class BribesCollected(Event):
    """The Mentat Pause: a faction takes the bribes in front of its shield (1.09.01)."""

    kind: ClassVar[str] = "bribes_collected"
    faction: Faction
    amount: int
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


# -- the whole turn ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PhaseBegan(Event):
    kind: ClassVar[str] = "phase_began"
    turn: int
    phase: str


@dataclass(frozen=True, slots=True)
class DeckShuffled(Event):
    """A deck was shuffled by chance (its order stays secret)."""

    kind: ClassVar[str] = "deck_shuffled"
    deck: str  # "spice", "treachery", "traitors"
    cards: int


@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    """Cards dealt face down to a faction (which ones stays secret)."""

    kind: ClassVar[str] = "cards_dealt"
    faction: Faction
    deck: str  # "treachery" or "traitors"
    cards: int
    rule: str


@dataclass(frozen=True, slots=True)
class PredictionMade(Event):
    kind: ClassVar[str] = "prediction_made"
    faction: Faction
    rule: str


@dataclass(frozen=True, slots=True)
class ForcesSetUp(Event):
    """Forces placed at set-up (0.00)."""

    kind: ClassVar[str] = "forces_set_up"
    faction: Faction
    territory: str
    sector: int | None
    forces: int
    rule: str
    token: str  # "fighter" or "advisor"


@dataclass(frozen=True, slots=True)
class ForcesDestroyed(Event):
    """Forces sent to the tanks by the storm or a worm."""

    kind: ClassVar[str] = "forces_destroyed"
    faction: Faction
    territory: str
    sector: int | None
    forces: int
    special: int
    advisors: int
    cause: str  # "storm" or "worm"
    rule: str


@dataclass(frozen=True, slots=True)
class SpiceDestroyed(Event):
    kind: ClassVar[str] = "spice_destroyed"
    territory: str
    sector: int | None
    amount: int
    cause: str
    rule: str


@dataclass(frozen=True, slots=True)
class SpiceBlown(Event):
    kind: ClassVar[str] = "spice_blown"
    pile: str
    territory: str
    sector: int
    amount: int
    placed: bool  # False: the sector was in storm (1.02.04)
    rule: str


@dataclass(frozen=True, slots=True)
class ShaiHulud(Event):
    kind: ClassVar[str] = "shai_hulud"
    pile: str
    territory: str | None  # the territory it devours in (None: nothing)
    ignored: bool  # turn 1: set aside (1.02.02)
    rule: str


@dataclass(frozen=True, slots=True)
class WormRidden(Event):
    kind: ClassVar[str] = "worm_ridden"
    faction: Faction
    from_territory: str
    to: str
    sector: int | None
    forces: int
    special: int
    rule: str


@dataclass(frozen=True, slots=True)
class NexusStarted(Event):
    kind: ClassVar[str] = "nexus_started"
    rule: str


@dataclass(frozen=True, slots=True)
class NexusEnded(Event):
    kind: ClassVar[str] = "nexus_ended"


@dataclass(frozen=True, slots=True)
class AllianceOffered(Event):
    kind: ClassVar[str] = "alliance_offered"
    faction: Faction
    to: Faction


@dataclass(frozen=True, slots=True)
class AllianceFormed(Event):
    kind: ClassVar[str] = "alliance_formed"
    factions: tuple[Faction, ...]
    rule: str


@dataclass(frozen=True, slots=True)
class AllianceBroken(Event):
    kind: ClassVar[str] = "alliance_broken"
    faction: Faction
    ally: Faction
    rule: str


@dataclass(frozen=True, slots=True)
class Passed(Event):
    """A faction is done with the choice the game waited for (a Nexus, a charity claim);
    ``choice`` names it where the phase asks several (the Battle phase: "voice",
    "prescience", "traitor_calls", "capture")."""

    kind: ClassVar[str] = "passed"
    faction: Faction
    phase: str
    choice: str = ""


@dataclass(frozen=True, slots=True)
class CardWon(Event):
    """A faction took a treachery card (which one stays secret) for ``price``: its own
    spice first, ``ally_paid`` of it by its ``ally`` (1.10.02.04). ``paid_to`` is the
    faction the payment went to (the Emperor, 2.03.04), None for the Spice Bank: a part
    paid by ``paid_to`` itself goes to the bank (:attr:`received`)."""

    kind: ClassVar[str] = "card_won"
    faction: Faction
    price: int
    paid_to: Faction | None
    rule: str
    ally: Faction | None = None
    ally_paid: int = 0

    @property
    def parts(self) -> tuple[tuple[Faction, int], ...]:
        """Who paid what: the winner, then its ally (parts of 0 left out)."""
        found = [(self.faction, self.price - self.ally_paid)]
        if self.ally is not None:
            found.append((self.ally, self.ally_paid))
        return tuple((f, n) for f, n in found if n > 0)

    @property
    def received(self) -> int:
        """What ``paid_to`` received (0 when all went to the Spice Bank)."""
        if self.paid_to is None:
            return 0
        return sum(n for f, n in self.parts if f is not self.paid_to)


@dataclass(frozen=True, slots=True)
class ForcesLost(Event):
    kind: ClassVar[str] = "forces_lost"
    faction: Faction
    territory: str
    sector: int | None
    forces: int
    special: int
    advisors: int
    rule: str


@dataclass(frozen=True, slots=True)
class LeaderKilled(Event):
    kind: ClassVar[str] = "leader_killed"
    faction: Faction
    leader: str
    rule: str


@dataclass(frozen=True, slots=True)
class CardDiscarded(Event):
    kind: ClassVar[str] = "card_discarded"
    faction: Faction
    card: str


@dataclass(frozen=True, slots=True)
class SpicePaid(Event):
    kind: ClassVar[str] = "spice_paid"
    faction: Faction
    amount: int
    to: Faction | None


@dataclass(frozen=True, slots=True)
class SpiceReceived(Event):
    kind: ClassVar[str] = "spice_received"
    faction: Faction
    amount: int
    rule: str


@dataclass(frozen=True, slots=True)
class SpiceCollected(Event):
    kind: ClassVar[str] = "spice_collected"
    faction: Faction
    territory: str
    sector: int | None
    amount: int
    rule: str


@dataclass(frozen=True, slots=True)
class GameWon(Event):
    kind: ClassVar[str] = "game_won"
    factions: tuple[Faction, ...]
    how: str
    rule: str


# -- the Battle phase (rules.battle) ---------------------------------------------------


# -- moderators' corrections ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Corrected(Event):
    """A moderator corrected the position (:mod:`rules.corrections`). Public facts only:
    a spice correction names the faction, never the amount; a card given or taken, never
    the card."""


@dataclass(frozen=True, slots=True)
class StormSet(Corrected):
    kind: ClassVar[str] = "storm_set"
    sector: int


@dataclass(frozen=True, slots=True)
class ForcesPlaced(Corrected):
    kind: ClassVar[str] = "forces_placed"
    faction: Faction
    territory: str
    sector: int | None
    forces: int
    special: int


@dataclass(frozen=True, slots=True)
class ForcesRemoved(Corrected):
    kind: ClassVar[str] = "forces_removed"
    faction: Faction
    territory: str
    sector: int | None
    forces: int
    special: int
    to_tanks: bool


@dataclass(frozen=True, slots=True)
class SpiceSet(Corrected):
    kind: ClassVar[str] = "spice_set"
    faction: Faction


@dataclass(frozen=True, slots=True)
class CardGiven(Corrected):
    kind: ClassVar[str] = "card_given"
    faction: Faction


@dataclass(frozen=True, slots=True)
class CardTaken(Corrected):
    kind: ClassVar[str] = "card_taken"
    faction: Faction


# -- the Bidding phase, run by the engine (rules.bidding, 1.04) -------------------------


@dataclass(frozen=True, slots=True)
class SpiceGiven(Event):
    """The Emperor gave spice to its ally (2.03.06; the amount stays secret)."""

    kind: ClassVar[str] = "spice_given"
    faction: Faction
    to: Faction
