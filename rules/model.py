"""Immutable values that make up a game position.

Everything here is a frozen, hashable value with ``to_dict``/``from_dict``
so that a position can be stored, compared and restored exactly.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.errors import quote
from rules.factions import Faction
from rules.game_model import TurnState
from rules.variants import (
    SWITCHES,
    AllyBattleSpice,
    BgCharity,
    CollectionRate,
    EllacaDrug,
    FirstStorm,
    FremenStormMovement,
    GuildAllyPays,
    KaramaBid,
    LastTurnTie,
    StormStartSector,
    VariantError,
    VoicePrescience,
    allowed,
    parse_switch,
    stored,
)

JSON = dict[str, Any]


@dataclass(frozen=True, slots=True)
class FactionState:
    """What a faction holds off the board. Spice and cards are private."""

    spice: int = 0
    reserves: int = 0
    special_reserves: int = 0
    tanks: int = 0
    special_tanks: int = 0
    cards: tuple[str, ...] = ()

    def to_dict(self) -> JSON:
        return {
            "spice": self.spice,
            "reserves": self.reserves,
            "special_reserves": self.special_reserves,
            "tanks": self.tanks,
            "special_tanks": self.special_tanks,
            "cards": list(self.cards),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FactionState:
        return cls(
            spice=int(data.get("spice", 0)),
            reserves=int(data.get("reserves", 0)),
            special_reserves=int(data.get("special_reserves", 0)),
            tanks=int(data.get("tanks", 0)),
            special_tanks=int(data.get("special_tanks", 0)),
            cards=tuple(str(c) for c in data.get("cards", ())),
        )

    def forces_off_board(self) -> int:
        return self.reserves + self.special_reserves + self.tanks + self.special_tanks


@dataclass(frozen=True, slots=True)
class Stack:
    """One faction's tokens in one sector of one territory."""

    forces: int = 0  # regular fighters
    special: int = 0  # starred fighters (Sardaukar, Fedaykin)
    advisors: int = 0  # Bene Gesserit advisors

    @property
    def fighters(self) -> int:
        return self.forces + self.special

    @property
    def total(self) -> int:
        return self.forces + self.special + self.advisors

    def __add__(self, other: Stack) -> Stack:
        return Stack(
            self.forces + other.forces,
            self.special + other.special,
            self.advisors + other.advisors,
        )

    def __sub__(self, other: Stack) -> Stack:
        return Stack(
            self.forces - other.forces,
            self.special - other.special,
            self.advisors - other.advisors,
        )

    def covers(self, other: Stack) -> bool:
        return (
            self.forces >= other.forces
            and self.special >= other.special
            and self.advisors >= other.advisors
        )


StackKey = tuple[Faction, str, int | None]
"""(faction, territory, printed sector or None for the Polar Sink)."""


def stack_order(item: tuple[StackKey, object]) -> tuple[str, str, int]:
    """The sort key of a (key, stack) item: by faction, territory, then sector."""
    (faction, territory, sector), _ = item
    return (faction.value, territory, sector or 0)


class Step(enum.StrEnum):
    SHIP = "ship"
    MOVE = "move"


class Ability(enum.StrEnum):
    """Faction abilities marked with ✷ that a Karama card may cancel or prevent."""

    FREMEN_MOVEMENT = "fremen_movement"  # 2.04.06
    STORM_MIGRATION = "storm_migration"  # 2.04.17
    GUILD_PAYMENT = "guild_payment"  # 2.06.04
    CROSS_SHIP = "cross_ship"  # 2.06.05.01
    OFF_PLANET = "off_planet"  # 2.06.05.02
    HALF_PRICE = "half_price"  # 2.06.06
    ALLY_HALF_PRICE = "ally_half_price"  # 2.06.09
    ALLY_CROSS_SHIP = "ally_cross_ship"  # 2.06.10
    SHIP_AS_IT_PLEASES_YOU = "ship_as_it_pleases_you"  # 2.06.12
    SPIRITUAL_ADVISORS = "spiritual_advisors"  # 2.02.05
    INTRUSION = "intrusion"  # 2.02.16
    TAKE_UP_ARMS = "take_up_arms"  # 2.02.17
    WARTIME = "wartime"  # 2.02.18
    BG_KARAMA = "bg_karama"  # 2.02.23: a worthless card played as a Karama
    # the whole turn's ✷ abilities (prevented ahead of their next use, rules.karama_turn)
    STORM_COMING = "storm_coming"  # 2.04.14: the Fremen see the next storm card
    STORM_LOSSES = "storm_losses"  # 2.04.16: the Fremen lose half to the storm
    SHAI_HULUD = "shai_hulud"  # 2.04.07: Fremen forces are never devoured
    ALLY_WORM = "ally_worm"  # 2.04.10: the Fremen spare their ally from the worm
    SANDWORMS = "sandworms"  # 2.04.15: the Fremen place the later worms of a blow
    BG_CHARITY = "bg_charity"  # 2.02.09: the Bene Gesserit always receive 2
    # the Battle phase's ✷ abilities (prevented ahead, rules.karama_turn; rules.battle)
    PRESCIENCE = "prescience"  # 2.01.08 (2.01.09: in the ally's battle too)
    VOICE = "voice"  # 2.02.06 (2.02.07: in the ally's battle too)
    SARDAUKAR = "sardaukar"  # 2.03.08: Sardaukar count 2
    FEDAYKIN = "fedaykin"  # 2.04.18: Fedaykin count 2
    BATTLE_HARDENED = "battle_hardened"  # 2.04.21: Fremen need no spice
    CAPTURE = "capture"  # 2.05.10: the Harkonnen capture or kill a leader
    # the Bidding and Revival phases' ✷ abilities (prevented ahead, rules.karama_turn)
    ATREIDES_BIDDING = "atreides_bidding"  # 2.01.05: the Atreides see each card on offer
    EMPEROR_PAYMENT = "emperor_payment"  # 2.03.04: spice paid for cards goes to the Emperor
    TOP_CARD = "top_card"  # 2.05.08: the Harkonnen draw a free card with each purchase
    ALLY_REVIVAL = "ally_revival"  # 2.03.07: the Emperor pays for its ally's extra forces
    FREMEN_ALLY_REVIVAL = "fremen_ally_revival"  # 2.04.11: the Fremen's ally revives 3 free

    @property
    def rule(self) -> str:
        return ABILITY_RULES[self]

    @property
    def label(self) -> str:
        """The ability in a refusal's words ("cross ship", "Ship As It Pleases You")."""
        if self is Ability.SHIP_AS_IT_PLEASES_YOU:
            return "Ship As It Pleases You"
        return self.value.replace("_", " ")

    @property
    def owner(self) -> Faction:
        return ABILITY_OWNERS[self]


ABILITY_RULES = {
    Ability.FREMEN_MOVEMENT: "2.04.06",
    Ability.STORM_MIGRATION: "2.04.17",
    Ability.GUILD_PAYMENT: "2.06.04",
    Ability.CROSS_SHIP: "2.06.05.01",
    Ability.OFF_PLANET: "2.06.05.02",
    Ability.HALF_PRICE: "2.06.06",
    Ability.ALLY_HALF_PRICE: "2.06.09",
    Ability.ALLY_CROSS_SHIP: "2.06.10",
    Ability.SHIP_AS_IT_PLEASES_YOU: "2.06.12",
    Ability.SPIRITUAL_ADVISORS: "2.02.05",
    Ability.INTRUSION: "2.02.16",
    Ability.TAKE_UP_ARMS: "2.02.17",
    Ability.WARTIME: "2.02.18",
    Ability.BG_KARAMA: "2.02.23",
    Ability.STORM_COMING: "2.04.14",
    Ability.STORM_LOSSES: "2.04.16",
    Ability.SHAI_HULUD: "2.04.07",
    Ability.ALLY_WORM: "2.04.10",
    Ability.SANDWORMS: "2.04.15",
    Ability.BG_CHARITY: "2.02.09",
    Ability.PRESCIENCE: "2.01.08",
    Ability.VOICE: "2.02.06",
    Ability.SARDAUKAR: "2.03.08",
    Ability.FEDAYKIN: "2.04.18",
    Ability.BATTLE_HARDENED: "2.04.21",
    Ability.CAPTURE: "2.05.10",
    Ability.ATREIDES_BIDDING: "2.01.05",
    Ability.EMPEROR_PAYMENT: "2.03.04",
    Ability.TOP_CARD: "2.05.08",
    Ability.ALLY_REVIVAL: "2.03.07",
    Ability.FREMEN_ALLY_REVIVAL: "2.04.11",
}

STOPPED_AHEAD = frozenset(
    {
        Ability.STORM_COMING,
        Ability.STORM_LOSSES,
        Ability.SHAI_HULUD,
        Ability.ALLY_WORM,
        Ability.SANDWORMS,
        Ability.BG_CHARITY,
        # the Battle phase's: played before the plans are revealed
        Ability.PRESCIENCE,
        Ability.VOICE,
        Ability.SARDAUKAR,
        Ability.FEDAYKIN,
        Ability.BATTLE_HARDENED,
        Ability.CAPTURE,
        # the Bidding phase's and the Revival phase's
        Ability.ATREIDES_BIDDING,
        Ability.EMPEROR_PAYMENT,
        Ability.TOP_CARD,
        Ability.ALLY_REVIVAL,
        Ability.FREMEN_ALLY_REVIVAL,
    }
)
"""The whole turn's ✷ abilities, which a Karama stops ahead of their next use
(:mod:`rules.karama_turn`); the others it cancels as they are used."""
ADVANCED_ABILITIES = frozenset(
    {
        Ability.STORM_COMING,
        Ability.STORM_LOSSES,
        Ability.SANDWORMS,
        Ability.SARDAUKAR,
        Ability.FEDAYKIN,
        Ability.BATTLE_HARDENED,
        Ability.CAPTURE,
    }
)
"""The abilities of the advanced game only (a Karama cannot stop what a basic game lacks)."""

_RULE_OWNERS = {
    "2.01": Faction.ATREIDES,
    "2.03": Faction.EMPEROR,
    "2.04": Faction.FREMEN,
    "2.05": Faction.HARKONNEN,
    "2.06": Faction.SPACING_GUILD,
}
ABILITY_OWNERS = {
    a: _RULE_OWNERS.get(r[:4], Faction.BENE_GESSERIT) for a, r in ABILITY_RULES.items()
}


class PromptKind(enum.StrEnum):
    KARAMA = "karama"  # a window to cancel a ✷ ability just used
    ADVISE = "advise"  # BG Spiritual Advisors after an off-planet shipment
    INTRUSION = "intrusion"  # BG may flip fighters to advisors
    WARTIME = "wartime"  # BG may flip advisors to fighters at phase start
    GUILD_TIMING = "guild_timing"  # the Guild may take its turn now
    GUILD_STOP = "guild_stop"  # the Guild's once-a-game Karama: stop a shipment


class Side(enum.StrEnum):
    """The side a Bene Gesserit token shows (2.02.11)."""

    FIGHTERS = "fighters"
    ADVISORS = "advisors"


@dataclass(frozen=True, slots=True)
class BlockedAbility:
    """A ✷ ability a Karama stopped for the rest of the phase (in one territory, if given)."""

    ability: Ability
    territory: str | None = None

    def to_str(self) -> str:
        """The stored form, e.g. ``"wartime:Arrakeen"``."""
        return f"{self.ability.value}:{self.territory}" if self.territory else self.ability.value

    @classmethod
    def from_str(cls, text: str) -> BlockedAbility:
        ability, _, territory = text.partition(":")
        return cls(Ability(ability), territory or None)


PROMPT_RULES = {
    PromptKind.KARAMA: "3.01.11",
    PromptKind.ADVISE: "2.02.05",
    PromptKind.INTRUSION: "2.02.16",
    PromptKind.WARTIME: "2.02.18",
    PromptKind.GUILD_TIMING: "2.06.12",
    PromptKind.GUILD_STOP: "1.14.06",
}


@dataclass(frozen=True, slots=True)
class Prompt:
    """A question the engine is waiting on besides the faction to act.

    ``responders`` may answer; a prompt closes when answered, when every
    responder has declined, or when the flow moves on. ``subject`` is the
    faction whose action opened it.
    """

    kind: PromptKind
    responders: tuple[Faction, ...]
    subject: Faction | None = None
    ability: Ability | None = None
    territory: str | None = None
    sector: int | None = None
    declined: frozenset[Faction] = frozenset()
    # For a Karama window: the position before the ability was used, and the
    # action to re-apply when the cancel lets the rest of it stand.
    before: Snapshot | None = None
    redo: JSON | None = None

    def waiting_on(self) -> tuple[Faction, ...]:
        return tuple(f for f in self.responders if f not in self.declined)

    @property
    def rule(self) -> str:
        """The rule that opens this prompt (a Karama window: the ability's rule)."""
        if self.kind is PromptKind.KARAMA and self.ability is not None:
            return self.ability.rule
        return PROMPT_RULES[self.kind]

    def to_dict(self) -> JSON:
        return {
            "kind": self.kind.value,
            "responders": [f.value for f in self.responders],
            "subject": self.subject.value if self.subject else None,
            "ability": self.ability.value if self.ability else None,
            "territory": self.territory,
            "sector": self.sector,
            "declined": sorted(f.value for f in self.declined),
            "before": self.before.to_dict() if self.before else None,
            "redo": self.redo,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Prompt:
        return cls(
            kind=PromptKind(data["kind"]),
            responders=tuple(Faction(f) for f in data["responders"]),
            subject=Faction(data["subject"]) if data.get("subject") else None,
            ability=Ability(data["ability"]) if data.get("ability") else None,
            territory=data.get("territory"),
            sector=data.get("sector"),
            declined=frozenset(Faction(f) for f in data.get("declined", ())),
            before=Snapshot.from_dict(data["before"]) if data.get("before") else None,
            redo=data.get("redo"),
        )


@dataclass(frozen=True, slots=True)
class Turn:
    """The turn of the faction now shipping and moving."""

    faction: Faction
    step: Step = Step.SHIP
    moves_made: int = 0
    hajr_played: int = 0
    ornithopters_at_start: bool = False
    disabled: frozenset[Ability] = frozenset()  # cancelled by Karama for the retake

    @property
    def moves_allowed(self) -> int:
        return 1 + self.hajr_played

    @property
    def untouched(self) -> bool:
        """True before the faction has done anything in this turn."""
        return self.step is Step.SHIP and self.moves_made == 0 and self.hajr_played == 0

    def to_dict(self) -> JSON:
        return {
            "faction": self.faction.value,
            "step": self.step.value,
            "moves_made": self.moves_made,
            "hajr_played": self.hajr_played,
            "ornithopters_at_start": self.ornithopters_at_start,
            "disabled": sorted(a.value for a in self.disabled),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Turn:
        return cls(
            faction=Faction(data["faction"]),
            step=Step(data["step"]),
            moves_made=int(data["moves_made"]),
            hajr_played=int(data["hajr_played"]),
            ornithopters_at_start=bool(data["ornithopters_at_start"]),
            disabled=frozenset(Ability(a) for a in data["disabled"]),
        )


@dataclass(frozen=True, slots=True)
class Phase:
    """Where the Shipment & Movement phase stands."""

    order: tuple[Faction, ...]  # storm order, first player first
    done: frozenset[Faction] = frozenset()
    turn: Turn | None = None
    stages: tuple[tuple[Prompt, ...], ...] = ()  # open prompts first
    started: bool = False
    complete: bool = False
    guild_delayed: bool = False
    guild_timing_blocked: bool = False
    guild_karama_used: bool = False
    karama_blocked: frozenset[BlockedAbility] = frozenset()

    @property
    def open_prompts(self) -> tuple[Prompt, ...]:
        return self.stages[0] if self.stages else ()

    def to_dict(self) -> JSON:
        return {
            "order": [f.value for f in self.order],
            "done": sorted(f.value for f in self.done),
            "turn": self.turn.to_dict() if self.turn else None,
            "stages": [[p.to_dict() for p in stage] for stage in self.stages],
            "started": self.started,
            "complete": self.complete,
            "guild_delayed": self.guild_delayed,
            "guild_timing_blocked": self.guild_timing_blocked,
            "guild_karama_used": self.guild_karama_used,
            "karama_blocked": sorted(b.to_str() for b in self.karama_blocked),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Phase:
        return cls(
            order=tuple(Faction(f) for f in data["order"]),
            done=frozenset(Faction(f) for f in data["done"]),
            turn=Turn.from_dict(data["turn"]) if data.get("turn") else None,
            stages=tuple(
                tuple(Prompt.from_dict(p) for p in stage) for stage in data.get("stages", ())
            ),
            started=bool(data.get("started", False)),
            complete=bool(data.get("complete", False)),
            guild_delayed=bool(data.get("guild_delayed", False)),
            guild_timing_blocked=bool(data.get("guild_timing_blocked", False)),
            guild_karama_used=bool(data.get("guild_karama_used", False)),
            karama_blocked=frozenset(
                BlockedAbility.from_str(str(b)) for b in data.get("karama_blocked", ())
            ),
        )


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Every part of a position that actions change.

    ``storm_sector`` moves in the Storm Phase or by a moderator's correction; None (a
    snapshot stored before either) leaves the storm where it is on restore.
    """

    factions: tuple[tuple[Faction, FactionState], ...]
    stacks: tuple[tuple[StackKey, Stack], ...]
    spice_bank: int
    phase: Phase
    # The whole game (None for a Shipment & Movement phase on its own), and what
    # its phases change besides: the storm, the spice on the board, alliances.
    game: TurnState | None = None
    storm_sector: int | None = None
    board_spice: tuple[tuple[tuple[str, int | None], int], ...] | None = None
    alliances: frozenset[frozenset[Faction]] | None = None

    def to_dict(self) -> JSON:
        out: JSON = {
            "factions": {f.value: s.to_dict() for f, s in self.factions},
            "stacks": [stack_to_dict(k, v) for k, v in self.stacks],
            "spice_bank": self.spice_bank,
            "phase": self.phase.to_dict(),
        }
        if self.game is not None:
            out["game"] = self.game.to_dict()
        if self.storm_sector is not None:
            out["storm_sector"] = self.storm_sector
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Snapshot:
        return cls(
            factions=tuple(
                (Faction(f), FactionState.from_dict(s)) for f, s in data["factions"].items()
            ),
            stacks=tuple(stack_from_dict(d) for d in data["stacks"]),
            spice_bank=int(data["spice_bank"]),
            phase=Phase.from_dict(data["phase"]),
            game=TurnState.from_dict(data["game"]) if data.get("game") else None,
            storm_sector=int(data["storm_sector"]) if "storm_sector" in data else None,
        )


def stack_to_dict(key: StackKey, stack: Stack) -> JSON:
    faction, territory, sector = key
    return {
        "faction": faction.value,
        "territory": territory,
        "sector": sector,
        "forces": stack.forces,
        "special": stack.special,
        "advisors": stack.advisors,
    }


def stack_from_dict(data: Mapping[str, Any]) -> tuple[StackKey, Stack]:
    key = (Faction(data["faction"]), str(data["territory"]), data.get("sector"))
    return key, Stack(int(data["forces"]), int(data["special"]), int(data["advisors"]))


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Basic or advanced game, and the per-game variant switches (INTERPRETATIONS.md).

    Each switch is a bool or an enum of :mod:`rules.variants`; one given as its stored
    string is read as its enum, and a value the switch does not have raises
    :class:`rules.variants.VariantError` (naming the switch, the value and the allowed
    values)."""

    advanced: bool = True
    ornithopters_from_shipment: bool = True
    fremen_storm_movement: FremenStormMovement = FremenStormMovement.BLOCKED
    guild_ally_pays: GuildAllyPays = GuildAllyPays.GUILD
    guild_ally_ship_to_reserves: bool = False
    first_storm: FirstStorm = FirstStorm.FINAL  # D2
    storm_start_sector: StormStartSector = StormStartSector.SPARED  # D1
    bg_charity: BgCharity = BgCharity.ADVANCED  # D10
    collection_rate: CollectionRate = CollectionRate.OCCUPY  # D6
    last_turn_tie: LastTurnTie = LastTurnTie.ALL  # D5
    # -- the Battle phase's switches (rules.battle, docs/whole-turn-readings.md) --
    battles_under_storm: bool = True  # D3: forces in one storm sector fight (1.07.01.01)
    voice_prescience: VoicePrescience = VoicePrescience.VOICE_FIRST  # D15
    ally_battle_spice: AllyBattleSpice = AllyBattleSpice.NO  # D13
    ellaca_drug: EllacaDrug = EllacaDrug.SNOOPER  # D17
    bid_pass_final: bool = False  # 1.04.06 (old FAQ Q4): a pass on a card is final
    karama_bid: KaramaBid = KaramaBid.FREE  # D11
    variants_given: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.advanced, bool):
            raise VariantError("advanced", f"expected true or false, got {quote(self.advanced)}")
        for switch in SWITCHES:
            object.__setattr__(self, switch, parse_switch(switch, getattr(self, switch)))

    @classmethod
    def parse(cls, advanced: object, variants: Mapping[str, object]) -> RuleSet:
        """The rules of a new game: ``advanced`` and the switches given (by name, stored
        strings or typed values); raises :class:`rules.variants.VariantError`."""
        for switch in variants:
            if switch not in SWITCHES:
                parse_switch(switch, variants[switch])  # raises: an unknown variant
        return cls(advanced, **variants)  # type: ignore[arg-type]

    def to_dict(self) -> JSON:
        """The rules as stored; the whole-turn switches only where they are not the default
        (a Shipment & Movement phase is stored as before they existed)."""
        turn_switches = {
            key: stored(getattr(self, key))
            for key in WHOLE_TURN_VARIANTS
            if stored(getattr(self, key)) != VARIANT_CHOICES[key][0]
        }
        return {
            "advanced": self.advanced,
            "variants": {
                "ornithopters_from_shipment": self.ornithopters_from_shipment,
                "fremen_storm_movement": self.fremen_storm_movement.value,
                "guild_ally_pays": self.guild_ally_pays.value,
                "guild_ally_ship_to_reserves": self.guild_ally_ship_to_reserves,
                **turn_switches,
            },
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        return cls.parse(data.get("advanced", True), dict(data.get("variants") or {}))


VARIANT_CHOICES: dict[str, tuple[object, ...]] = {
    **{switch: allowed(switch) for switch in SWITCHES},
    "ornithopters_from_shipment": (True, False),
    "guild_ally_ship_to_reserves": (True, False),
    "battles_under_storm": (True, False),
    "bid_pass_final": (False, True),
}
"""Each variant switch and its values as stored, the default first for the whole-turn ones."""
WHOLE_TURN_VARIANTS = (
    "first_storm",
    "storm_start_sector",
    "bg_charity",
    "collection_rate",
    "last_turn_tie",
    "battles_under_storm",
    "voice_prescience",
    "ally_battle_spice",
    "ellaca_drug",
    "bid_pass_final",
    "karama_bid",
)
