"""The registry of the phases: each phase's :class:`~rules.phase_spec.PhaseSpec`, by phase.

The one table that names the phases the engine runs. The machine, the legal actions,
the defaults and the bot's waits read it; a phase plugs in by exporting ``SPEC`` from its
rules module and adding one line here. The set-up phase asks the factions the set-up
choices the later phases declare (their specs' ``setup``: the traitors, for the battles).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from rules import (
    collection,
    mentat_pause,
    nexus,
    setup,
    shipment_movement,
)
from rules.battle import spec as battle
from rules.bidding import spec as bidding
from rules.choam_charity import spec as charity
from rules.game_model import GamePhase
from rules.phase_spec import PhaseSpec
from rules.revival import spec as revival
from rules.storm import spec as storm

GAME_OVER_RULE = "1.09"
"""The end of the game (1.09.02): the rule a refusal cites once it is over."""


def register(*specs: PhaseSpec) -> Mapping[GamePhase, PhaseSpec]:
    """The specs by phase; a phase declared twice is a mistake."""
    table: dict[GamePhase, PhaseSpec] = {}
    for spec in specs:
        if spec.phase in table:
            raise ValueError(f"the {spec.phase.value} phase is registered twice")
        table[spec.phase] = spec
    return MappingProxyType(table)


TURN = (
    storm.SPEC,
    nexus.SPEC,  # the Spice Blow and Nexus phase
    charity.SPEC,
    bidding.SPEC,
    revival.SPEC,
    shipment_movement.SPEC,
    battle.SPEC,
    collection.SPEC,
    mentat_pause.SPEC,
)
"""The phases of a turn, in the order of play."""

REGISTRY = register(setup.spec([c for spec in TURN for c in spec.setup]), *TURN)
"""Every phase of a game but its end (``GamePhase.OVER``), in the order of play: the
machine moves on in this order (after the last, the next turn's first)."""


def rule_of(phase: GamePhase) -> str:
    """The rule of ``phase`` ("1.04" for the Bidding phase; the game's end: 1.09)."""
    spec = REGISTRY.get(phase)
    return GAME_OVER_RULE if spec is None else spec.rule
