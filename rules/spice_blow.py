"""The Spice Blow and Nexus Phase (1.02, 1.10, 1.13.02).

Spice cards are turned until a territory card comes up; its spice is placed in
the territory's blow sector unless the storm is there (1.02.04). A Shai-Hulud
devours everything in the territory of the topmost territory card of the
discard pile (1.02.05), except the Fremen and, by the Fremen's alliance, their
ally (2.04.07, 2.04.10). On turn 1 worms are set aside and shuffled back
(1.02.02); from turn 2 a worm opens a Nexus, where alliances are made and
broken (1.10.01). The advanced game blows twice, piles A and B, with a Nexus
after each pile's blow (1.13.02, reading D8). With the advanced Fremen, every worm
after the first in one blow is placed by the Fremen in a sand territory (2.04.15,
reading D9). The Nexus itself and the worm ride are in :mod:`rules.nexus`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum

from rules import karama_turn
from rules.actions import Action, FactionAction, PlaceWorm
from rules.components import SHAI_HULUD, spice_cards
from rules.decks import draw_spice, top_territory
from rules.errors import IllegalActionError, NotYourTurnError
from rules.events import (
    DeckShuffled,
    Event,
    ForcesDestroyed,
    NexusStarted,
    ShaiHulud,
    SpiceBlown,
    SpiceDestroyed,
)
from rules.factions import Faction
from rules.game_model import PhaseStep
from rules.model import Ability
from rules.position import Position

BLOW_RULE = "1.02.04"
WORM_RULE = "1.02.05"
FIRST_TURN_RULE = "1.02.02"
NEXUS_RULE = "1.02.06"
FREMEN_WORM_RULE = "2.04.07"
SANDWORMS_RULE = "2.04.15"
KARAMA_WORM_RULE = "1.14.03"
PHASE_RULE = "1.02"


class SpiceBlowStep(StrEnum):
    """The Spice Blow and Nexus phase's steps, pile by pile (A, then B in the advanced
    game): the blow, a worm the Fremen place, the Nexus, the Fremen's worm ride."""

    BLOW_A = "blow_a"
    BLOW_B = "blow_b"
    END = "end"
    WORM_A = "worm_a"
    WORM_B = "worm_b"
    NEXUS_A = "nexus_a"
    NEXUS_B = "nexus_b"
    RIDE_A = "ride_a"
    RIDE_B = "ride_b"


Steps = SpiceBlowStep
PLACE_STEP: dict[str, Steps] = {Steps.WORM_A: Steps.BLOW_A, Steps.WORM_B: Steps.BLOW_B}
NEXT_STEP: dict[str, Steps] = {Steps.NEXUS_A: Steps.BLOW_B, Steps.NEXUS_B: Steps.END}
RIDE_STEP: dict[str, Steps] = {Steps.NEXUS_A: Steps.RIDE_A, Steps.NEXUS_B: Steps.RIDE_B}
AFTER_RIDE: dict[str, Steps] = {Steps.RIDE_A: Steps.BLOW_B, Steps.RIDE_B: Steps.END}
WORM_STEP = {"A": Steps.WORM_A, "B": Steps.WORM_B}
BLOWING = (Steps.BLOW_A, Steps.BLOW_B, Steps.END)


def begin(state: Position) -> list[Event]:
    state.set_game(step=Steps.BLOW_A, worm_territory=None)
    return _karama_worm(state) + run(state)


def _karama_worm(state: Position) -> list[Event]:
    """The Fremen's Karama worm (1.14.03) comes up first: a Shai-Hulud of pile A."""
    territory = state.whole.karama_worm
    if territory is None or state.whole.turn == 1:
        return []
    state.set_game(karama_worm=None, worms_in_blow=1, worm_territory=territory)
    return [ShaiHulud("A", territory, False, KARAMA_WORM_RULE), *devour(state, territory)]


def run(state: Position) -> list[Event]:
    """Carry the phase on until a choice waits (a Nexus, a ride, a worm to place) or it ends."""
    events: list[Event] = []
    while True:
        step = state.whole.step
        if step not in BLOWING:
            return events
        if step == Steps.END:
            events += _finish(state)
            state.set_game(step=PhaseStep.DONE)
            return events
        pile = step[-1].upper()
        blown, finished = blow(state, pile)
        events += blown
        if not finished:
            return events
        worm = state.whole.worms_in_blow > 0
        state.set_game(worms_in_blow=0)
        after = Steps.BLOW_B if pile == "A" and state.rules.advanced else Steps.END
        if worm and state.whole.turn > 1:
            nexus = Steps.NEXUS_A if after == Steps.BLOW_B else Steps.NEXUS_B
            state.set_game(
                step=nexus, waiting=state.whole.order, proposals=frozenset(), joined=frozenset()
            )
            events.append(NexusStarted(NEXUS_RULE))
            return events
        state.set_game(step=after)


def blow(state: Position, pile: str) -> tuple[list[Event], bool]:
    """Turn spice cards onto ``pile`` until a territory card (True), or until the Fremen
    must place a worm (False: the blow goes on after :func:`place_worm`)."""
    events: list[Event] = []
    while True:
        card, shuffled = draw_spice(state)
        events += shuffled
        if card is None:
            return events, True
        if card != SHAI_HULUD:
            return events + _territory_card(state, pile, card), True
        if state.whole.turn == 1:
            state.set_game(worms_aside=state.whole.worms_aside + 1)
            events.append(ShaiHulud(pile, None, True, FIRST_TURN_RULE))
            continue
        worms = state.whole.worms_in_blow
        _discard(state, pile, card)
        state.set_game(worms_in_blow=worms + 1)
        if worms and fremen_place_worms(state) and _fremen_place_this_one(state, events):
            state.set_game(step=WORM_STEP[pile], waiting=(Faction.FREMEN,))
            events.append(ShaiHulud(pile, None, False, SANDWORMS_RULE))
            return events, False
        target = top_territory(_pile(state, pile)) if worms == 0 else None
        events.append(ShaiHulud(pile, target, False, WORM_RULE))
        if target is not None:
            events += devour(state, target)
            state.set_game(worm_territory=target)


def _territory_card(state: Position, pile: str, card: str) -> list[Event]:
    sector, amount = spice_cards()[card]
    placed = not state.in_storm(sector)
    if placed:
        placed = state.put_spice(card, sector, amount) > 0
    _discard(state, pile, card)
    return [SpiceBlown(pile, card, sector, amount, placed, BLOW_RULE)]


def fremen_place_worms(state: Position) -> bool:
    return state.rules.advanced and Faction.FREMEN in state.factions


def _fremen_place_this_one(state: Position, events: list[Event]) -> bool:
    """Sandworms (2.04.15) works this time, unless a Karama waiting for it stops it."""
    works, stopped = karama_turn.uses(state, Ability.SANDWORMS)
    events += stopped
    return works


def place_worm(state: Position, action: PlaceWorm) -> list[Event]:
    """The advanced Fremen place a later worm in a sand territory (2.04.15, D9)."""
    game = state.whole
    if game.step not in PLACE_STEP or action.faction is not Faction.FREMEN:
        raise NotYourTurnError("no worm waits for the Fremen to place it", rule=SANDWORMS_RULE)
    where = state.territory(action.territory, rule=SANDWORMS_RULE)
    if where.kind != "sand":
        raise IllegalActionError(
            f"the Fremen place a worm in a sand territory; {where.name} is {where.kind}",
            rule=SANDWORMS_RULE,
        )
    state.set_game(step=PLACE_STEP[game.step], waiting=(), worm_territory=where.name)
    pile = PLACE_STEP[game.step][-1].upper()
    events: list[Event] = [ShaiHulud(pile, where.name, False, SANDWORMS_RULE)]
    return events + devour(state, where.name) + run(state)


def candidates(state: Position, faction: Faction) -> list[FactionAction]:
    if state.whole.step not in PLACE_STEP or faction not in state.whole.waiting:
        return []
    return [PlaceWorm(faction, t.name) for t in state.board if t.kind == "sand"]


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
    Fremen's and (their alliance protects them, if they choose) their ally's (2.04.07,
    2.04.10); a Karama played ahead stops either once."""
    events: list[Event] = []
    spared = _spared(state, territory, events)
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


def _spared(state: Position, territory: str, events: list[Event]) -> set[Faction]:
    fremen = Faction.FREMEN
    present = {f for (f, _, _) in state.stacks_in(territory)}
    spared: set[Faction] = set()
    if fremen in present:
        works, stopped = karama_turn.uses(state, Ability.SHAI_HULUD)
        events += stopped
        spared |= {fremen} if works else set()
    ally = state.ally_of(fremen)
    if ally is not None and ally in present and karama_turn.spares_ally(state):
        works, stopped = karama_turn.uses(state, Ability.ALLY_WORM)
        events += stopped
        spared |= {ally} if works else set()
    return spared


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


def default_worm(
    state: Position,
    faction: Faction,
    legal: Sequence[FactionAction],
    is_legal: Callable[[Action], bool],
) -> FactionAction | None:
    """The first sand territory (board order) where the worm finds no forces and no spice."""
    places = [a for a in legal if isinstance(a, PlaceWorm)]
    empty = [
        a
        for a in places
        if not state.stacks_in(a.territory)
        and not any(n for (t, _), n in state.board_spice.items() if t == a.territory)
    ]
    return next(iter(empty + places), None)
