"""Truthtrance's state (3.01.21): the last question asked, as a frozen value.

Kept apart from :mod:`rules.game_model` (which holds it in ``TurnState.truthtrance``), like
the auction. The question's words are secret between the asker and the target (FAQ 55: it
may be kept private): :mod:`rules.view` shows everyone only who asked whom while it is
open, and the two of them the words. The answer is public (its event).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.factions import Faction

YES, NO, NO_ANSWER = "yes", "no", "none"
ANSWERS = (YES, NO, NO_ANSWER)
"""An answer: yes, no, or none given (the deadline's default, or a moderator's skip)."""


@dataclass(frozen=True, slots=True)
class Question:
    """One Truthtrance question: open while ``answer`` is None, then kept (answered) until
    the next one, so that the asker and the target can read what was asked and answered."""

    asker: Faction
    target: Faction
    text: str  # secret: the asker's and the target's only
    number: int = 1  # the game's how-many-th Truthtrance (names the wait)
    answer: str | None = None  # one of ANSWERS once answered
    remark: str = ""  # what the target added to its answer (public with it)

    @property
    def open(self) -> bool:
        return self.answer is None

    def to_dict(self) -> dict[str, Any]:
        return {
            "asker": self.asker.value,
            "target": self.target.value,
            "text": self.text,
            "number": self.number,
            "answer": self.answer,
            "remark": self.remark,
        }


def question_from(data: Mapping[str, Any] | None) -> Question | None:
    if not data:
        return None
    answer = data.get("answer")
    return Question(
        asker=Faction(data["asker"]),
        target=Faction(data["target"]),
        text=str(data["text"]),
        number=int(data.get("number", 1)),
        answer=None if answer is None else str(answer),
        remark=str(data.get("remark", "")),
    )
