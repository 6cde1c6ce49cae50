"""Errors raised by the rules engine.

Every refusal is a :class:`RulesError` (a ``ValueError``) whose message says
what was wrong, quoting the input, and whose ``rule`` names the rule that
forbids it (for example ``"1.06.02.05"``). A refused action changes nothing.
"""

from __future__ import annotations


class RulesError(ValueError):
    """An action the rules refuse; ``rule`` is the rule number it enforces."""

    def __init__(self, message: str, *, rule: str) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule

    def __str__(self) -> str:
        return self.message


class InvalidActionError(RulesError):
    """The action is malformed: an unknown name, territory, sector or count."""


class IllegalActionError(RulesError):
    """The action is well formed but breaks a rule in this position."""


class NotYourTurnError(RulesError):
    """The faction may not act now (another faction is to act, or no prompt is open)."""


class AmbiguousActionError(RulesError):
    """The action could mean several things; the message says what to add."""
