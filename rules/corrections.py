"""Moderators' corrections: the position fixed by hand, as actions like any other.

One model of going back: everything that changes a game is an action in its log
(as in OpenSpiel), the moderators' corrections included. A correction
(:class:`~rules.actions.Correction`) goes through ``GameState.apply`` like a
faction's action: it is atomic (refused with a :class:`CorrectionError` citing
:data:`~rules.errors.MODERATOR_RULE`, nothing changed), stored and replayed from
the log, and undone or redone like any action. It is nobody's turn and answers
no prompt: the phase stays where it is, prompts stay open.

Forces keep their count: placed from the reserves, removed to the reserves or the
Tleilaxu Tanks. Spice is set, not moved (the moderator says what a shield hides),
and the event that announces it names no amount, as no card is named.
"""

from __future__ import annotations

from dataclasses import replace

from rules import suggest
from rules.actions import (
    Correction,
    GiveCard,
    PlaceForces,
    RemoveForces,
    SetSpice,
    SetStorm,
    TakeCard,
)
from rules.board import SECTOR_COUNT
from rules.components import treachery_card, treachery_cards
from rules.errors import CorrectionError, quote
from rules.events import (
    CardGiven,
    CardTaken,
    Event,
    ForcesPlaced,
    ForcesRemoved,
    SpiceSet,
    StormSet,
)
from rules.factions import Faction, same_card
from rules.model import FactionState, Prompt, Stack
from rules.phase_spec import handlers, on
from rules.position import Position


def correct(state: Position, action: Correction) -> list[Event]:
    """Carry out a correction (the caller restores the position on a refusal).

    An open Karama window keeps the position from before the ability it may cancel
    (:mod:`rules.karama`); the correction is made there too, so that a cancel does not
    take it back. A correction that cannot be made there is refused. Spice set now is
    changed there by as much (a cancelled payment still comes back to its payer).
    """
    change = _spice_change(state, action)
    events = HANDLERS[type(action)].run(state, action)
    state.set_phase(
        stages=tuple(
            tuple(_in_saved_position(state, p, action, change) for p in stage)
            for stage in state.phase.stages
        )
    )
    return events


def _spice_change(state: Position, action: Correction) -> int:
    if isinstance(action, SetSpice) and action.faction in state.factions:
        return action.amount - state.factions[action.faction].spice
    return 0


def _in_saved_position(
    state: Position, prompt: Prompt, action: Correction, spice_change: int
) -> Prompt:
    """``prompt`` with the correction made in the position it saved, if any."""
    if prompt.before is None:
        return prompt
    now = state.snapshot()
    try:
        state.restore(prompt.before)
        if isinstance(action, SetSpice):
            held = state.factions[action.faction].spice
            action = replace(action, amount=held + spice_change)
        correct(state, action)
        saved = replace(state.snapshot(), storm_sector=prompt.before.storm_sector)
    except CorrectionError as error:
        ability = prompt.ability.value.replace("_", " ") if prompt.ability else "an ability"
        raise CorrectionError(
            f"that correction cannot be made in the position before {ability}, which a "
            f"Karama card may still restore ({error}); make it after that window closes"
        ) from error
    finally:
        state.restore(now)
    return replace(prompt, before=saved)


def set_storm(state: Position, action: SetStorm) -> list[Event]:
    if not 1 <= action.sector <= SECTOR_COUNT:
        raise CorrectionError(f"the storm sector must be 1..{SECTOR_COUNT}, not {action.sector}")
    state.storm_sector = action.sector
    return [StormSet(action.sector)]


def place_forces(state: Position, action: PlaceForces) -> list[Event]:
    _some(action.forces, action.special)
    territory, sector = _piece(state, action.territory, action.sector)
    own = _faction(state, action.faction)
    _enough(own.reserves, "reserves", action.forces)
    _enough(own.special_reserves, "special reserves", action.special)
    placed = Stack(action.forces, action.special)
    state.from_reserves(action.faction, placed)
    state.add(action.faction, territory, sector, placed)
    return [
        ForcesPlaced(action.faction, territory, sector, action.forces, action.special),
    ]


def remove_forces(state: Position, action: RemoveForces) -> list[Event]:
    _some(action.forces, action.special)
    territory, sector = _piece(state, action.territory, action.sector)
    _faction(state, action.faction)
    there = state.stack(action.faction, territory, sector)
    _enough(there.forces, "forces", action.forces)
    _enough(there.special, "special", action.special)
    removed = Stack(action.forces, action.special)
    if action.to_tanks:
        state.to_tanks(action.faction, territory, sector, removed)
    else:
        state.remove(action.faction, territory, sector, removed)
        state.to_reserves(action.faction, removed)
    return [
        ForcesRemoved(
            action.faction, territory, sector, action.forces, action.special, action.to_tanks
        )
    ]


def set_spice(state: Position, action: SetSpice) -> list[Event]:
    if action.amount < 0:
        raise CorrectionError(f"spice cannot be negative ({action.amount})")
    _faction(state, action.faction)
    state.update(action.faction, spice=action.amount)
    return [SpiceSet(action.faction)]


def give_card(state: Position, action: GiveCard) -> list[Event]:
    own = _faction(state, action.faction)
    state.update(action.faction, cards=(*own.cards, _card(action.card)))
    return [CardGiven(action.faction)]


def take_card(state: Position, action: TakeCard) -> list[Event]:
    own = _faction(state, action.faction)
    held = next((c for c in own.cards if same_card(c, action.card)), None)
    if held is None:
        raise CorrectionError(f"{action.faction.label} hold no {_card(action.card)}")
    state.discard(action.faction, held)
    return [CardTaken(action.faction)]


HANDLERS = handlers(
    on(SetStorm, set_storm),
    on(PlaceForces, place_forces),
    on(RemoveForces, remove_forces),
    on(SetSpice, set_spice),
    on(GiveCard, give_card),
    on(TakeCard, take_card),
)


# -- checks ---------------------------------------------------------------------


def _card(text: str) -> str:
    """The treachery card ``text`` names, as printed; CorrectionError for any other text."""
    card = treachery_card(text)
    if card is None:
        close = suggest.closest(text.strip().title(), treachery_cards())
        hint = f"did you mean {close}?" if close else "the card option lists every card"
        raise CorrectionError(f"there is no treachery card {quote(text)} ({hint})")
    return card


def _some(forces: int, special: int) -> None:
    if forces == 0 and special == 0:
        raise CorrectionError("that moves no forces (forces and special are both 0)")


def _piece(state: Position, territory: str, sector: int | None) -> tuple[str, int | None]:
    """The territory's printed name and the sector meant (the only one, if not given)."""
    found = state.board.resolve(territory)
    if found is None:
        raise CorrectionError(f"unknown territory {quote(territory)}")
    if not found.sectors:
        return found.name, None
    if sector is None and len(found.sectors) == 1:
        return found.name, found.sectors[0]
    if sector not in found.sectors:
        sectors = ", ".join(str(s) for s in found.sectors)
        raise CorrectionError(f"{found.name} has sectors {sectors}, not {sector}")
    return found.name, sector


def _faction(state: Position, faction: Faction) -> FactionState:
    if not state.in_game(faction):
        raise CorrectionError(f"{faction.label} is not in this game")
    return state.factions[faction]


def _enough(held: int, what: str, amount: int) -> None:
    if amount < 0:
        raise CorrectionError(f"a count cannot be negative ({amount})")
    if held < amount:
        raise CorrectionError(f"only {held} {what} there, not {amount}")
