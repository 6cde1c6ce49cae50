"""The variant switches of a game (INTERPRETATIONS.md, docs/whole-turn-readings.md): each
one a bool or an enum whose values are the strings a stored game or a scenario file holds,
and the one place a switch's value is checked (:func:`parse_switch`).
"""

from __future__ import annotations

import enum

from rules.errors import MentatError, quote


class FremenStormMovement(enum.Enum):
    """The Fremen through the storm (2.04.11, INTERPRETATIONS.md)."""

    BLOCKED = "blocked"
    FREE = "free"
    HALF_LOSS = "half_loss"


class GuildAllyPays(enum.Enum):
    """Where the Guild's ally's shipment payment goes (1.10.02.05)."""

    GUILD = "guild"
    BANK = "bank"


class FirstStorm(enum.Enum):
    """D2: what the first storm destroys on turn 1."""

    FINAL = "final"
    PATH = "path"
    NONE = "none"


class StormStartSector(enum.Enum):
    """D1: whether the storm's start sector is hit."""

    SPARED = "spared"
    HIT = "hit"


class BgCharity(enum.Enum):
    """D10: when the Bene Gesserit always receive CHOAM charity."""

    ADVANCED = "advanced"
    ALWAYS = "always"


class CollectionRate(enum.Enum):
    """D6: the higher collection rate of a city: by occupying it or controlling it."""

    OCCUPY = "occupy"
    CONTROL = "control"


class LastTurnTie(enum.Enum):
    """D5: at the last turn's end, a tie: all win, or the first in storm order."""

    ALL = "all"
    STORM_ORDER = "storm_order"


class VoicePrescience(enum.Enum):
    """D15: the Voice before the Prescience, or both together."""

    VOICE_FIRST = "voice_first"
    TOGETHER = "together"


class AllyBattleSpice(enum.Enum):
    """D13: whether an ally may pay the spice dialed in a battle."""

    NO = "no"
    YES = "yes"


class EllacaDrug(enum.Enum):
    """D17: what defends against the Ellaca Drug: a snooper (poison defense) or a shield."""

    SNOOPER = "snooper"
    SHIELD = "shield"


class KaramaBid(enum.Enum):
    """D11: a card bought with a Karama: free, or paid at the bid."""

    FREE = "free"
    PAY = "pay"


Switch = bool | enum.Enum

SWITCHES: dict[str, type[enum.Enum] | type[bool]] = {
    "ornithopters_from_shipment": bool,
    "fremen_storm_movement": FremenStormMovement,
    "guild_ally_pays": GuildAllyPays,
    "guild_ally_ship_to_reserves": bool,
    "first_storm": FirstStorm,
    "storm_start_sector": StormStartSector,
    "bg_charity": BgCharity,
    "collection_rate": CollectionRate,
    "last_turn_tie": LastTurnTie,
    "battles_under_storm": bool,
    "voice_prescience": VoicePrescience,
    "ally_battle_spice": AllyBattleSpice,
    "ellaca_drug": EllacaDrug,
    "bid_pass_final": bool,
    "karama_bid": KaramaBid,
}
"""Each variant switch and its type."""


class VariantError(MentatError, ValueError):
    """A variant switch that does not exist, or a value it does not have."""

    def __init__(self, switch: str, detail: str) -> None:
        super().__init__(f"{switch}: {detail}")
        self.switch = switch
        self.detail = detail


def allowed(switch: str) -> tuple[object, ...]:
    """The values ``switch`` takes, as stored (strings or bools)."""
    kind = SWITCHES[switch]
    if kind is bool:
        return (True, False)
    assert issubclass(kind, enum.Enum)
    return tuple(member.value for member in kind)


def parse_switch(switch: str, value: object) -> Switch:
    """``value`` (stored string, enum member or bool) as the switch's typed value; raises
    :class:`VariantError` naming the switch, the value and the allowed values."""
    kind = SWITCHES.get(switch)
    if kind is None:
        raise VariantError(switch, f"unknown variant (known: {', '.join(SWITCHES)})")
    if kind is bool:
        if isinstance(value, bool):
            return value
    elif isinstance(value, kind):
        assert isinstance(value, enum.Enum)
        return value
    elif isinstance(value, str) and value in allowed(switch):
        assert issubclass(kind, enum.Enum)
        return kind(value)
    raise VariantError(switch, f"{quote(value)} is not one of {list(allowed(switch))}")


def stored(value: Switch) -> object:
    """A switch's value as stored: its string (an enum) or the bool."""
    return value.value if isinstance(value, enum.Enum) else value
