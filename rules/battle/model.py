"""The Battle phase's values: one battle plan, and the battle being fought (1.07).

Frozen values stored in :class:`~rules.game_model.TurnState` (``battle``): the plans stay
there, secret, until both are in and revealed; only their owner's private view shows one
before that (:func:`rules.view.game_secrets`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from rules.factions import Faction
from rules.game_model import StatePart, state_part
from rules.position import Position

CHEAP_HEROES = ("Cheap Hero", "Cheap Heroine")
KWISATZ_HADERACH = "Kwisatz Haderach"


class BattleStep(StrEnum):
    """The Battle phase's steps, battle by battle: the aggressor names its battle, the
    Voice and Prescience (one after the other, or together), the plans, the traitor calls,
    the winner's cards kept, the Harkonnen's capture."""

    CHOOSE = "choose"
    VOICE = "voice"
    PRESCIENCE = "prescience"
    VOICE_PRESCIENCE = "voice_prescience"
    PLANS = "plans"
    TRAITOR_CALLS = "traitor_calls"
    KEEP = "keep"
    CAPTURE = "capture"


def plain_number(value: float) -> float:
    """A dial as stored: an int when whole (5, not 5.0), else the half (2.5)."""
    return int(value) if float(value).is_integer() else float(value)


@dataclass(frozen=True, slots=True)
class Plan:
    """One side's battle plan (1.07.04): ``leader`` a leader's name, a Cheap Hero card's
    name, or None; ``number`` the dial (halves in the advanced game's spice dialing);
    ``spice`` paid for it (advanced); the cards in the weapon and defense slots."""

    leader: str | None
    number: float
    spice: int = 0
    weapon: str | None = None
    defense: str | None = None
    kwisatz_haderach: bool = False
    ally_spice: int = 0  # D13 "ally": the part of ``spice`` the ally pays

    @property
    def cheap_hero(self) -> bool:
        return self.leader in CHEAP_HEROES

    @property
    def cards(self) -> tuple[str, ...]:
        """Every card the plan plays: the Cheap Hero, the weapon, the defense."""
        found = [self.leader] if self.cheap_hero else []
        return tuple(c for c in (*found, self.weapon, self.defense) if c is not None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "leader": self.leader,
            "number": plain_number(self.number),
            "spice": self.spice,
            "weapon": self.weapon,
            "defense": self.defense,
            "kwisatz_haderach": self.kwisatz_haderach,
            "ally_spice": self.ally_spice,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Plan:
        return cls(
            leader=data.get("leader"),
            number=plain_number(float(data["number"])),
            spice=int(data.get("spice", 0)),
            weapon=data.get("weapon"),
            defense=data.get("defense"),
            kwisatz_haderach=bool(data.get("kwisatz_haderach", False)),
            ally_spice=int(data.get("ally_spice", 0)),
        )


@dataclass(frozen=True, slots=True)
class Battle:
    """The battle under way: where, who, and how far it has come.

    ``sectors`` are the territory's sectors this battle covers (storm separation,
    1.07.01.00). ``voice`` is (command, kind) once the Bene Gesserit have spoken;
    ``prescience`` the element the Atreides asked for ("plan": their Karama power,
    1.14.01). ``asked`` lists the pre-plan choices settled ("voice", "prescience").
    After the reveal, ``callers`` are the factions still able to call a traitor,
    ``called`` those who did; ``winner`` and ``to_keep`` the cards the winner may keep;
    ``captive`` the leader the Harkonnen drew (advanced capture, secret).
    """

    territory: str
    sectors: tuple[int | None, ...]
    aggressor: Faction
    defender: Faction
    asked: frozenset[str] = frozenset()
    voice: tuple[str, str] | None = None
    voice_by: Faction | None = None
    prescience: str | None = None
    prescience_by: Faction | None = None
    plans: Mapping[Faction, Plan] = field(default_factory=dict)
    revealed: bool = False
    callers: tuple[Faction, ...] = ()
    called: tuple[Faction, ...] = ()  # the side each call was for: the caller or its ally
    winner: Faction | None = None
    to_keep: tuple[str, ...] = ()
    captive: str | None = None

    @property
    def sides(self) -> tuple[Faction, Faction]:
        return self.aggressor, self.defender

    def opponent(self, faction: Faction) -> Faction:
        return self.defender if faction is self.aggressor else self.aggressor

    def to_dict(self) -> dict[str, Any]:
        return {
            "territory": self.territory,
            "sectors": list(self.sectors),
            "aggressor": self.aggressor.value,
            "defender": self.defender.value,
            "asked": sorted(self.asked),
            "voice": list(self.voice) if self.voice else None,
            "voice_by": self.voice_by.value if self.voice_by else None,
            "prescience": self.prescience,
            "prescience_by": self.prescience_by.value if self.prescience_by else None,
            "plans": {f.value: p.to_dict() for f, p in sorted(self.plans.items())},
            "revealed": self.revealed,
            "callers": [f.value for f in self.callers],
            "called": [f.value for f in self.called],
            "winner": self.winner.value if self.winner else None,
            "to_keep": list(self.to_keep),
            "captive": self.captive,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Battle:
        voice = data.get("voice")
        return cls(
            territory=str(data["territory"]),
            sectors=tuple(data["sectors"]),
            aggressor=Faction(data["aggressor"]),
            defender=Faction(data["defender"]),
            asked=frozenset(str(a) for a in data.get("asked", ())),
            voice=(str(voice[0]), str(voice[1])) if voice else None,
            voice_by=_faction(data.get("voice_by")),
            prescience=data.get("prescience"),
            prescience_by=_faction(data.get("prescience_by")),
            plans={Faction(f): Plan.from_dict(p) for f, p in data.get("plans", {}).items()},
            revealed=bool(data.get("revealed", False)),
            callers=tuple(Faction(f) for f in data.get("callers", ())),
            called=tuple(Faction(f) for f in data.get("called", ())),
            winner=_faction(data.get("winner")),
            to_keep=tuple(str(c) for c in data.get("to_keep", ())),
            captive=data.get("captive"),
        )


def _faction(value: object) -> Faction | None:
    return Faction(str(value)) if value else None


BATTLE: StatePart[Battle | None] = state_part(
    "battle",
    None,
    lambda fight: {"battle": fight.to_dict() if fight else None},
    lambda data: Battle.from_dict(data["battle"]) if data.get("battle") else None,
)
"""The battle under way (1.07); its plans secret until revealed."""
FOUGHT: StatePart[Mapping[str, str]] = state_part(
    "leaders_fought",
    MappingProxyType({}),
    lambda fought: {"leaders_fought": dict(sorted(fought.items()))},
    lambda data: {str(k): str(v) for k, v in data.get("leaders_fought", {}).items()},
)
"""Each leader that fought this phase, and where (1.07.04.03)."""


def set_battle(state: Position, battle: Battle | None) -> None:
    """The battle under way is now ``battle`` (None: none is)."""
    state.set_game(parts=BATTLE.put(state.whole.parts, battle))
