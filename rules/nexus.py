"""The Nexus (1.10.01) and the Fremen's worm ride after it (2.04.08).

A Nexus opens when a Shai-Hulud comes up from turn 2 (:mod:`rules.spice_blow`).
Every faction may ask another to ally (the alliance exists once both have
asked), leave its alliance, or pass; the last pass closes the Nexus. Then the
Fremen may ride the worm from its territory, and the blow goes on.
"""

from __future__ import annotations

from collections.abc import Iterator

from rules import spice_blow
from rules.actions import Ally, BreakAlliance, FactionAction, Pass, PlaceWorm, RideWorm
from rules.board import Territory
from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError, quote
from rules.events import (
    AllianceBroken,
    AllianceFormed,
    AllianceOffered,
    Event,
    NexusEnded,
    Passed,
    WormRidden,
)
from rules.factions import Faction
from rules.game_model import GamePhase
from rules.model import Stack
from rules.phase_spec import PhaseSpec, Stepped, handlers, on
from rules.position import Position
from rules.spice_blow import AFTER_RIDE, NEXT_STEP, RIDE_STEP, SpiceBlowStep, run

ALLIANCE_RULE = "1.10.01"
BREAK_RULE = "1.10.01.05"
ONE_PER_NEXUS_RULE = "1.10.01.01"
RIDE_RULE = "2.04.08"


def in_nexus(state: Position) -> bool:
    return state.in_phase(GamePhase.SPICE_BLOW) and state.whole.step in NEXT_STEP


def _require_nexus(state: Position, faction: Faction, rule: str) -> None:
    if not in_nexus(state):
        raise NotYourTurnError("there is no Nexus now: alliances change only in one", rule=rule)
    if faction not in state.whole.waiting:
        raise NotYourTurnError(f"{faction.label} is already done with this Nexus", rule=rule)


def ally(state: Position, action: Ally) -> list[Event]:
    faction = action.faction
    _require_nexus(state, faction, ALLIANCE_RULE)
    other = Faction.parse(action.with_)
    if other is None or other not in state.factions or other is faction:
        raise InvalidActionError(
            f"{faction.label} can ally only with another faction in the game, "
            f"not {quote(action.with_)}",
            rule=ALLIANCE_RULE,
        )
    for who in (faction, other):
        if (partner := state.ally_of(who)) is not None:
            raise IllegalActionError(
                f"{who.label} is already allied with {partner.label}: "
                "nobody may be in two alliances",
                rule=ALLIANCE_RULE,
            )
    if other not in state.whole.waiting:
        raise IllegalActionError(f"{other.label} is done with this Nexus", rule=ALLIANCE_RULE)
    for who in (faction, other):
        if who in state.whole.joined:
            raise IllegalActionError(
                f"{who.label} has already joined an alliance in this Nexus: one per Nexus",
                rule=ONE_PER_NEXUS_RULE,
            )
    game = state.whole
    if (faction, other) in game.proposals:
        raise IllegalActionError(
            f"{faction.label} has already offered an alliance to {other.label}: "
            f"waiting for {other.label} to answer",
            rule=ALLIANCE_RULE,
        )
    if (other, faction) not in game.proposals:
        state.set_game(proposals=game.proposals | {(faction, other)})
        return [AllianceOffered(faction, other)]
    state.alliances = state.alliances | {frozenset({faction, other})}
    kept = frozenset(p for p in game.proposals if not {faction, other} & set(p))
    state.set_game(proposals=kept, joined=game.joined | {faction, other})
    return [AllianceFormed(tuple(sorted((faction, other))), ALLIANCE_RULE)]


def break_alliance(state: Position, action: BreakAlliance) -> list[Event]:
    _require_nexus(state, action.faction, BREAK_RULE)
    ally_ = state.ally_of(action.faction)
    if ally_ is None:
        raise IllegalActionError(
            f"{action.faction.label} has no alliance to leave", rule=BREAK_RULE
        )
    state.alliances = frozenset(a for a in state.alliances if action.faction not in a)
    return [AllianceBroken(action.faction, ally_, BREAK_RULE)]


def pass_nexus(state: Position, action: Pass) -> list[Event]:
    """``faction`` is done with the Nexus; the last one to pass closes it (1.10.01.06)."""
    _require_nexus(state, action.faction, ALLIANCE_RULE)
    game = state.whole
    waiting = tuple(f for f in game.waiting if f != action.faction)
    proposals = frozenset(p for p in game.proposals if action.faction not in p)
    state.set_game(waiting=waiting, proposals=proposals)
    events: list[Event] = [Passed(action.faction, "nexus")]
    if waiting:
        return events
    state.set_game(proposals=frozenset())
    events.append(NexusEnded())
    if riders(state):
        state.set_game(step=RIDE_STEP[game.step], waiting=(Faction.FREMEN,))
        return events
    state.set_game(step=NEXT_STEP[game.step])
    return [*events, *run(state)]


# -- Beast of Burden: the Fremen ride the worm (2.04.08) -----------------------------


def riders(state: Position) -> dict[tuple[str, int | None], Stack]:
    """The Fremen stacks that may ride: in the worm's territory, not under the storm."""
    territory = state.whole.worm_territory
    if territory is None or Faction.FREMEN not in state.factions:
        return {}
    return {
        (t, sector): stack
        for (f, t, sector), stack in state.stacks.items()
        if f is Faction.FREMEN and t == territory and stack.fighters and not state.in_storm(sector)
    }


def _require_ride(state: Position, faction: Faction) -> None:
    if not state.in_phase(GamePhase.SPICE_BLOW) or state.whole.step not in AFTER_RIDE:
        raise NotYourTurnError("nobody may ride a worm now", rule=RIDE_RULE)
    if faction is not Faction.FREMEN:
        raise NotYourTurnError(
            f"only the Fremen ride the worm, not {faction.label}", rule=RIDE_RULE
        )


def ride_worm(state: Position, action: RideWorm) -> list[Event]:
    _require_ride(state, action.faction)
    dest = state.territory(action.to, rule=RIDE_RULE)
    sector = _ride_sector(state, dest, action.sector)
    events: list[Event] = []
    for (territory, from_sector), stack in sorted(
        riders(state).items(), key=lambda i: i[0][1] or 0
    ):
        moving = Stack(stack.forces, stack.special)
        state.remove(Faction.FREMEN, territory, from_sector, moving)
        state.add(Faction.FREMEN, dest.name, sector, moving)
        events.append(
            WormRidden(
                Faction.FREMEN,
                territory,
                dest.name,
                sector,
                moving.forces,
                moving.special,
                RIDE_RULE,
            )
        )
    return events + _ride_over(state)


def _ride_sector(state: Position, dest: Territory, sector: int | None) -> int | None:
    if dest.sectors and sector is None and len(dest.sectors) == 1:
        sector = dest.sectors[0]
    if (sector is None) != (not dest.sectors) or (
        sector is not None and sector not in dest.sectors
    ):
        raise InvalidActionError(
            f"{dest.name} lies in sectors {', '.join(map(str, dest.sectors)) or 'none'}, "
            f"not {quote(sector)}",
            rule=RIDE_RULE,
        )
    ally = state.ally_of(Faction.FREMEN)
    if state.in_storm(sector):
        problem = "is in the storm"
    elif state.is_full_for(dest, Faction.FREMEN):
        problem = "already holds two other factions"
    elif ally is not None and not dest.is_polar_sink and state.forces_in(ally, dest.name).total:
        problem = "holds the Fremen's ally's forces"
    else:
        return sector
    raise IllegalActionError(
        f"the worm cannot carry the Fremen there: {dest.name} {problem}", rule=RIDE_RULE
    )


def pass_ride(state: Position, action: Pass) -> list[Event]:
    _require_ride(state, action.faction)
    return [Passed(action.faction, "worm_ride"), *_ride_over(state)]


def _ride_over(state: Position) -> list[Event]:
    state.set_game(step=AFTER_RIDE[state.whole.step], waiting=())
    return run(state)


def pass_(state: Position, action: Pass) -> list[Event]:
    """A pass in this phase: done with the Nexus, or no worm ride."""
    if state.whole.step in AFTER_RIDE:
        return pass_ride(state, action)
    return pass_nexus(state, action)


def candidates(state: Position, faction: Faction) -> list[FactionAction]:
    if state.whole.step in AFTER_RIDE and faction in state.whole.waiting:
        return [Pass(faction), *_ride_candidates(state, faction)]
    if not in_nexus(state) or faction not in state.whole.waiting:
        return []
    out: list[FactionAction] = [Pass(faction)]
    if state.ally_of(faction) is not None:
        out.append(BreakAlliance(faction))
    elif faction not in state.whole.joined:
        out += [Ally(faction, f.value) for f in state.whole.waiting if _may_ask(state, faction, f)]
    return out


def _may_ask(state: Position, faction: Faction, other: Faction) -> bool:
    """Whether ``faction`` may ask ``other`` to ally now (not itself, not allied, not
    joined in this Nexus, not asked already)."""
    return (
        other is not faction
        and state.ally_of(other) is None
        and other not in state.whole.joined
        and (faction, other) not in state.whole.proposals
    )


def _ride_candidates(state: Position, faction: Faction) -> list[FactionAction]:
    return [
        RideWorm(faction, territory.name, sector)
        for territory in state.board
        for _, sector in territory.pieces()
        if territory.name != state.whole.worm_territory
    ]


def in_a_nexus(game: Stepped) -> bool:
    """A Nexus is open (1.10.01)."""
    return game.phase == GamePhase.SPICE_BLOW and game.step in NEXT_STEP


def offered(state: Position, faction: Faction) -> Iterator[FactionAction]:
    """The phase's choices: a worm to place, then the Nexus and the ride."""
    yield from spice_blow.candidates(state, faction)
    yield from candidates(state, faction)


SPEC = PhaseSpec(
    phase=GamePhase.SPICE_BLOW,
    rule=spice_blow.PHASE_RULE,
    steps=SpiceBlowStep,
    begin=spice_blow.begin,
    handlers=handlers(
        on(Ally, ally),
        on(BreakAlliance, break_alliance),
        on(RideWorm, ride_worm),
        on(PlaceWorm, spice_blow.place_worm),
    ),
    pass_=pass_,
    offered=offered,
    default=spice_blow.default_worm,
    declinable=frozenset({*NEXT_STEP, *AFTER_RIDE}),  # the Nexus, the worm ride
)
