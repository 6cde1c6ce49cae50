"""The Revival phase's numbers and rules (1.05), its one step, and where a game is in it."""

from __future__ import annotations

from enum import StrEnum

from rules.components import limits
from rules.factions import Faction
from rules.game_model import GamePhase
from rules.phase_spec import Stepped

PHASE_RULE = "1.05"
ORDER_RULE = "1.05.00"
REVIVAL_RULE = "1.05.01"
FREE_RULE = "1.05.01.01"
LEADER_REVIVAL_RULE = "1.05.03"
FACE_DOWN_RULE = "1.05.04"
KWISATZ_HADERACH = "Kwisatz Haderach"
KWISATZ_HADERACH_COST = 2  # reading D12 (treachery.online): the rules give no price
REAWAKEN_RULE = "2.01.14"
STARRED_REVIVAL_RULES = {Faction.FREMEN: "2.04.19", Faction.EMPEROR: "2.03.11"}
STARRED = frozenset({Faction.EMPEROR, Faction.FREMEN})
FREMEN_ALLY_FREE = 3
FREMEN_ALLY_RULE = "2.04.11"
EMPEROR_ALLY_RULE = "2.03.07"
EMPEROR_PAYS = 3  # forces of the ally above its limit (up to 6 in all)
KARAMA_RULE = "1.14.02"
KARAMA_FORCES = 3
GHOLA = "Tleilaxu Ghola"
GHOLA_RULE = "3.01.20"
GHOLA_FORCES = 5
MOST = 10_000


class RevivalStep(StrEnum):
    """The Revival phase's one step: everyone asked at once (1.05.00)."""

    REVIVE = "revive"


def forces_per_turn() -> int:
    return limits("revival_limits")["forces_per_turn"]


def force_cost() -> int:
    return limits("revival_limits")["paid_force_cost"]


def reviving(game: Stepped) -> bool:
    """The factions asked choose their revivals, all at once (1.05.00)."""
    return game.phase == GamePhase.REVIVAL and game.step == RevivalStep.REVIVE
