"""Revivals beside the phase's own: the Tleilaxu Ghola, played at any time (3.01.20), and
the Emperor's once-a-game Karama revival (1.14.02)."""

from __future__ import annotations

from dataclasses import replace

from rules import karama_turn
from rules.actions import (
    FactionAction,
    PlayGhola,
)
from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError
from rules.events import Event, KaramaPower
from rules.factions import Faction, same_card
from rules.game_model import GamePhase
from rules.position import Position
from rules.revival.actions import KaramaRevive
from rules.revival.events import Revived
from rules.revival.model import (
    GHOLA,
    GHOLA_FORCES,
    GHOLA_RULE,
    KARAMA_FORCES,
    KARAMA_RULE,
    RevivalStep,
    revivals,
    set_revivals,
)
from rules.revival.prices import (
    bring_back,
    check_count,
    check_in_tanks,
    check_starred,
    leader_in_tanks,
)

# -- Tleilaxu Ghola, at any time (3.01.20) -----------------------------------------


def play_ghola(state: Position, action: PlayGhola) -> list[Event]:
    """Tleilaxu Ghola: 1 leader whatever the usual conditions, or up to 5 forces, free;
    the faction's normal revival still happens (3.01.20). Any time in a game."""
    if state.whole.phase in (GamePhase.SETUP, GamePhase.OVER):
        raise NotYourTurnError(
            "Tleilaxu Ghola is played once the turns have begun", rule=GHOLA_RULE
        )
    state.check_nothing_resolving()
    return ghola_revival(state, action.faction, action.forces, action.special, action.leader)


def ghola_revival(
    state: Position, faction: Faction, forces: int, special: int, leader: str | None
) -> list[Event]:
    card = next((c for c in state.factions[faction].cards if same_card(c, GHOLA)), None)
    if card is None:
        raise IllegalActionError(f"{faction.label} holds no Tleilaxu Ghola", rule=GHOLA_RULE)
    for n in (forces, special):
        check_count(n, "forces", GHOLA_RULE)
    count = forces + special
    if (leader is None) == (count == 0) or count > GHOLA_FORCES:
        raise InvalidActionError(
            f"Tleilaxu Ghola revives one leader or 1 to {GHOLA_FORCES} forces", rule=GHOLA_RULE
        )
    check_in_tanks(state, faction, forces, special, GHOLA_RULE)
    name = leader_in_tanks(state, faction, leader, GHOLA_RULE) if leader else None
    state.discard(faction, card)
    bring_back(state, faction, forces, special, name)
    return [Revived(faction, forces, special, name, 0, GHOLA_RULE)]


def ghola_candidates(state: Position, faction: Faction) -> list[FactionAction]:
    """Tleilaxu Ghola plays open now: each leader in the tanks, or as many forces as it
    brings back (regular first)."""
    if not any(same_card(c, GHOLA) for c in state.factions[faction].cards):
        return []
    game, own = state.whole, state.factions[faction]
    out: list[FactionAction] = [
        PlayGhola(faction, leader=n) for n in game.held(game.leaders_tanks, faction)
    ]
    forces = min(own.tanks, GHOLA_FORCES)
    special = min(own.special_tanks, GHOLA_FORCES - forces)
    if forces + special:
        out.append(PlayGhola(faction, forces, special))
    return out


# -- the Emperor's Karama power (1.14.02) -------------------------------------------


def karama_power_open(state: Position, faction: Faction) -> bool:
    """What everyone can tell of the Emperor's Karama revival: advanced, the power unused
    (once a game), something in the tanks; whether a card in hand is a Karama aside."""
    game = state.whole
    own = state.factions[faction]
    return (
        faction is Faction.EMPEROR
        and state.rules.advanced
        and faction not in game.karama_powers_used
        and bool(own.tanks or own.special_tanks or game.held(game.leaders_tanks, faction))
    )


def may_karama_revive(state: Position, faction: Faction) -> bool:
    """The Emperor, advanced, once a game, holding a Karama, with something in the tanks."""
    return karama_power_open(state, faction) and state.karama_card(faction) is not None


def karama_revive(state: Position, action: KaramaRevive) -> list[Event]:
    """Revive up to 3 forces or 1 leader free with a Karama, besides the normal revival
    (1.14.02; at most one Sardaukar a turn all the same, 2.03.11)."""
    faction = action.faction
    game = state.whole
    if game.phase is not GamePhase.REVIVAL or game.step != RevivalStep.REVIVE:
        raise NotYourTurnError(
            "the Emperor's Karama revival belongs to the Revival phase, not now", rule=KARAMA_RULE
        )
    karama_turn.check_power(state, faction, Faction.EMPEROR, KARAMA_RULE)
    for n in (action.forces, action.special):
        check_count(n, "forces", KARAMA_RULE)
    count = action.forces + action.special
    if (action.leader is None) == (count == 0) or count > KARAMA_FORCES:
        raise InvalidActionError(
            f"the Emperor's Karama revives one leader or 1 to {KARAMA_FORCES} forces",
            rule=KARAMA_RULE,
        )
    check_in_tanks(state, faction, action.forces, action.special, KARAMA_RULE)
    check_starred(state, faction, action.special)
    name = leader_in_tanks(state, faction, action.leader, KARAMA_RULE) if action.leader else None
    card = state.karama_card(faction)
    if card is None:
        raise IllegalActionError("the Emperor hold no Karama card", rule=KARAMA_RULE)
    state.discard(faction, card)
    bring_back(state, faction, action.forces, action.special, name)
    turn = revivals(game)
    starred = turn.starred | ({faction} if action.special else frozenset())
    state.set_game(karama_powers_used=game.karama_powers_used | {faction})
    set_revivals(state, replace(turn, starred=starred))
    return [
        KaramaPower(faction, card, "revive", None, KARAMA_RULE),
        Revived(faction, action.forces, action.special, name, 0, KARAMA_RULE),
    ]
