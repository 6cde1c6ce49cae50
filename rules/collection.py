"""The Spice Collection Phase (1.08, 1.13.01).

Each faction's fighters in a sector holding spice collect 2 per force, 3 if the
faction occupies Arrakeen or Carthag (reading D6: "occupy"; switch
``collection_rate``), never more than the sector holds (1.08.02); collection is
per sector (D7). Where several factions could collect in one sector they take
their share in storm order. Advisors never collect (2.02.12). Advanced:
increased spice flow pays 2 for Arrakeen, 2 for Carthag, 1 for Tuek's Sietch to
each faction with fighters there (1.13.01).
"""

from __future__ import annotations

from enum import StrEnum

from rules.board import ORNITHOPTER_CITIES
from rules.events import Event, SpiceCollected
from rules.factions import Faction
from rules.game_model import GamePhase, PhaseStep
from rules.phase_spec import PhaseSpec
from rules.position import Position
from rules.variants import CollectionRate

HARVEST_RULE = "1.08.02"
FLOW_RULE = "1.13.01"
SPICE_FLOW = (("Arrakeen", 2), ("Carthag", 2), ("Tuek's Sietch", 1))
PHASE_RULE = "1.08"


class CollectionStep(StrEnum):
    """The phase runs by itself, at once: it has no step of its own (begun, then done)."""


def rate(state: Position, faction: Faction) -> int:
    """2 per force, 3 with Arrakeen or Carthag (occupied, or controlled under D6's switch)."""
    for city in ORNITHOPTER_CITIES:
        if not state.forces_in(faction, city).fighters:
            continue
        if state.rules.collection_rate is CollectionRate.OCCUPY or state.fighter_factions_in(
            city
        ) == {faction}:
            return 3
    return 2


def begin(state: Position) -> list[Event]:
    events: list[Event] = []
    order = state.whole.order
    for (territory, sector), _ in sorted(
        state.board_spice.items(), key=lambda i: (i[0][0], i[0][1] or 0)
    ):
        for faction in order:
            fighters = state.stack(faction, territory, sector).fighters
            left = state.spice_at(territory, sector)
            amount = min(left, fighters * rate(state, faction))
            if amount:
                state.take_spice(territory, sector, amount)
                state.update(faction, spice=state.factions[faction].spice + amount)
                events.append(SpiceCollected(faction, territory, sector, amount, HARVEST_RULE))
    if state.rules.advanced:
        events += _spice_flow(state)
    state.set_game(step=PhaseStep.DONE)
    return events


def _spice_flow(state: Position) -> list[Event]:
    events: list[Event] = []
    for faction in state.whole.order:
        for territory, amount in SPICE_FLOW:
            if state.forces_in(faction, territory).fighters:
                paid = state.from_bank(faction, amount)
                events.append(SpiceCollected(faction, territory, None, paid, FLOW_RULE))
    return events


SPEC = PhaseSpec(
    phase=GamePhase.SPICE_COLLECTION, rule=PHASE_RULE, steps=CollectionStep, begin=begin
)
