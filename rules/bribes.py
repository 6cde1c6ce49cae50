"""Spice given to another faction: bribes (1.12) and the Emperor's gift to its ally (2.03.06).

A bribe lies in front of the receiver's shield, where everyone sees it, and cannot be
spent until the Mentat Pause moves it behind the shield (1.09.01, 1.12.02); so it does
not count as spice held for CHOAM Charity (1.03) or any payment. No bribe before the
first storm is placed (1.12.04) nor once the Mentat Pause has begun (1.12.05); a faction
ability being resolved lets nobody act (1.00.05): the engine refuses a bribe while the
Shipment & Movement phase has prompts open. The Emperor's gift (any time, the amount
secret) becomes the ally's spice at once.

Neither may give spice a faction has committed (:func:`check_spice_held`): a standing
high bid stays payable, by the bidder's spice and its ally's commitment (1.04.06.02), and
the spice dialed in a locked battle plan is held for it until the battle is resolved
(1.13.04).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from rules.actions import Bribe, FactionAction, GiveSpice
from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError, quote
from rules.events import BribePaid, BribesCollected, Event, SpiceGiven
from rules.factions import Faction
from rules.game_model import GamePhase
from rules.position import Position

BRIBE_RULE = "1.12.02"
NOT_YET_RULE = "1.12.04"
COLLECT_RULE = "1.09.01"
GIVE_SPICE_RULE = "2.03.06"

MAX_AMOUNT = 10_000  # the most spice any one amount typed may be
SpiceCheck = Callable[[Position], None]
Check = TypeVar("Check", bound=SpiceCheck)
_SPICE_HELD: list[SpiceCheck] = []


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
    check_spice_held(state)
    bribes = dict(state.whole.bribes)
    bribes[receiver] = bribes.get(receiver, 0) + action.amount
    state.set_game(bribes=bribes)
    return [BribePaid(giver, receiver, action.amount, BRIBE_RULE)]


def give_spice(state: Position, action: GiveSpice) -> list[Event]:
    """2.03.06: the Emperor gives spice to its ally, any time; it becomes the ally's."""
    faction, amount = action.faction, action.amount
    if faction is not Faction.EMPEROR:
        raise IllegalActionError("only the Emperor gives spice to an ally", rule=GIVE_SPICE_RULE)
    if state.whole.phase in (GamePhase.SETUP, GamePhase.OVER):
        raise NotYourTurnError("spice is given once the turns have begun", rule=GIVE_SPICE_RULE)
    state.check_nothing_resolving()
    ally = state.ally_of(faction)
    if ally is None:
        raise IllegalActionError("the Emperor has no ally to give spice to", rule=GIVE_SPICE_RULE)
    if not 0 < amount <= MAX_AMOUNT:
        raise InvalidActionError(
            f"a gift is 1 spice or more, not {quote(amount)}", rule=GIVE_SPICE_RULE
        )
    if amount > state.factions[faction].spice:
        raise IllegalActionError(
            f"the Emperor holds {state.factions[faction].spice} spice, not {quote(amount)}",
            rule=GIVE_SPICE_RULE,
        )
    state.pay(faction, amount, ally)
    check_spice_held(state)
    return [SpiceGiven(faction, ally)]


def gift_candidates(state: Position, faction: Faction) -> list[FactionAction]:
    """The Emperor's gift to its ally (2.03.06), in any phase."""
    if faction is not Faction.EMPEROR or state.ally_of(faction) is None:
        return []
    return [GiveSpice(faction, 1)]


def holds_spice(check: Check) -> Check:
    """Register a phase's check of the spice it holds committed (a standing high bid,
    1.04.06.02; a locked plan's dial, 1.13.04): it refuses spice given away from under it."""
    _SPICE_HELD.append(check)
    return check


def check_spice_held(state: Position) -> None:
    """Refuse spice given away (already taken from the giver) that a faction has committed
    in a phase (each phase's check, :func:`holds_spice`)."""
    for check in _SPICE_HELD:
        check(state)


def _check_time(state: Position) -> None:
    game = state.whole
    if game.phase is GamePhase.SETUP or (game.turn == 1 and game.phase is GamePhase.STORM):
        raise NotYourTurnError(
            "no bribe may be made until the first storm has been placed", rule=NOT_YET_RULE
        )
    if game.phase in (GamePhase.MENTAT_PAUSE, GamePhase.OVER):
        raise NotYourTurnError("no bribe may be made now", rule="1.12.05")
    state.check_nothing_resolving()


def collect(state: Position) -> list[Event]:
    """The Mentat Pause: every bribe goes behind its receiver's shield (1.09.01)."""
    events: list[Event] = []
    for faction, amount in sorted(state.whole.bribes.items()):
        state.update(faction, spice=state.factions[faction].spice + amount)
        events.append(BribesCollected(faction, amount, COLLECT_RULE))
    state.set_game(bribes={})
    return events
