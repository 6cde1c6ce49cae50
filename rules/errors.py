"""Errors raised by the rules engine.

Every refusal is a :class:`RulesError` (a ``ValueError``) whose message says
what was wrong, quoting the input, and whose ``rule`` names the rule that
forbids it (for example ``"1.06.02.05"``). A refused action changes nothing.

:class:`MentatError` is the root of every routine refusal, the engine's and the
application's (session, store, orders, corrections, scenarios); :func:`quote`
quotes an input in a message without letting it grow past a few words.
"""

from __future__ import annotations

QUOTE_LIMIT = 80
"""At most this many characters of any input are quoted back in a message."""
MODERATOR_RULE = "moderator"
"""What a refused moderator's correction cites: no rule of the game forbids it, the position
does (:mod:`rules.corrections`). Front ends show the message without a rule number."""


class MentatError(Exception):
    """A routine refusal (an illegal action, a paused game, an unknown order...).

    The message says what was wrong; ``rule`` names the game rule behind it when
    there is one. Refusals are answered to the user, never logged as crashes.
    """

    def __init__(self, message: str = "", *, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule

    def __str__(self) -> str:
        return self.message


class RulesError(MentatError, ValueError):
    """An action the rules refuse; ``rule`` is the rule number it enforces."""

    rule: str

    def __init__(self, message: str, *, rule: str) -> None:
        super().__init__(message, rule=rule)


class InvalidActionError(RulesError):
    """The action is malformed: an unknown name, territory, sector or count."""


class IllegalActionError(RulesError):
    """The action is well formed but breaks a rule in this position."""


class NotYourTurnError(RulesError):
    """The faction may not act now (another faction is to act, or no prompt is open)."""


class AmbiguousActionError(RulesError):
    """The action could mean several things; the message says what to add."""


class CorrectionError(RulesError):
    """A moderator's correction that cannot be made (a negative count, an unknown territory,
    more forces than the reserves hold, a card not in this phase...); cites
    :data:`MODERATOR_RULE`."""

    def __init__(self, message: str, *, rule: str = MODERATOR_RULE) -> None:
        super().__init__(message, rule=rule)


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``value`` as quoted in a message: its ``repr``, cut to ``limit`` characters with "…"."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
