"""The storm's move in the Storm phase (1.01.03): the sectors it enters, what it destroys
there (readings D1 and D2 in docs/whole-turn-readings.md; the advanced Fremen's half losses,
2.04.16), the storm order it leaves (1.01.01), and the phase's end: the Fremen draw next
turn's storm card (2.04.13)."""

from __future__ import annotations

from dataclasses import replace

from rules import bene_gesserit, karama_turn
from rules.board import SECTOR_COUNT, primary_sector, printed_sector
from rules.components import storm_deck
from rules.events import Event, ForcesDestroyed, SpiceDestroyed
from rules.factions import Faction
from rules.game_model import PhaseStep
from rules.model import Ability, Stack
from rules.position import Position, storm_order
from rules.storm.events import StormCardDrawn, StormMoved, StormOrder
from rules.storm.model import (
    DESTRUCTION_RULE,
    FIRST_PLAYER_RULE,
    FIRST_STORM_RULE,
    FREMEN_LOSSES_RULE,
    STORM_DECK_RULE,
    StormStep,
    set_storm_turn,
    storm_turn,
)
from rules.variants import FirstStorm, StormStartSector

UNPROTECTED_AFTER_ATOMICS = frozenset({"Arrakeen", "Carthag", "Imperial Basin"})


def resolve(state: Position, sectors: int) -> list[Event]:
    """Move the storm, destroy, fix the storm order, and let the Fremen draw (2.04.13)."""
    first_turn = state.whole.turn == 1
    start = state.storm_sector
    entered = [
        printed_sector((primary_sector(start) + i) % SECTOR_COUNT) for i in range(1, sectors + 1)
    ]
    end = entered[-1] if entered else start
    state.storm_sector = end
    rule = FIRST_STORM_RULE if first_turn else DESTRUCTION_RULE
    events: list[Event] = [StormMoved(start, end, sectors, rule)]
    start_hit = (
        not first_turn and bool(entered) and state.rules.storm_start_sector is StormStartSector.HIT
    )
    hit = _hit_sectors(state, entered, end, first_turn)
    half = True
    if _fremen_caught(state, [*([start] if start_hit else []), *hit]):
        half, stopped = karama_turn.uses(state, Ability.STORM_LOSSES)
        events += stopped
    if start_hit:
        events += destroy_in(state, start, spare_fremen=half, fremen_half=half)
    for sector in hit:
        events += destroy_in(state, sector, fremen_half=half)
    order = storm_order(state.seats, end)
    state.set_game(order=order, dials={}, waiting=(), step=PhaseStep.DONE)
    set_storm_turn(state, replace(storm_turn(state.whole), move=None))
    events.append(StormOrder(order, FIRST_PLAYER_RULE))
    if state.whole.fremen_losses:
        state.set_game(step=StormStep.FREMEN_LOSSES, waiting=(Faction.FREMEN,))
        return events
    return events + finish(state)


def finish(state: Position) -> list[Event]:
    """The Fremen draw next turn's storm card; lone advisors become fighters (2.02.21)."""
    events: list[Event] = []
    state.set_game(step=PhaseStep.DONE, waiting=())
    if state.rules.advanced and Faction.FREMEN in state.factions:
        value, chance = state.whole.chance.pick(storm_deck())
        seen, stopped = karama_turn.uses(state, Ability.STORM_COMING)
        state.set_game(chance=chance)
        set_storm_turn(state, replace(storm_turn(state.whole), next=value, hidden=not seen))
        events.append(StormCardDrawn(Faction.FREMEN, STORM_DECK_RULE))
        events += stopped
    return events + bene_gesserit.universal_stewards(state)


def _hit_sectors(state: Position, entered: list[int], end: int, first_turn: bool) -> list[int]:
    """D1: the sectors entered (a move of 0 hits the sector it sits in; the switch
    ``storm_start_sector`` "hit" adds the start sector); D2: on turn 1 by default only the
    sector where the first storm stops."""
    if first_turn:
        mode = state.rules.first_storm
        return [] if mode is FirstStorm.NONE else entered if mode is FirstStorm.PATH else [end]
    return entered or [end]


def is_protected(state: Position, territory: str) -> bool:
    t = state.board[territory]
    if state.whole.shield_wall_destroyed and territory in UNPROTECTED_AFTER_ATOMICS:
        return False
    return t.protected_from_storm or t.kind != "sand"


def _fremen_caught(state: Position, sectors: list[int]) -> bool:
    """Whether the advanced Fremen's half losses (2.04.16) would be used in ``sectors``."""
    if not state.rules.advanced:
        return False
    return any(
        faction is Faction.FREMEN and sec in sectors and not is_protected(state, territory)
        for (faction, territory, sec) in state.stacks
    )


def destroy_in(
    state: Position, sector: int, *, spare_fremen: bool = False, fremen_half: bool = True
) -> list[Event]:
    """Forces on unprotected sand and all spice in ``sector`` are lost (1.01.03). With
    ``spare_fremen`` (the sector the storm moves off) the advanced Fremen lose nothing
    more: the storm took their half when it stopped on them (2.04.16). Without
    ``fremen_half`` (a Karama stopped it) the Fremen lose everything like the others."""
    events: list[Event] = []
    rule_all = DESTRUCTION_RULE
    for (faction, territory, sec), stack in sorted(state.stacks.items(), key=stack_key):
        if sec != sector or is_protected(state, territory):
            continue
        if spare_fremen and faction is Faction.FREMEN and state.rules.advanced:
            continue
        lost, rule = _storm_loss(state, faction, stack) if fremen_half else (stack, rule_all)
        if lost.total != stack.total and stack.forces and stack.special:
            choice = (territory, sector, lost.total)
            state.set_game(fremen_losses=(*state.whole.fremen_losses, choice))
            continue
        state.to_tanks(faction, territory, sec, lost)
        events.append(
            ForcesDestroyed(
                faction, territory, sec, lost.forces, lost.special, lost.advisors, "storm", rule
            )
        )
    for (territory, sec), amount in sorted(state.board_spice.items(), key=spice_key):
        if sec == sector:
            state.take_spice(territory, sec, amount)
            state.spice_bank += amount
            events.append(SpiceDestroyed(territory, sec, amount, "storm", DESTRUCTION_RULE))
    return events


def _storm_loss(state: Position, faction: Faction, stack: Stack) -> tuple[Stack, str]:
    """Everything, except the advanced Fremen: half, rounded up, regular forces first."""
    if faction is not Faction.FREMEN or not state.rules.advanced:
        return stack, DESTRUCTION_RULE
    half = -(-stack.total // 2)
    forces = min(stack.forces, half)
    return Stack(forces, half - forces), FREMEN_LOSSES_RULE


def stack_key(item: tuple[tuple[Faction, str, int | None], Stack]) -> tuple[str, str]:
    (faction, territory, _), _ = item
    return territory, faction.value


def spice_key(item: tuple[tuple[str, int | None], int]) -> tuple[str, int]:
    (territory, sector), _ = item
    return territory, sector or 0
