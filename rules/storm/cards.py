"""The storm cards of the Storm phase (turn 2 on, once the storm's move is known): Weather
Control (3.01.23) and Family Atomics (3.01.07). Whom the game asks about them is a function
of public facts only (docs/secrets-and-waits.md)."""

from __future__ import annotations

from dataclasses import replace

from rules.actions import Pass
from rules.components import treachery_cards
from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError, quote
from rules.events import Event, ForcesDestroyed, Passed
from rules.factions import Faction, same_card
from rules.game_model import GamePhase
from rules.position import Position
from rules.storm.actions import FamilyAtomics, WeatherControl
from rules.storm.events import StormCardPlayed
from rules.storm.model import (
    FAMILY_ATOMICS_RULE,
    WEATHER_CONTROL_RULE,
    StormStep,
    set_storm_turn,
    storm_turn,
)
from rules.storm.move import resolve, stack_key

WEATHER_CONTROL = "Weather Control"
FAMILY_ATOMICS = "Family Atomics"
SHIELD_WALL = "Shield Wall"
WEATHER_CONTROL_RANGE = range(11)


def move_known(state: Position, sectors: int) -> list[Event]:
    """The move is known: from turn 2 a storm card may be played first. Whom the game asks
    is a function of public facts only (docs/secrets-and-waits.md): every faction whose
    hand could hold one, in storm order; its player answers (a pass when it holds none)."""
    if state.whole.turn >= 2:
        asked = tuple(f for f in state.whole.order if may_hold_storm_card(state, f))
        if asked:
            set_storm_turn(state, replace(storm_turn(state.whole), move=sectors))
            state.set_game(waiting=asked, step=StormStep.STORM_CARDS)
            return []
    return resolve(state, sectors)


def may_hold_storm_card(state: Position, faction: Faction) -> bool:
    """Whether, as far as anyone else can tell, ``faction`` could play a storm card now: it
    holds a card (the count is public, 1.04.01) and Weather Control is not known to be out
    of every hand, or Family Atomics is not and its forces are by the Shield Wall."""
    if not state.factions[faction].cards:
        return False
    if not _known_out(state, WEATHER_CONTROL):
        return True
    return not _known_out(state, FAMILY_ATOMICS) and near_shield_wall(state, faction)


def _known_out(state: Position, card: str) -> bool:
    """Every copy of ``card`` lies face up in the discard pile or out of the game."""
    game = state.whole
    seen = [c for c in (*game.treachery_discard, *game.cards_out) if same_card(c, card)]
    return len(seen) >= treachery_cards().get(card, 0)


def playable(state: Position, faction: Faction) -> list[str]:
    """The storm cards ``faction`` could play now."""
    out = []
    if _held(state, faction, WEATHER_CONTROL):
        out.append(WEATHER_CONTROL)
    if _held(state, faction, FAMILY_ATOMICS) and near_shield_wall(state, faction):
        out.append(FAMILY_ATOMICS)
    return out


def _held(state: Position, faction: Faction, card: str) -> str | None:
    return next((c for c in state.factions[faction].cards if same_card(c, card)), None)


def near_shield_wall(state: Position, faction: Faction) -> bool:
    """Forces on the Shield Wall, or next to it with no storm sector between (3.01.07)."""
    wall = state.board[SHIELD_WALL]
    for (f, territory, sector), stack in state.stacks.items():
        if f is not faction or not stack.fighters:
            continue
        if territory == SHIELD_WALL:
            return True
        if territory not in wall.adjacent or state.in_storm(sector):
            continue
        part = next(
            p for p in state.board.storm_free_parts(territory, state.storm_sector) if sector in p
        )
        for piece in [(territory, s) for s in part]:
            for (name, there), _ in state.board.piece_links(piece):
                if name == SHIELD_WALL and not state.in_storm(there):
                    return True
    return False


def _require_cards(state: Position, faction: Faction, rule: str) -> None:
    game = state.whole
    if not state.in_phase(GamePhase.STORM) or game.step != StormStep.STORM_CARDS:
        raise NotYourTurnError(
            "storm cards are played from turn 2, once the storm's move is known", rule=rule
        )
    if faction not in game.waiting:
        raise NotYourTurnError(f"{faction.label} is not asked about storm cards now", rule=rule)


def _after_card(state: Position, faction: Faction) -> list[Event]:
    """The player stays asked while, on public facts, it could play the other card."""
    waiting = state.whole.waiting
    if not may_hold_storm_card(state, faction):
        waiting = tuple(f for f in waiting if f != faction)
    state.set_game(waiting=waiting)
    if waiting:
        return []
    move = storm_turn(state.whole).move
    return resolve(state, move if move is not None else 0)


def weather_control(state: Position, action: WeatherControl) -> list[Event]:
    _require_cards(state, action.faction, WEATHER_CONTROL_RULE)
    card = _held(state, action.faction, WEATHER_CONTROL)
    if card is None:
        raise IllegalActionError(
            f"{action.faction.label} holds no Weather Control", rule=WEATHER_CONTROL_RULE
        )
    if action.sectors not in WEATHER_CONTROL_RANGE:
        raise InvalidActionError(
            f"Weather Control moves the storm 0 to 10 sectors, not {quote(action.sectors)}",
            rule=WEATHER_CONTROL_RULE,
        )
    state.discard(action.faction, card)
    set_storm_turn(state, replace(storm_turn(state.whole), move=action.sectors))
    played = StormCardPlayed(action.faction, card, action.sectors, WEATHER_CONTROL_RULE)
    return [played, *_after_card(state, action.faction)]


def family_atomics(state: Position, action: FamilyAtomics) -> list[Event]:
    _require_cards(state, action.faction, FAMILY_ATOMICS_RULE)
    card = _held(state, action.faction, FAMILY_ATOMICS)
    if card is None or not near_shield_wall(state, action.faction):
        raise IllegalActionError(
            f"{action.faction.label} needs Family Atomics and forces on or next to the Shield "
            "Wall with no storm between",
            rule=FAMILY_ATOMICS_RULE,
        )
    cards = list(state.factions[action.faction].cards)
    cards.remove(card)
    state.update(action.faction, cards=tuple(cards))
    state.set_game(cards_out=(*state.whole.cards_out, card), shield_wall_destroyed=True)
    events: list[Event] = [StormCardPlayed(action.faction, card, None, FAMILY_ATOMICS_RULE)]
    for (faction, territory, sector), stack in sorted(
        state.stacks_in(SHIELD_WALL).items(), key=stack_key
    ):
        state.to_tanks(faction, territory, sector, stack)
        events.append(
            ForcesDestroyed(
                faction,
                territory,
                sector,
                stack.forces,
                stack.special,
                stack.advisors,
                "family_atomics",
                FAMILY_ATOMICS_RULE,
            )
        )
    return events + _after_card(state, action.faction)


def pass_cards(state: Position, action: Pass) -> list[Event]:
    _require_cards(state, action.faction, WEATHER_CONTROL_RULE)
    waiting = tuple(f for f in state.whole.waiting if f != action.faction)
    state.set_game(waiting=waiting)
    events: list[Event] = [Passed(action.faction, "storm")]
    if waiting:
        return events
    move = storm_turn(state.whole).move
    return events + resolve(state, move if move is not None else 0)
