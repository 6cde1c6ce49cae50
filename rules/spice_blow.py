"""The Spice Blow and Nexus Phase (1.02, 1.10, 1.13.02).

Spice cards are turned until a territory card comes up; its spice is placed in
the territory's blow sector unless the storm is there (1.02.04). A Shai-Hulud
devours everything in the territory of the topmost territory card of the
discard pile (1.02.05), except the Fremen and, by the Fremen's alliance, their
ally (2.04.07, 2.04.10). On turn 1 worms are set aside and shuffled back
(1.02.02); from turn 2 a worm opens a Nexus, where alliances are made and
broken (1.10.01). The advanced game blows twice, piles A and B, with a Nexus
after each pile's blow (1.13.02, reading D8).
"""

from __future__ import annotations

from rules.actions import Ally, BreakAlliance, FactionAction, Pass, RideWorm
from rules.board import Territory
from rules.components import SHAI_HULUD, spice_cards
from rules.decks import draw_spice, top_territory
from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError, quote
from rules.events import (
    AllianceBroken,
    AllianceFormed,
    AllianceOffered,
    DeckShuffled,
    Event,
    ForcesDestroyed,
    NexusEnded,
    NexusStarted,
    Passed,
    ShaiHulud,
    SpiceBlown,
    SpiceDestroyed,
    WormRidden,
)
from rules.factions import Faction
from rules.game_model import GamePhase
from rules.model import Stack
from rules.position import Position

BLOW_RULE = "1.02.04"
WORM_RULE = "1.02.05"
FIRST_TURN_RULE = "1.02.02"
NEXUS_RULE = "1.02.06"
ALLIANCE_RULE = "1.10.01"
BREAK_RULE = "1.10.01.05"
FREMEN_WORM_RULE = "2.04.07"
NEXT_STEP = {"nexus_a": "blow_b", "nexus_b": "end"}
RIDE_STEP = {"nexus_a": "ride_a", "nexus_b": "ride_b"}
AFTER_RIDE = {"ride_a": "blow_b", "ride_b": "end"}
RIDE_RULE = "2.04.08"


def begin(state: Position) -> list[Event]:
    state.set_game(step="blow_a", worm_territory=None)
    return run(state)


def run(state: Position) -> list[Event]:
    """Carry the phase on until a Nexus waits for the factions or the phase is done."""
    events: list[Event] = []
    while True:
        step = state.whole.step
        if step not in ("blow_a", "blow_b", "end"):
            return events
        if step == "end":
            events += _finish(state)
            state.set_game(step="done")
            return events
        pile = step[-1].upper()
        blown, worm = blow(state, pile)
        events += blown
        after = "blow_b" if pile == "A" and state.rules.advanced else "end"
        if worm and state.whole.turn > 1:
            nexus = "nexus_a" if after == "blow_b" else "nexus_b"
            state.set_game(step=nexus, waiting=state.whole.order, proposals=frozenset())
            events.append(NexusStarted(NEXUS_RULE))
            return events
        state.set_game(step=after)


def blow(state: Position, pile: str) -> tuple[list[Event], bool]:
    """Turn spice cards onto ``pile`` until a territory card; True if a worm came up."""
    events: list[Event] = []
    worms = 0
    while True:
        card, shuffled = draw_spice(state)
        events += shuffled
        if card is None:
            return events, worms > 0
        if card == SHAI_HULUD:
            if state.whole.turn == 1:
                state.set_game(worms_aside=state.whole.worms_aside + 1)
                events.append(ShaiHulud(pile, None, True, FIRST_TURN_RULE))
                continue
            target = top_territory(_pile(state, pile)) if worms == 0 else None
            events.append(ShaiHulud(pile, target, False, WORM_RULE))
            if target is not None:
                events += devour(state, target)
                state.set_game(worm_territory=target)
            _discard(state, pile, card)
            worms += 1
            continue
        sector, amount = spice_cards()[card]
        placed = not state.in_storm(sector)
        if placed:
            placed = state.put_spice(card, sector, amount) > 0
        _discard(state, pile, card)
        events.append(SpiceBlown(pile, card, sector, amount, placed, BLOW_RULE))
        return events, worms > 0


def _pile(state: Position, pile: str) -> tuple[str, ...]:
    game = state.whole
    return game.spice_discard if pile == "A" else game.spice_discard_b


def _discard(state: Position, pile: str, card: str) -> None:
    if pile == "A":
        state.set_game(spice_discard=(card, *state.whole.spice_discard))
    else:
        state.set_game(spice_discard_b=(card, *state.whole.spice_discard_b))


def devour(state: Position, territory: str) -> list[Event]:
    """Everything in ``territory`` goes: spice to the bank, forces to the tanks, but the
    Fremen's and (their alliance protects them) their ally's (2.04.07, 2.04.10)."""
    spared = {Faction.FREMEN, *([a] if (a := state.ally_of(Faction.FREMEN)) else [])}
    events: list[Event] = []
    for (faction, name, sector), stack in sorted(state.stacks_in(territory).items(), key=_key):
        if faction in spared and faction in state.factions:
            continue
        state.to_tanks(faction, name, sector, stack)
        events.append(
            ForcesDestroyed(
                faction,
                name,
                sector,
                stack.forces,
                stack.special,
                stack.advisors,
                "worm",
                WORM_RULE,
            )
        )
    for (name, sector), amount in sorted(state.board_spice.items(), key=lambda i: i[0][1] or 0):
        if name == territory:
            state.take_spice(name, sector, amount)
            state.spice_bank += amount
            events.append(SpiceDestroyed(name, sector, amount, "worm", WORM_RULE))
    return events


def _key(item: tuple[tuple[Faction, str, int | None], object]) -> tuple[str, int]:
    (faction, _, sector), _ = item
    return faction.value, sector or 0


def _finish(state: Position) -> list[Event]:
    """Turn 1: the worms set aside go back into the spice deck, shuffled (1.02.03)."""
    game = state.whole
    if not game.worms_aside:
        return []
    deck, chance = game.chance.shuffle([*game.spice_deck, *[SHAI_HULUD] * game.worms_aside])
    state.set_game(spice_deck=deck, worms_aside=0, chance=chance)
    return [DeckShuffled("spice", len(deck))]


# -- the Nexus ------------------------------------------------------------------------


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
    game = state.whole
    if (other, faction) not in game.proposals:
        state.set_game(proposals=game.proposals | {(faction, other)})
        return [AllianceOffered(faction, other)]
    state.alliances = state.alliances | {frozenset({faction, other})}
    kept = frozenset(p for p in game.proposals if not {faction, other} & set(p))
    state.set_game(proposals=kept)
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
    else:
        out += [
            Ally(faction, f.value)
            for f in state.whole.waiting
            if f is not faction and state.ally_of(f) is None
        ]
    return out


def _ride_candidates(state: Position, faction: Faction) -> list[FactionAction]:
    return [
        RideWorm(faction, territory.name, sector)
        for territory in state.board
        for _, sector in territory.pieces()
        if territory.name != state.whole.worm_territory
    ]
