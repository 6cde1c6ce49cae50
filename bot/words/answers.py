"""A prompt's buttons: the engine's concrete actions, each in the words of its phase.

Actions are the currency (python-chess's ``Move``): a prompt carries the concrete actions
the engine lists for the faction now (:meth:`rules.game.GameState.legal_actions`), each
as an :class:`bot.publisher.Answer` with its words; a button submits the action it was
made for, found again by its key in the prompt as it reads at the click (the token has
made sure it is still the wait the prompt was made for). Each phase's words module gives
the words of its own actions (:func:`presents`); an action without words is a command's
(a shipment, a bribe), never a button.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from bot.publisher import Answer
from bot.words.phase_words import load
from rules.actions import Decline, FactionAction, Pass
from rules.game import GameState
from rules.turn_flow import STEP_NAMES

Words = Callable[[GameState, FactionAction], Answer | None]
"""A phase's words for one of its actions, as a button (None: no button for it now)."""
_WORDS: dict[type[FactionAction], Words] = {}


def presents(*kinds: type[FactionAction]) -> Callable[[Words], Words]:
    """Register a phase's words for its ``kinds`` of action (one presenter a kind)."""

    def register(words: Words) -> Words:
        for kind in kinds:
            if kind in _WORDS and _WORDS[kind] is not words:
                raise ValueError(f"{kind.__name__} has its words already")
            _WORDS[kind] = words
        return words

    return register


def buttons(state: GameState, actions: Iterable[FactionAction]) -> tuple[Answer, ...]:
    """The buttons of ``actions`` that have words, in order, each action once; a pass and
    a decline (the grey buttons) last."""
    load()  # each phase's words module registers its buttons
    found: dict[str, Answer] = {}
    for action in actions:
        words = _WORDS.get(type(action))
        answer = words(state, action) if words is not None else None
        if answer is not None:
            found.setdefault(answer.key, answer)
    return tuple(sorted(found.values(), key=lambda a: a.quiet))


def answer(state: GameState, action: FactionAction) -> Answer | None:
    """``action`` as a button, if its phase gives it words."""
    load()
    words = _WORDS.get(type(action))
    return words(state, action) if words is not None else None


@presents(Pass)
def pass_button(state: GameState, action: FactionAction) -> Answer:
    """A pass; the faction to act passes the step it is in (named: a repeated click is
    then refused, 1.06.00)."""
    turn = state.phase.turn
    if isinstance(action, Pass) and turn is not None and turn.faction is action.faction:
        action = replace(action, step=STEP_NAMES[turn.step])
    return Answer(action, "Pass", "Passed", quiet=True)


@presents(Decline)
def decline_button(state: GameState, action: FactionAction) -> Answer:
    return Answer(action, "Decline", "Declined", quiet=True)
