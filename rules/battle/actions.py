"""The Battle phase's actions (1.07): a battle started, the Voice and Prescience, a battle
plan, a traitor called, the winner's cards kept and the Harkonnen's capture (2.05.10); and
the traitor each faction keeps at set-up (0.11), the card it calls in a battle."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules.actions import FactionAction, Record


@dataclass(frozen=True, slots=True)
class KeepTraitor(FactionAction):
    """Set-up: keep one of the four traitor cards dealt (0.11)."""

    name: ClassVar[str] = "keep_traitor"
    leader: str


@dataclass(frozen=True, slots=True)
class StartBattle(FactionAction):
    """The aggressor names its next battle: where (``sector`` where a storm splits the
    territory) and against whom (1.07.02-03)."""

    name: ClassVar[str] = "battle"
    territory: str
    opponent: str
    sector: int | None = None


@dataclass(frozen=True, slots=True)
class BattlePlan(FactionAction):
    """The secret battle plan (1.07.04): a leader, a Cheap Hero or None; the number
    dialed (halves in the advanced game); cards in the weapon and defense slots; spice
    paid for the dial (advanced, 1.13.04); the Kwisatz Haderach (Atreides, 2.01.11)."""

    name: ClassVar[str] = "battle_plan"
    territory: str
    leader: str | None
    number: float
    weapon: str | None = None
    defense: str | None = None
    spice: int = 0
    kwisatz_haderach: bool = False


@dataclass(frozen=True, slots=True)
class Prescience(FactionAction):
    """Atreides: ask the opponent for one element of its plan (2.01.08): "leader",
    "weapon", "defense" or "number"; "plan" with a Karama: the whole plan (1.14.01)."""

    name: ClassVar[str] = "prescience"
    ask: str


@dataclass(frozen=True, slots=True)
class Voice(FactionAction):
    """Bene Gesserit: command the opponent to play, or not to play, a kind of card
    (2.02.06): ``command`` "play" or "not_play"; ``kind`` "poison weapon", "projectile
    weapon", "poison defense", "projectile defense", "worthless", or a card's name."""

    name: ClassVar[str] = "voice"
    command: str
    kind: str


@dataclass(frozen=True, slots=True)
class CallTraitor(FactionAction):
    """Reveal the traitor card of the opposing leader (1.07.06.06; the Harkonnen also
    in their ally's battle, 2.05.09)."""

    name: ClassVar[str] = "call_traitor"


@dataclass(frozen=True, slots=True)
class KeepCards(FactionAction):
    """The winner keeps these of the cards it played; the rest are discarded
    (1.07.06.05); an empty list discards them all."""

    name: ClassVar[str] = "keep_cards"
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Capture(FactionAction):
    """Harkonnen, advanced, after a won battle: take the drawn leader into their pool,
    or with ``kill`` send it to the tanks for 2 spice (2.05.10)."""

    name: ClassVar[str] = "capture"
    leader: str
    kill: bool = False


@dataclass(frozen=True, slots=True)
class RecordBattle(Record):
    """Battle: the faction fought ``opponent`` (they dial the next basic storm, 1.01.02)."""

    name: ClassVar[str] = "record_battle"
    opponent: str
