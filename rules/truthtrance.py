"""Truthtrance (3.01.21): one yes/no question to another player, answered truthfully.

Readings (docs/whole-turn-readings.md, T1-T5): played at any time of a whole game once the
turns have begun (not at set-up, not once it is over), inside any phase, but not while a
Shipment & Movement prompt is open (nobody acts while an ability is being resolved,
1.00.05). The card is discarded. The question's words stay between the asker and the target
(FAQ 55); everyone learns who asked whom, then the answer. While the question is open the
game waits for the answer as for a prompt: every other faction action is refused (the
moderators' corrections aside), and on the deadline the answer is "none" (no answer given).
"""

from __future__ import annotations

import unicodedata
from dataclasses import replace

from rules.actions import Action, AnswerTruthtrance, FactionAction, PlayTruthtrance
from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError, quote
from rules.events import Event, TruthtranceAnswered, TruthtrancePlayed
from rules.factions import Faction, same_card
from rules.game_model import GamePhase
from rules.position import Position
from rules.truthtrance_model import ANSWERS, NO, YES, Question

TRUTHTRANCE = "Truthtrance"
RULE = "3.01.21"
QUESTION_LIMIT = 300
"""The longest question, in characters (after runs of spaces are made one)."""
REMARK_LIMIT = 200
"""The longest remark an answer may carry."""
PROBE = "?"
"""A question used to test whether a Truthtrance could be played now (legal kinds)."""


def open_question(state: Position) -> Question | None:
    """The question the game waits on, if one is open."""
    game = state.game
    if game.truthtrance is None or not game.truthtrance.open:
        return None
    return game.truthtrance


def check_held(state: Position, action: Action) -> None:
    """While a question is open the game waits for its answer: only the target's answer
    (and a moderator's correction, which never comes here) is taken."""
    question = open_question(state)
    if question is None or isinstance(action, AnswerTruthtrance):
        return
    waits = (
        f"the game waits for {question.target.label} to answer the question "
        f"{question.asker.label} asked with Truthtrance"
    )
    if isinstance(action, PlayTruthtrance):
        raise IllegalActionError(f"a Truthtrance question is already open: {waits}", rule=RULE)
    raise NotYourTurnError(waits, rule=RULE)


def play(state: Position, action: PlayTruthtrance) -> list[Event]:
    asker = action.faction
    game = state.whole
    if game.phase in (GamePhase.SETUP, GamePhase.OVER):
        raise NotYourTurnError("Truthtrance is played once the turns have begun", rule=RULE)
    state.check_nothing_resolving()
    card = _held(state, asker)
    if card is None:
        raise IllegalActionError(f"{asker.label} holds no Truthtrance", rule=RULE)
    target = Faction.parse(action.target[:40])
    if target is None or target is asker or not state.in_game(target):
        raise IllegalActionError(
            f"Truthtrance asks another faction in the game, not {quote(action.target)}", rule=RULE
        )
    text = clean(action.question)
    if not visible(text):
        raise InvalidActionError("Truthtrance asks one question: it is empty", rule=RULE)
    if len(text) > QUESTION_LIMIT:
        raise InvalidActionError(
            f"a question is at most {QUESTION_LIMIT} characters, not {len(text)}: {quote(text)}",
            rule=RULE,
        )
    number = game.truthtrance.number + 1 if game.truthtrance else 1
    state.discard(asker, card)
    state.set_game(truthtrance=Question(asker, target, text, number))
    return [TruthtrancePlayed(asker, target, RULE)]


def answer(state: Position, action: AnswerTruthtrance) -> list[Event]:
    question = open_question(state)
    if question is None:
        raise NotYourTurnError("no Truthtrance question is open", rule=RULE)
    if action.faction is not question.target:
        raise NotYourTurnError(
            f"{question.asker.label} asked {question.target.label}, "
            f"not {action.faction.label}: only {question.target.label} answers",
            rule=RULE,
        )
    said = action.answer.strip().lower()
    if said not in ANSWERS:
        raise InvalidActionError(
            f"a Truthtrance is answered yes or no, not {quote(action.answer)}", rule=RULE
        )
    remark = clean(action.remark)
    if len(remark) > REMARK_LIMIT:
        raise InvalidActionError(
            f"a remark is at most {REMARK_LIMIT} characters, not {len(remark)}: {quote(remark)}",
            rule=RULE,
        )
    state.set_game(truthtrance=replace(question, answer=said, remark=remark))
    return [TruthtranceAnswered(question.target, question.asker, said, remark, RULE)]


def clean(text: str) -> str:
    """Runs of spaces and line breaks made one space, the ends trimmed."""
    return " ".join(str(text).split())


UNSEEN = ("Cc", "Cf", "Mn", "Me", "Zs", "Zl", "Zp")
"""Unicode categories that show nothing on their own: controls, zero-width and format
characters, combining marks, spaces."""


def visible(text: str) -> bool:
    """Does ``text`` show anything (not only zero-width, combining or blank characters)?"""
    return any(unicodedata.category(c) not in UNSEEN and c != "\u2800" for c in text)


def _held(state: Position, faction: Faction) -> str | None:
    return next((c for c in state.factions[faction].cards if same_card(c, TRUTHTRANCE)), None)


def holds_card(state: Position, faction: Faction) -> bool:
    return state.in_game(faction) and _held(state, faction) is not None


def answers(state: Position, faction: Faction) -> list[FactionAction]:
    """The target's answers to the open question (a player answers yes or no)."""
    question = open_question(state)
    if question is None or question.target is not faction:
        return []
    return [AnswerTruthtrance(faction, YES), AnswerTruthtrance(faction, NO)]
