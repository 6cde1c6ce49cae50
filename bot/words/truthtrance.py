"""Truthtrance in words (3.01.21; docs/whole-turn-readings.md, T1-T5).

The table reads who asked whom (:func:`describe_event`, :func:`describe_wait`) and then the
answer, never the question: the question's words travel only in the target's prompt
(:func:`question_prompt`) and in the asker's own lines (:func:`private_lines`), both
addressed to that faction alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from bot.publisher import Answer, PrivateNotice
from bot.words.answers import buttons, presents
from bot.words.common import possessive
from rules.actions import AnswerTruthtrance, FactionAction
from rules.events import Event, TruthtranceAnswered, TruthtrancePlayed
from rules.factions import Faction
from rules.game import GameState
from rules.truthtrance_model import NO_ANSWER
from rules.view import PrivateView, PublicView

ANSWER_WORDS = {"yes": "Yes", "no": "No", NO_ANSWER: "no answer given"}
"""The prompt's one kind of answer (its Yes and No buttons)."""


def _of(faction: Faction) -> str:
    return f"the {possessive(faction)}"


MARKUP = re.compile(r"([\\*_~`|\[\]])")
"""Discord's markdown in a player's words: bold, italics, strike, code, spoilers, masked
links (``[Yes](https://...)``), each escaped so that it reads as typed."""
MENTION = re.compile(r"<(@[!&]?|#|t:)|@(?=everyone|here)")
"""The start of a mention (a user, a role, a channel, ``@everyone``/``@here``) or of a
timestamp (``<t:...>``, which would read as the bot's own deadline)."""
ZERO_WIDTH = "\u200b"


def inert(text: str) -> str:
    """A player's own words (a question, a remark) as literal text: no markdown, and no
    mention (a zero-width space after its ``@`` or ``#``), so that they can neither ping,
    link nor dress up as the bot's own words; no braces (no player marks)."""
    text = MARKUP.sub(r"\\\1", text.replace("{", "(").replace("}", ")"))
    return MENTION.sub(lambda m: m.group(0) + ZERO_WIDTH, text)


def remark_words(remark: str) -> str:
    """A remark as the table reads it: quoted, as typed (:func:`inert`)."""
    text = inert(remark.replace("“", '"').replace("”", '"'))
    return f" (“{text}”)" if text else ""


def describe_event(event: Event) -> str | None:
    """The public sentence of a Truthtrance event (who asked whom; the answer)."""
    match event:
        case TruthtrancePlayed(faction=asker, target=target):
            return (
                f"{asker.label} plays Truthtrance on {target.label}: a yes/no question, asked "
                f"privately; {target.label} must answer it truthfully."
            )
        case TruthtranceAnswered(faction=target, asker=asker, answer=answer) if answer == NO_ANSWER:
            return f"{target.label} gives no answer to {_of(asker)} Truthtrance question in time."
        case TruthtranceAnswered(faction=target, asker=asker, answer=answer, remark=remark):
            said = ANSWER_WORDS.get(answer, answer)
            return (
                f"{target.label} answer {_of(asker)} Truthtrance question: "
                f"**{said}**{remark_words(remark)}."
            )
    return None


def describe_wait(view: PublicView) -> str:
    """ "Waiting for ... to answer ...'s Truthtrance question." ("" when none is open)."""
    game = view.game
    if game.truthtrance is None:
        return ""
    asker, target = game.truthtrance
    return f"Waiting for {target.label} to answer {_of(asker)} Truthtrance question."


def _question(view: PrivateView) -> dict[str, Any] | None:
    return view.secrets.truthtrance


def private_lines(events: Iterable[Event], view: PrivateView) -> list[str]:
    """The asker's own side: what it asked, and the answer to it (the target reads the
    question in its prompt)."""
    question = _question(view)
    if question is None or Faction(question["asker"]) is not view.faction:
        return []
    target = Faction(question["target"]).label
    text = inert(question["text"])
    lines: list[str] = []
    for event in events:
        if isinstance(event, TruthtrancePlayed) and event.faction is view.faction:
            lines.append(
                f"You ask {target} with Truthtrance: “{text}”. Only the two of you see it."
            )
        if isinstance(event, TruthtranceAnswered) and event.asker is view.faction:
            said = ANSWER_WORDS.get(event.answer, event.answer)
            if event.answer == NO_ANSWER:
                lines.append(f"{target} gave no answer in time to your question “{text}”.")
                continue
            lines.append(
                f"{target} answered your Truthtrance question “{text}”: "
                f"**{said}**{remark_words(event.remark)}."
            )
    return lines


def status_line(view: PrivateView) -> str | None:
    """``/status``: the last question the faction asked or was asked, and its answer."""
    question = _question(view)
    if question is None:
        return None
    asker, target = Faction(question["asker"]), Faction(question["target"])
    answer = question["answer"]
    said = "not answered yet" if answer is None else f"answer: {ANSWER_WORDS.get(answer, answer)}"
    shown = answer not in (None, NO_ANSWER)
    remark = remark_words(_short(question["remark"])) if shown else ""
    who = f"you asked {target.label}" if asker is view.faction else f"{asker.label} asked you"
    return f"Truthtrance: {who} “{inert(_short(question['text']))}” ({said}{remark})."


STATUS_QUOTE = 80
"""``/status`` quotes at most this many characters of a question and of a remark (the two
players' own messages hold them whole), so that a long one never crowds the rest out."""


def _short(text: str) -> str:
    return text if len(text) <= STATUS_QUOTE else text[: STATUS_QUOTE - 1] + "…"


def moderator_lines(events: Iterable[Event], state: GameState) -> list[str]:
    """For the moderators' channel: each question played, in its words (the moderators
    referee it, and may answer for an absent target)."""
    game = state.game
    question = game.truthtrance
    if question is None:
        return []
    return [
        f"Truthtrance: {question.asker.label} ask {question.target.label} (only the two of "
        f"them and you see it): “{inert(question.text)}”"
        for event in events
        if isinstance(event, TruthtrancePlayed)
    ]


def is_asked(state: GameState, faction: Faction) -> bool:
    """Is ``faction`` the target of the open Truthtrance question?"""
    game = state.game
    question = game.truthtrance
    return question is not None and question.open and question.target is faction


def question_prompt(
    state: GameState, faction: Faction, token: str | None, deadline: str
) -> PrivateNotice:
    """The target's prompt: the question, Yes and No buttons, the default, the deadline."""
    question = state.whole.truthtrance
    assert question is not None
    lines = [
        f"**Truthtrance**: {question.asker.label} ask you, and you must answer truthfully "
        f"(3.01.21): “{inert(question.text)}”",
        "Answer **Yes** or **No** with a button, or with `/truthtrance answer` to add a short "
        "remark. Only you and the asker see the question; the table sees your answer. "
        f"The game waits for it. If you do not answer in time, no answer is given. "
        f"Deadline: {deadline}.",
    ]
    answers = buttons(state, state.legal_actions(faction))
    return PrivateNotice(faction, "\n".join(lines), answers=answers, token=token)


@presents(AnswerTruthtrance)
def answer_button(state: GameState, action: FactionAction) -> Answer | None:
    """The target's Yes and No (a remark needs ``/truthtrance answer``; no answer is the
    deadline's, never a button)."""
    if not isinstance(action, AnswerTruthtrance) or action.answer not in ("yes", "no"):
        return None
    word = action.answer.capitalize()
    return Answer(action, word, f"You answered {word}; the table sees it")


def answer_words(answer: str, remark: str = "") -> str:
    """What a faction answered, in its own words ("you answer Yes")."""
    if answer == NO_ANSWER:
        return "no answer is given to the Truthtrance question"
    return f"you answer {ANSWER_WORDS.get(answer, answer)}{remark_words(remark)}"
