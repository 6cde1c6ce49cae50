"""Random whole games: every choice drawn from the engine's own legal actions.

Used by the property tests and by bench/bench_game.py. A faction the game
waits on picks one of its legal actions; in the Shipment & Movement phase the
faction to act also tries a shipment or a move the engine lists as legal; in a
recorded phase the "moderator" picks a record or closes the phase. In the Revival
phase the moderator now and then makes a correction (a record, or ends the phase early).
"""

from __future__ import annotations

import random

from rules.actions import Action, Bribe, Move, PhaseDone, Ship
from rules.errors import RulesError
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import RECORDED_PHASES, GamePhase

SIX = (
    Faction.HARKONNEN,
    Faction.SPACING_GUILD,
    Faction.ATREIDES,
    Faction.FREMEN,
    Faction.EMPEROR,
    Faction.BENE_GESSERIT,
)


def choose(state: GameState, rng: random.Random) -> Action | None:
    """One random legal action, or None when the game is over (or nothing can act)."""
    if state.game_phase is GamePhase.OVER:
        return None
    if state.game_phase in RECORDED_PHASES:
        records = state.moderator_actions()
        if rng.random() < 0.35 or len(records) <= 1:
            return PhaseDone()
        return rng.choice(records[1:])
    waiting = list(state.waiting_on())
    if state.game_phase is GamePhase.REVIVAL and (not waiting or rng.random() < 0.03):
        records = state.moderator_actions()  # corrections: "phase done" first
        return records[0] if not waiting or len(records) == 1 else rng.choice(records)
    rng.shuffle(waiting)
    if waiting and rng.random() < 0.05:  # now and then a bribe, from anyone (1.12)
        giver, to = rng.sample(sorted(state.factions), 2)
        held = state.factions[giver].spice
        bribe = Bribe(giver, to.value, rng.randint(1, max(1, min(held, 3))))
        if state.is_legal(bribe):
            return bribe
    for faction in waiting:
        options: list[Action] = list(state.legal_actions(faction))
        if state.game_phase is GamePhase.SHIPMENT_MOVEMENT and faction == state.to_act():
            options += _ship_or_move(state, faction, rng)
        if options:
            return rng.choice(options)
    return None


def _ship_or_move(state: GameState, faction: Faction, rng: random.Random) -> list[Action]:
    out: list[Action] = []
    own = state.factions[faction]
    if own.reserves and rng.random() < 0.5:
        forces = rng.randint(1, min(own.reserves, 4))
        found = [d for d in state.legal_ship_destinations(faction, forces) if d.affordable]
        if found:
            dest = rng.choice(found)
            out.append(Ship(faction, dest.territory, rng.choice(dest.sectors), forces))
    groups = [(t, s, st) for (f, t, s), st in state.stacks.items() if f is faction and st.fighters]
    if groups:
        territory, sector, stack = rng.choice(groups)
        try:
            dests = state.legal_move_destinations(faction, territory, sector)
        except RulesError:  # a group the storm holds, or one that needs more said
            dests = []
        if dests:
            dest = rng.choice(dests)
            out.append(
                Move(faction, territory, sector, dest.territory, dest.sectors[0], stack.forces)
            )
    return [a for a in out if state.is_legal(a)]


def play(state: GameState, rng: random.Random, limit: int = 5000) -> list[Action]:
    """Play ``state`` on at random until it ends (or ``limit`` actions); the actions."""
    played: list[Action] = []
    while len(played) < limit:
        action = choose(state, rng)
        if action is None:
            break
        state.apply(action)
        played.append(action)
    return played
