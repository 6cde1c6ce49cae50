"""The Battle phase's events (1.07): each battle started, the Voice and Prescience, the
plans in and revealed, traitors called, weapons struck, the winner, captives and the end of
the phase's battles; and the traitors kept at set-up (0.11)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.events import Event
from rules.factions import Faction


@dataclass(frozen=True, slots=True)
class TraitorKept(Event):
    kind: ClassVar[str] = "traitor_kept"
    faction: Faction
    kept: int
    rule: str


@dataclass(frozen=True, slots=True)
class BattleStarted(Event):
    kind: ClassVar[str] = "battle_started"
    aggressor: Faction
    opponent: Faction
    territory: str
    sector: int | None  # the battle's part of a territory a storm splits (else None)
    rule: str


@dataclass(frozen=True, slots=True)
class VoiceUsed(Event):
    kind: ClassVar[str] = "voice_used"
    faction: Faction
    target: Faction
    command: str  # "play" or "not_play"
    card_kind: str
    rule: str


@dataclass(frozen=True, slots=True)
class PrescienceAsked(Event):
    kind: ClassVar[str] = "prescience_asked"
    faction: Faction
    target: Faction
    ask: str  # "leader", "weapon", "defense", "number"; "plan" (Karama power, 1.14.01)
    rule: str


@dataclass(frozen=True, slots=True)
class PrescienceAnswered(Event):
    """The asked element, public; for the whole plan (1.14.01) only the Atreides see it
    (their private view), and ``answer`` is empty."""

    kind: ClassVar[str] = "prescience_answered"
    faction: Faction
    ask: str
    answer: str
    rule: str


@dataclass(frozen=True, slots=True)
class BattlePlanIn(Event):
    kind: ClassVar[str] = "battle_plan_in"
    faction: Faction


@dataclass(frozen=True, slots=True)
class PlanRevealed(Event):
    kind: ClassVar[str] = "plan_revealed"
    faction: Faction
    leader: str | None
    number: float
    spice: int
    weapon: str | None
    defense: str | None
    kwisatz_haderach: bool


@dataclass(frozen=True, slots=True)
class TraitorCalled(Event):
    kind: ClassVar[str] = "traitor_called"
    faction: Faction  # who revealed the card
    leader: str
    against: Faction
    rule: str


@dataclass(frozen=True, slots=True)
class LasgunShield(Event):
    kind: ClassVar[str] = "lasgun_shield"
    territory: str
    spice_lost: int
    rule: str


@dataclass(frozen=True, slots=True)
class WeaponStruck(Event):
    """A weapon against the opposing leader: ``killed``, or stopped by ``defense``."""

    kind: ClassVar[str] = "weapon_struck"
    faction: Faction
    card: str
    target: str
    killed: bool
    defense: str | None
    rule: str


@dataclass(frozen=True, slots=True)
class BattleWon(Event):
    kind: ClassVar[str] = "battle_won"
    winner: Faction
    loser: Faction
    territory: str
    winner_total: float
    loser_total: float
    rule: str


@dataclass(frozen=True, slots=True)
class CardsKept(Event):
    kind: ClassVar[str] = "cards_kept"
    faction: Faction
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class KwisatzHaderachKilled(Event):
    kind: ClassVar[str] = "kwisatz_haderach_killed"
    rule: str


@dataclass(frozen=True, slots=True)
class LeaderCaptured(Event):
    """The Harkonnen took or killed one of ``victim``'s leaders (which one only they and the
    victim see, 2.05.10)."""

    kind: ClassVar[str] = "leader_captured"
    faction: Faction
    victim: Faction
    kill: bool
    rule: str


@dataclass(frozen=True, slots=True)
class CaptivesReleased(Event):
    kind: ClassVar[str] = "captives_released"
    leaders: tuple[str, ...]
    rule: str


@dataclass(frozen=True, slots=True)
class BattlesOver(Event):
    """No battle is left: the surviving leaders go back to their pools (1.07.07)."""

    kind: ClassVar[str] = "battles_over"
    rule: str


@dataclass(frozen=True, slots=True)
class BattleRecorded(Event):
    kind: ClassVar[str] = "battle_recorded"
    faction: Faction
    opponent: Faction
