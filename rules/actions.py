"""Actions: small frozen values, one per thing a faction can do in this phase, and the
moderators' corrections (:class:`Correction`), which are actions too: everything that
changes a game is an action in its log.

Territory names are kept as the player typed them; the engine resolves them
(case and punctuation ignored) and refuses unknown ones. Sectors are the
printed numbers 1..18; ``None`` means "not given" (Polar Sink, or a
territory with a single sector).
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

from rules.errors import InvalidActionError, quote
from rules.factions import Faction
from rules.model import Ability, PromptKind, Side
from rules.suggest import did_you_mean


@dataclass(frozen=True, slots=True)
class Action:
    """Anything that changes the phase; see :class:`FactionAction` for a faction's."""

    name: ClassVar[str] = ""

    def __init_subclass__(cls) -> None:
        """Every action with a name of its own is registered by it: the log reads it back."""
        if cls.__dict__.get("name"):
            ACTION_TYPES[cls.name] = cls


ACTION_TYPES: dict[str, type[Action]] = {}
"""Every kind of action a log can hold, by its stored name: each registers itself as its
class is made (a phase's own actions in its package: ``rules`` imports every phase)."""


@dataclass(frozen=True, slots=True)
class FactionAction(Action):
    """An action taken by (or for) one faction."""

    faction: Faction


@dataclass(frozen=True, slots=True)
class Ship(FactionAction):
    """Ship forces from off-planet reserves to one territory and sector (1.06.02)."""

    name: ClassVar[str] = "ship"
    to: str
    sector: int | None
    forces: int
    special: int = 0
    karama: bool = False
    ally_pays: int = 0


@dataclass(frozen=True, slots=True)
class Send(FactionAction):
    """Fremen: send reserves for free near The Great Flat (2.04.05)."""

    name: ClassVar[str] = "send"
    to: str
    sector: int | None
    forces: int
    special: int = 0


@dataclass(frozen=True, slots=True)
class CrossShip(FactionAction):
    """Spacing Guild (or its ally): ship from one territory to another (2.06.05.01)."""

    name: ClassVar[str] = "cross_ship"
    from_: str
    from_sector: int | None
    to: str
    sector: int | None
    forces: int
    special: int = 0


@dataclass(frozen=True, slots=True)
class ShipToReserves(FactionAction):
    """Spacing Guild: ship forces from a territory back to reserves (2.06.05.02)."""

    name: ClassVar[str] = "ship_to_reserves"
    from_: str
    from_sector: int | None
    forces: int
    special: int = 0


@dataclass(frozen=True, slots=True)
class Move(FactionAction):
    """Move one group from one territory to one other, or another sector (1.06.03)."""

    name: ClassVar[str] = "move"
    from_: str
    from_sector: int | None
    to: str
    sector: int | None
    forces: int
    special: int = 0
    advisors: bool = False
    take_up_arms: bool = False


@dataclass(frozen=True, slots=True)
class Pass(FactionAction):
    """The faction to act ends its current step (1.06.00); the Bene Gesserit's pass
    also declines its advise prompt (2.02.05). It never declines any other prompt.

    ``step`` (``"shipment"`` or ``"movement"``), when given, names the step passed:
    the pass is refused when that step is already over (a repeated request).
    """

    name: ClassVar[str] = "pass"
    step: str | None = None


@dataclass(frozen=True, slots=True)
class Decline(FactionAction):
    """Say no to the open prompt of kind ``prompt`` (e.g. Karama) waiting on the faction."""

    name: ClassVar[str] = "decline"
    prompt: PromptKind


@dataclass(frozen=True, slots=True)
class PlayHajr(FactionAction):
    """Play Hajr for an extra movement action (3.01.09)."""

    name: ClassVar[str] = "hajr"


@dataclass(frozen=True, slots=True)
class KaramaCancel(FactionAction):
    """Cancel the ✷ ability another faction just used (3.01.11)."""

    name: ClassVar[str] = "karama_cancel"
    ability: Ability | None = None  # None: the only (or first) window open to it
    card: str | None = None


@dataclass(frozen=True, slots=True)
class KaramaPrevent(FactionAction):
    """Prevent a ✷…✷ ability before it is used (3.01.11)."""

    name: ClassVar[str] = "karama_prevent"
    ability: Ability
    card: str | None = None


@dataclass(frozen=True, slots=True)
class KaramaWorm(FactionAction):
    """Fremen, advanced, once a game: a Karama for a worm at the next spice blow (1.14.03)."""

    name: ClassVar[str] = "karama_worm"
    territory: str
    card: str | None = None


@dataclass(frozen=True, slots=True)
class FremenAllyWorm(FactionAction):
    """Fremen: whether the worm spares their ally from now on (2.04.10; secret until used)."""

    name: ClassVar[str] = "fremen_ally_worm"
    protect: bool


@dataclass(frozen=True, slots=True)
class Bribe(FactionAction):
    """Give spice to another faction, in front of its shield until the Mentat Pause (1.12)."""

    name: ClassVar[str] = "bribe"
    to: str
    amount: int


@dataclass(frozen=True, slots=True)
class PlayTruthtrance(FactionAction):
    """Truthtrance, at any time: ask ``target`` one yes/no question about the game, which it
    must answer truthfully (3.01.21); the question stays between the two of them."""

    name: ClassVar[str] = "truthtrance"
    target: str
    question: str


@dataclass(frozen=True, slots=True)
class AnswerTruthtrance(FactionAction):
    """The target's answer to the open Truthtrance question: "yes" or "no" ("none": no
    answer given, the deadline's default), with an optional short remark (public)."""

    name: ClassVar[str] = "truthtrance_answer"
    answer: str
    remark: str = ""


@dataclass(frozen=True, slots=True)
class KaramaStopShipment(FactionAction):
    """Spacing Guild, advanced, once a game: stop an off-planet shipment (1.14.06)."""

    name: ClassVar[str] = "karama_stop_shipment"


@dataclass(frozen=True, slots=True)
class Advise(FactionAction):
    """Bene Gesserit Spiritual Advisors (2.02.05, 2.02.11)."""

    name: ClassVar[str] = "advise"
    to: str = ""


@dataclass(frozen=True, slots=True)
class Flip(FactionAction):
    """Bene Gesserit: flip forces in a territory (INTRUSION 2.02.16, WARTIME 2.02.18)."""

    name: ClassVar[str] = "flip"
    territory: str
    to: Side


@dataclass(frozen=True, slots=True)
class GuildNow(FactionAction):
    """Spacing Guild, advanced: take the whole turn now (2.06.12.01)."""

    name: ClassVar[str] = "guild_now"


@dataclass(frozen=True, slots=True)
class GuildDelay(FactionAction):
    """Spacing Guild, advanced: delay the turn when up (2.06.12.02)."""

    name: ClassVar[str] = "guild_delay"


# -- the whole turn (set-up, storm, Nexus, charity) ---------------------------------


@dataclass(frozen=True, slots=True)
class Predict(FactionAction):
    """Set-up, Bene Gesserit: secretly predict a faction and a turn (2.02.03)."""

    name: ClassVar[str] = "predict"
    who: str
    turn: int


@dataclass(frozen=True, slots=True)
class PlaceFremen(FactionAction):
    """Set-up, Fremen: 10 forces over Sietch Tabr, False Wall South and West (2.04.02)."""

    name: ClassVar[str] = "place_fremen"
    sietch_tabr: int
    false_wall_south: int
    false_wall_west: int


@dataclass(frozen=True, slots=True)
class PlaceAdvisor(FactionAction):
    """Set-up, advanced Bene Gesserit: one advisor anywhere, after the Fremen (2.02.08)."""

    name: ClassVar[str] = "place_advisor"
    to: str
    sector: int | None = None


@dataclass(frozen=True, slots=True)
class Ally(FactionAction):
    """Nexus: ask (or agree) to ally with another faction (1.10.01)."""

    name: ClassVar[str] = "ally"
    with_: str


@dataclass(frozen=True, slots=True)
class BreakAlliance(FactionAction):
    """Nexus: leave one's alliance (1.10.01.05)."""

    name: ClassVar[str] = "break_alliance"


@dataclass(frozen=True, slots=True)
class PlaceWorm(FactionAction):
    """Advanced Fremen: place a later worm of the blow in a sand territory (2.04.15)."""

    name: ClassVar[str] = "place_worm"
    territory: str


@dataclass(frozen=True, slots=True)
class RideWorm(FactionAction):
    """Fremen, after the Nexus: ride the worm from its territory to another (2.04.08)."""

    name: ClassVar[str] = "ride_worm"
    to: str
    sector: int | None = None


# -- any time: the Emperor's gift, the Tleilaxu Ghola (2.03.06, 3.01.20) ---------------------


@dataclass(frozen=True, slots=True)
class GiveSpice(FactionAction):
    """Emperor: give spice to its ally at any time; it becomes the ally's (2.03.06)."""

    name: ClassVar[str] = "give_spice"
    amount: int


@dataclass(frozen=True, slots=True)
class PlayGhola(FactionAction):
    """Tleilaxu Ghola, at any time: revive one leader whatever the conditions, or up to 5
    forces, free; the faction's normal revival still happens (3.01.20)."""

    name: ClassVar[str] = "ghola"
    forces: int = 0
    special: int = 0
    leader: str | None = None


# -- the Battle phase, run by the engine (1.07; rules.battle) ---------------------------


# -- the moderator's records: corrections of the phases the engine runs ------------------


@dataclass(frozen=True, slots=True)
class Record(FactionAction):
    """A moderator's record of what a faction did, a correction of the Bidding, Revival or
    Battle phase (which the engine runs). Never a faction's own action: ``legal_actions``
    leaves it out."""


@dataclass(frozen=True, slots=True)
class RecordCardWon(Record):
    """Bidding: the faction won the next card of the deck for ``price`` (1.04.06.02)."""

    name: ClassVar[str] = "record_card"
    price: int
    ally_pays: int = 0  # the part of the price the faction's ally paid (1.10.02.04)


@dataclass(frozen=True, slots=True)
class RecordGhola(Record):
    """Revival: the faction played Tleilaxu Ghola: up to 5 forces or 1 leader, free (3.01.20)."""

    name: ClassVar[str] = "record_ghola"
    forces: int = 0
    special: int = 0
    leader: str | None = None


@dataclass(frozen=True, slots=True)
class RecordLosses(Record):
    """Battle: forces the faction lost in one sector, to the tanks (1.07.06)."""

    name: ClassVar[str] = "record_losses"
    territory: str
    sector: int | None
    forces: int
    special: int = 0
    advisors: int = 0


@dataclass(frozen=True, slots=True)
class RecordLeaderKilled(Record):
    """Battle: a leader of the faction died, to the tanks (1.07.06)."""

    name: ClassVar[str] = "record_leader_killed"
    leader: str


@dataclass(frozen=True, slots=True)
class RecordDiscard(Record):
    """Battle: the faction discarded a card it played (1.07.06)."""

    name: ClassVar[str] = "record_discard"
    card: str


@dataclass(frozen=True, slots=True)
class RecordPayment(Record):
    """Battle: the faction paid spice to the bank or to another faction (``to``)."""

    name: ClassVar[str] = "record_payment"
    amount: int
    to: str | None = None


@dataclass(frozen=True, slots=True)
class RecordIncome(Record):
    """Battle: the faction received spice from the bank (killed leaders, 1.07.06.02)."""

    name: ClassVar[str] = "record_income"
    amount: int


@dataclass(frozen=True, slots=True)
class PhaseDone(Action):
    """The moderator ends the Bidding, Revival or Battle phase early: the game moves on."""

    name: ClassVar[str] = "phase_done"


@dataclass(frozen=True, slots=True)
class ClosePrompts(Action):
    """The flow moves on: decline every prompt still open (deadline, moderator)."""

    name: ClassVar[str] = "close_prompts"


# -- moderators' corrections (rules.corrections) ------------------------------------


@dataclass(frozen=True, slots=True)
class Correction(Action):
    """A moderator's correction of the position: an action in the log like any other, so
    undo and redo step over it. Not a faction's action: never subject to turn order or
    prompts, and it leaves the phase where it is."""


@dataclass(frozen=True, slots=True)
class SetStorm(Correction):
    """Put the storm in sector ``sector`` (1..18)."""

    name: ClassVar[str] = "set_storm"
    sector: int


@dataclass(frozen=True, slots=True)
class PlaceForces(Correction):
    """Put forces from ``faction``'s reserves on the board."""

    name: ClassVar[str] = "place_forces"
    faction: Faction
    territory: str
    sector: int | None
    forces: int
    special: int = 0


@dataclass(frozen=True, slots=True)
class RemoveForces(Correction):
    """Take forces off the board, back to reserves or to the Tleilaxu Tanks."""

    name: ClassVar[str] = "remove_forces"
    faction: Faction
    territory: str
    sector: int | None
    forces: int
    special: int = 0
    to_tanks: bool = False


@dataclass(frozen=True, slots=True)
class SetSpice(Correction):
    """Set the spice behind ``faction``'s shield to ``amount``."""

    name: ClassVar[str] = "set_spice"
    faction: Faction
    amount: int


@dataclass(frozen=True, slots=True)
class GiveCard(Correction):
    """Give ``faction`` the treachery card ``card``."""

    name: ClassVar[str] = "give_card"
    faction: Faction
    card: str


@dataclass(frozen=True, slots=True)
class TakeCard(Correction):
    """Take the treachery card ``card`` from ``faction``'s hand."""

    name: ClassVar[str] = "take_card"
    faction: Faction
    card: str


_KEY_ALIASES = {"from_": "from", "with_": "with"}
Word = Ability | PromptKind | Side
_ENUMS: dict[str, type[Word]] = {"Ability": Ability, "PromptKind": PromptKind, "Side": Side}
_ENUM_RULES: dict[type[Word], str] = {Ability: "3.01.11"}  # abilities are named to a Karama
_ENUM_MEMBERS: dict[type[Word], dict[str, Word]] = {
    kind: {m.value: m for m in kind} for kind in (Ability, PromptKind, Side)
}
_FACTIONS = {f.value: f for f in Faction}
_RULE_FOR_PARSE = "1.06.00"


@dataclass(frozen=True, slots=True)
class _Field:
    """How ``from_dict`` reads one field of an action: read once per kind of action."""

    name: str
    key: str  # its name in the scenario format ("from" for ``from_``)
    kind: str  # its type's first word, e.g. "int" for ``int | None``
    words: type[Word] | None  # the enum its value names, if any
    has_default: bool
    may_be_none: bool


@functools.cache
def _fields_named(name: str) -> tuple[_Field, ...]:
    """The fields of the action called ``name``, read once."""
    return _fields_of(ACTION_TYPES[name])


def _fields_of(cls: type[Action]) -> tuple[_Field, ...]:
    return tuple(
        _Field(
            name=f.name,
            key=_KEY_ALIASES.get(f.name, f.name),
            kind=str(f.type).split(" ")[0],
            words=_ENUMS.get(str(f.type).split(" ")[0]),
            has_default=f.default is not MISSING,
            may_be_none="None" in str(f.type),
        )
        for f in fields(cls)
    )


def action_to_dict(action: Action) -> dict[str, Any]:
    """The scenario-format dict of ``action`` (``from_dict`` reads it back)."""
    out: dict[str, Any] = {"action": action.name}
    for f in fields(action):
        value = getattr(action, f.name)
        plain = value.value if isinstance(value, enum.Enum) else value
        out[_KEY_ALIASES.get(f.name, f.name)] = plain
    return out


def action_keys(name: str) -> tuple[str, ...]:
    """The keys an action called ``name`` is written with; () for an unknown name."""
    cls = ACTION_TYPES.get(name)
    return ("action", *(f.key for f in _fields_named(name))) if cls else ()


def action_from_dict(data: Mapping[str, Any]) -> Action:
    """Parse one scenario-format action.

    Raises :class:`InvalidActionError` for an unknown action name or faction,
    a missing field, or a field of the wrong type.
    """
    if not isinstance(data, Mapping):
        raise InvalidActionError(
            f"an action must be an object, not {quote(data)}", rule=_RULE_FOR_PARSE
        )
    name = data.get("action")
    known = ACTION_TYPES
    cls = known.get(str(name)) if name is not None else None
    if cls is None:
        hint = did_you_mean(str(name), sorted(known))
        raise InvalidActionError(f"unknown action {quote(name)} ({hint})", rule=_RULE_FOR_PARSE)
    kwargs: dict[str, Any] = {}
    for f in _fields_named(cls.name):
        if f.name == "faction":
            kwargs["faction"] = _faction(cls.name, data.get("faction"))
            continue
        value = data.get(f.key)
        if value is not None:
            kwargs[f.name] = _coerce(cls.name, f, value)
        elif f.has_default:
            continue
        elif f.may_be_none:
            kwargs[f.name] = None
        else:
            raise InvalidActionError(f"{cls.name!r} needs {f.key!r}", rule=_RULE_FOR_PARSE)
    return cls(**kwargs)


def _faction(action: str, value: object) -> Faction:
    faction = _FACTIONS.get(value) if isinstance(value, str) else None  # as a log writes it
    if faction is None:
        faction = Faction.parse(str(value if value is not None else ""))
    if faction is None:
        raise InvalidActionError(
            f"unknown faction {quote(value)} in {action!r} action", rule=_RULE_FOR_PARSE
        )
    return faction


def _coerce(action: str, field: _Field, value: object) -> object:
    key, kind = field.key, field.kind
    if field.words is not None:
        return _coerce_enum(action, key, value, field.words)
    if kind.startswith("bool"):
        if isinstance(value, bool):
            return value
    elif kind.startswith("float"):
        if isinstance(value, int | float) and not isinstance(value, bool):
            return value
    elif kind.startswith("tuple[str"):
        if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
            return tuple(value)
    elif kind.startswith("int"):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif isinstance(value, str):
        return value
    raise InvalidActionError(
        f"{action!r}: {key!r} cannot be {quote(value)} (expected {kind})",
        rule=_RULE_FOR_PARSE,
    )


def _coerce_enum(action: str, key: str, value: object, enum: type[Word]) -> object:
    member = _ENUM_MEMBERS[enum].get(value) if isinstance(value, str) else None
    if member is not None:
        return member
    choices = [m.value for m in enum]
    raise InvalidActionError(
        f"{action!r}: {key!r} cannot be {quote(value)} (expected one of: {', '.join(choices)})",
        rule=_ENUM_RULES.get(enum, _RULE_FOR_PARSE),
    )
