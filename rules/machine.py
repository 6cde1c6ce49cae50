"""The phase machine: dispatch an action to its phase, then move the game on.

Each phase is declared once, as a :class:`~rules.phase_spec.PhaseSpec` in the registry
(:data:`rules.phases.REGISTRY`): its actions and their handlers, how it begins, its pass
and its "phase done". The machine hands an action to the phase under way (the
Shipment & Movement phase runs its turns and prompts itself,
:mod:`rules.shipment_movement`), the any-time actions to their table and the moderators'
corrections to :mod:`rules.corrections`; after each action it begins the phases that need
no choice and moves on from those done.
"""

from __future__ import annotations

from rules import (
    bribes,
    corrections,
    karama_turn,
    truthtrance,
    turn_flow,
)
from rules.actions import (
    Action,
    AnswerTruthtrance,
    Bribe,
    Correction,
    FactionAction,
    FremenAllyWorm,
    GiveSpice,
    KaramaPrevent,
    KaramaWorm,
    PlayTruthtrance,
)
from rules.errors import NotYourTurnError
from rules.events import Event, PhaseBegan
from rules.game_model import TURN_PHASES, GamePhase, PhaseStep
from rules.model import Snapshot
from rules.phase_spec import handlers, on
from rules.phases import GAME_OVER_RULE, REGISTRY, rule_of
from rules.position import Position
from rules.shipment_movement import start_phase as start_phase


def apply_action(state: Position, action: Action) -> list[Event]:
    """Carry out ``action`` on ``state`` (the caller restores the position on a refusal)."""
    own, steps = apply_split(state, action)
    return own + steps


def apply_split(
    state: Position, action: Action, ends: list[tuple[int, Snapshot]] | None = None
) -> tuple[list[Event], list[Event]]:
    """:func:`apply_action`, its events split in two: the action's own, and those of the
    steps the engine then ran by itself (phases begun, blown, collected...).

    A moderator's correction is nobody's turn and answers no prompt: it changes the
    position and leaves the phase where it is (even a complete phase or a game over),
    with no steps after it. ``ends``: see :func:`advance`.
    """
    if isinstance(action, Correction):
        return corrections.correct(state, action), []
    if isinstance(action, FactionAction) and not state.in_game(action.faction):
        raise NotYourTurnError(
            f"{action.faction.label} is not in this game", rule=turn_flow.ORDER_RULE
        )
    game = state.game
    if game.halted:
        raise NotYourTurnError(
            f"the game is stopped before the {phase_name(game.phase)} phase of turn {game.turn}",
            rule=rule_of(game.phase),
        )
    truthtrance.check_held(state, action)  # an open Truthtrance question waits (3.01.21)
    if any_time(action):
        own = ANY_TIME_HANDLERS[type(action)].run(state, action)
    else:
        own = _phase_action(state, action)
    return own, advance(state, ends)


def _karama_prevent(state: Position, action: KaramaPrevent) -> list[Event]:
    """A Karama against a whole turn's ✷ ability (reading K1): what it stops at once in a
    phase's part (the Emperor's payment for its ally's revival, 2.03.07, if open now), each
    phase's ``prevented`` says."""
    events = karama_turn.prevent(state, action)
    for spec in REGISTRY.values():
        if spec.prevented is not None:
            events += spec.prevented(state)
    return events


ANY_TIME_HANDLERS = handlers(
    on(KaramaPrevent, _karama_prevent),
    on(KaramaWorm, karama_turn.karama_worm),
    on(FremenAllyWorm, karama_turn.ally_worm),
    on(Bribe, bribes.bribe),
    on(GiveSpice, bribes.give_spice),  # the Emperor, to its ally (2.03.06)
    on(PlayTruthtrance, truthtrance.play),  # Truthtrance: a question, any time (3.01.21)
    on(AnswerTruthtrance, truthtrance.answer),
    *(entry for spec in REGISTRY.values() for entry in spec.any_time.values()),
)
"""Whole-game actions played in any phase: they leave the phase where it is (a phase's
own, such as the Tleilaxu Ghola, declared by its spec's ``any_time``)."""


def any_time(action: Action) -> bool:
    if isinstance(action, KaramaPrevent):
        return action.ability in karama_turn.TURN_ABILITIES
    return type(action) in ANY_TIME_HANDLERS


def _phase_action(state: Position, action: Action) -> list[Event]:
    """An action of the phase under way, carried out by its spec (the registry)."""
    game = state.whole
    phase = game.phase
    if phase is GamePhase.OVER:
        raise NotYourTurnError(
            game_over(state), rule=game.winner.rule if game.winner else GAME_OVER_RULE
        )
    spec = REGISTRY[phase]
    if spec.dispatch is not None:
        return spec.dispatch(state, action)
    entry = spec.handler(action)
    if entry is None:
        raise NotYourTurnError(
            f"{action.name.replace('_', ' ')} is not an action of the {phase_name(phase)} "
            f"phase (turn {game.turn})",
            rule=spec.rule,
        )
    return entry.run(state, action)


def game_over(state: Position) -> str:
    game = state.whole
    if game.winner is None:
        return "the game is over"
    names = " and ".join(f.label for f in game.winner.factions)
    return f"the game is over: {names} won ({game.winner.how}) on turn {game.turn}"


def phase_name(phase: GamePhase) -> str:
    return phase.value.replace("_", " ").replace("choam", "CHOAM")


def advance(state: Position, ends: list[tuple[int, Snapshot]] | None = None) -> list[Event]:
    """Carry out every step that needs no choice: begin phases, close finished ones,
    and stop where the game waits for a faction or the moderator (or is over).

    ``ends``, when given, receives the position as each phase ended, before the next
    began: (the index of that :class:`~rules.events.PhaseBegan` among the events, the
    position), so that a map can show the moment it illustrates."""
    events: list[Event] = []
    while True:
        game = state.whole
        if game.phase is GamePhase.OVER or game.waiting or game.halted or game.stopped:
            return events
        spec = REGISTRY[game.phase]
        if game.step == PhaseStep.BEGIN:
            events += spec.begin(state)
        elif spec.finished is not None and spec.finished(state):
            state.set_game(step=PhaseStep.DONE)
        elif game.step == PhaseStep.DONE:
            if ends is not None:
                ends.append((len(events), state.snapshot()))
            events += _next_phase(state)
        else:
            return events


def _next_phase(state: Position) -> list[Event]:
    """The phase after this one in the registry's order of play; after the last, the
    next turn's first."""
    game = state.whole
    order = tuple(REGISTRY)
    at = order.index(game.phase) + 1
    if at < len(order):
        nxt, turn = order[at], game.turn
    else:
        nxt, turn = TURN_PHASES[0], game.turn + 1
    state.set_game(phase=nxt, turn=turn, step=PhaseStep.BEGIN, waiting=())
    return [PhaseBegan(turn, nxt.value)]
