"""Bribes (1.12): spice given to another player, in the open, at almost any time.

A bribe lies in front of the receiver's shield, where everyone sees it, and cannot be
spent until the Mentat Pause moves it behind the shield (1.09.01, 1.12.02); so it does
not count as spice held for CHOAM Charity (1.03) or any payment. No bribe before the
first storm is placed (1.12.04) nor once the Mentat Pause has begun (1.12.05); a faction
ability being resolved lets nobody act (1.00.05): the engine refuses a bribe while the
Shipment & Movement phase has prompts open.
"""

from __future__ import annotations

from rules.actions import Bribe
from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError, quote
from rules.events import BribePaid, BribesCollected, Event
from rules.factions import Faction
from rules.game_model import GamePhase
from rules.position import Position

BRIBE_RULE = "1.12.02"
NOT_YET_RULE = "1.12.04"
COLLECT_RULE = "1.09.01"


def bribe(state: Position, action: Bribe) -> list[Event]:
    giver, receiver = action.faction, Faction.parse(action.to)
    _check_time(state)
    if receiver is None or receiver is giver or not state.in_game(receiver):
        raise IllegalActionError(
            f"a bribe goes to another faction in the game, not {quote(action.to)}",
            rule=BRIBE_RULE,
        )
    held = state.factions[giver].spice
    if action.amount < 1 or action.amount > held:
        raise InvalidActionError(
            f"{giver.label} can give 1 to {held} spice, not {quote(action.amount)}",
            rule=BRIBE_RULE,
        )
    state.update(giver, spice=held - action.amount)
    bribes = dict(state.whole.bribes)
    bribes[receiver] = bribes.get(receiver, 0) + action.amount
    state.set_game(bribes=bribes)
    return [BribePaid(giver, receiver, action.amount, BRIBE_RULE)]


def _check_time(state: Position) -> None:
    game = state.whole
    if game.phase is GamePhase.SETUP or (game.turn == 1 and game.phase is GamePhase.STORM):
        raise NotYourTurnError(
            "no bribe may be made until the first storm has been placed", rule=NOT_YET_RULE
        )
    if game.phase in (GamePhase.MENTAT_PAUSE, GamePhase.OVER):
        raise NotYourTurnError("no bribe may be made now", rule="1.12.05")
    if game.phase is GamePhase.SHIPMENT_MOVEMENT and state.phase.stages:
        raise NotYourTurnError(
            "nobody acts while a faction ability is being resolved", rule="1.00.05"
        )


def collect(state: Position) -> list[Event]:
    """The Mentat Pause: every bribe goes behind its receiver's shield (1.09.01)."""
    events: list[Event] = []
    for faction, amount in sorted(state.whole.bribes.items()):
        state.update(faction, spice=state.factions[faction].spice + amount)
        events.append(BribesCollected(faction, amount, COLLECT_RULE))
    state.set_game(bribes={})
    return events
