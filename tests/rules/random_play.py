"""Random whole games: every choice drawn from the engine's own legal actions.

Used by the property tests and by bench/bench_game.py. A faction the game
waits on picks one of its legal actions; in the Shipment & Movement phase the
faction to act also tries a shipment or a move the engine lists as legal; in a
recorded phase the "moderator" picks a record or closes the phase. In the Revival
phase the moderator now and then makes a correction (a record, or ends the phase early).
"""

from __future__ import annotations

import random
from dataclasses import fields

from rules import machine
from rules.actions import Action, Bribe, Move, PhaseDone, RecordLeaderKilled, Ship
from rules.battle.actions import Capture
from rules.errors import RulesError
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from rules.model import RuleSet

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
    waiting = list(state.waiting_on())
    if state.game_phase is GamePhase.REVIVAL and (not waiting or rng.random() < 0.03):
        records = state.moderator_actions()  # corrections: "phase done" first
        assert records or waiting, (  # a phase that waits on nobody must end (liveness)
            f"Revival waits on nobody and offers no record: turn {state.whole.turn}, "
            f"step {state.whole.step!r}, position {state.to_dict()}"
        )
        if records:  # (else the waiting factions act, below)
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


def choose_boldly(state: GameState, rng: random.Random) -> Action | None:
    """:func:`choose`, and now and then what a table does at odd moments: a faction
    nobody waits on plays something of any time (a gift, a Karama ahead, a worm, a
    Ghola), or the moderator corrects the battle under way (a leader killed, a payment)."""
    game = state.game
    if game is not None and game.phase is not GamePhase.OVER and rng.random() < 0.05:
        faction = rng.choice(sorted(state.factions))
        extra = [a for a in state.legal_actions(faction) if machine.any_time(a)]
        if extra:
            return rng.choice(extra)
    if game is not None and game.phase is GamePhase.BATTLE:
        if game.step == "capture" and rng.random() < 0.7:  # the Harkonnen keep a captive
            kept = [a for a in state.legal_actions(Faction.HARKONNEN) if _keeps(a)]
            if kept:
                return kept[0]
        if rng.random() < 0.03:
            return _battle_record(state, rng) or choose(state, rng)
    return choose(state, rng)


def _keeps(action: Action) -> bool:
    return isinstance(action, Capture) and not action.kill


def _battle_record(state: GameState, rng: random.Random) -> Action | None:
    """A record of the battle under way, of a kind drawn first; a captive's death often."""
    records = [a for a in state.moderator_actions() if not isinstance(a, PhaseDone)]
    captives = state.whole.captives
    killed = [a for a in records if isinstance(a, RecordLeaderKilled) and a.leader in captives]
    if killed and rng.random() < 0.5:
        return rng.choice(killed)
    kinds = sorted({type(a).__name__ for a in records})
    if not kinds:
        return None
    kind = rng.choice(kinds)
    return rng.choice([a for a in records if type(a).__name__ == kind])


CHOICES = {
    "fremen_storm_movement": ("blocked", "free", "half_loss"),
    "guild_ally_pays": ("guild", "bank"),
    "first_storm": ("final", "path", "none"),
    "storm_start_sector": ("spared", "hit"),
    "bg_charity": ("advanced", "always"),
    "collection_rate": ("occupy", "control"),
    "last_turn_tie": ("all", "storm_order"),
    "voice_prescience": ("voice_first", "together"),
    "ally_battle_spice": ("no", "yes"),
    "ellaca_drug": ("snooper", "shield"),
    "karama_bid": ("free", "pay"),
}


def random_rules(rng: random.Random) -> RuleSet:
    """Basic or advanced, every variant switch drawn."""
    values: dict[str, object] = {}
    for item in fields(RuleSet):
        if item.name == "variants_given":
            continue
        if item.name in CHOICES:
            values[item.name] = rng.choice(CHOICES[item.name])
        elif item.type in ("bool", bool):
            values[item.name] = rng.random() < 0.5
    return RuleSet(**values)  # type: ignore[arg-type]


def random_seats(rng: random.Random) -> list[Faction | None]:
    """2 to 6 factions in random seats."""
    seats: list[Faction | None] = list(SIX)
    rng.shuffle(seats)
    count = rng.randint(2, 6)
    return [f if i < count else None for i, f in enumerate(seats)]
