"""The Revival phase's numbers and rules (1.05), its one step, and where a game is in it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rules.components import limits
from rules.factions import Faction
from rules.game_model import GamePhase, StatePart, TurnState, state_part
from rules.phase_spec import Stepped
from rules.position import Position

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


@dataclass(frozen=True, slots=True)
class Revivals:
    """This turn's revivals (1.05): the factions done with theirs, those that brought a
    starred force back (one a turn: 2.03.11, 2.04.19), and the Emperor's payment for its
    ally's forces beyond its limit (2.03.07): how many it may still pay for, and whether it
    paid."""

    done: frozenset[Faction] = frozenset()
    starred: frozenset[Faction] = frozenset()
    ally_room: int = 0
    ally_paid: bool = False


def _write(turn: Revivals) -> Mapping[str, Any]:
    return {
        "revived": sorted(f.value for f in turn.done),
        "starred_revived": sorted(f.value for f in turn.starred),
        "ally_revival_room": turn.ally_room,
        "ally_revival_paid": turn.ally_paid,
    }


def _read(data: Mapping[str, Any]) -> Revivals:
    return Revivals(
        frozenset(Faction(f) for f in data.get("revived", ())),
        frozenset(Faction(f) for f in data.get("starred_revived", ())),
        int(data.get("ally_revival_room", 0)),
        bool(data.get("ally_revival_paid", False)),
    )


REVIVALS: StatePart[Revivals] = state_part("revivals", Revivals(), _write, _read)
"""This turn's revivals, kept in the game's state (stored under their old keys)."""


def revivals(game: TurnState) -> Revivals:
    """This turn's revivals in ``game``."""
    return REVIVALS.of(game)


def set_revivals(state: Position, turn: Revivals) -> None:
    """This turn's revivals are now ``turn``."""
    state.set_game(parts=REVIVALS.put(state.whole.parts, turn))
