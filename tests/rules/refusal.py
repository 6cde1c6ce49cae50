"""Assert that the engine refuses an action and leaves the position untouched."""

from __future__ import annotations

from typing import Any

import pytest

from rules.errors import RulesError
from rules.game import GameState
from tests.rules.helpers import act


def refused(
    state: GameState,
    error: type[RulesError],
    rule: str,
    faction: str,
    action: str,
    **fields: Any,
) -> RulesError:
    """Apply an action that must be refused with ``error`` citing ``rule``; nothing changes."""
    before = state.to_dict()
    with pytest.raises(error) as info:
        act(state, faction, action, **fields)
    assert type(info.value) is error, f"{type(info.value).__name__}: {info.value}"
    assert info.value.rule == rule, info.value.message
    assert state.to_dict() == before
    return info.value
