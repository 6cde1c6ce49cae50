"""``rules.frozen.evolver``: ``dataclasses.replace`` for the engine's frozen values, faster."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import pytest

from rules.factions import Faction
from rules.frozen import evolver
from rules.model import FactionState, Phase, Prompt, PromptKind, Turn


def test_a_changed_phase_is_what_replace_gives_and_the_original_stays() -> None:
    phase = Phase(order=(Faction.FREMEN, Faction.EMPEROR), done=frozenset({Faction.FREMEN}))
    prompt = Prompt(PromptKind.GUILD_TIMING, (Faction.SPACING_GUILD,), subject=Faction.FREMEN)
    changes: dict[str, Any] = {"turn": Turn(Faction.EMPEROR), "stages": ((prompt,),)}
    changed = evolver(Phase)(phase, changes)
    assert changed == replace(phase, **changes)
    assert type(changed) is Phase
    assert changed.to_dict() == replace(phase, **changes).to_dict()
    assert phase.turn is None and phase.stages == ()
    assert changed.order == phase.order and changed.done == phase.done


def test_a_changed_value_is_still_frozen_and_as_small() -> None:
    changed = evolver(FactionState)(FactionState(spice=3, cards=("Lasgun",)), {"spice": 5})
    assert changed == FactionState(spice=5, cards=("Lasgun",))
    with pytest.raises(AttributeError):
        changed.spice = 9  # type: ignore[misc]
    assert not hasattr(changed, "__dict__")


def test_no_change_is_an_equal_copy() -> None:
    holdings = FactionState(spice=2, reserves=10)
    copy = evolver(FactionState)(holdings, {})
    assert copy == holdings and copy is not holdings


def test_an_unknown_field_is_refused_as_replace_refuses_it() -> None:
    evolve = evolver(FactionState)
    with pytest.raises(TypeError, match="FactionState has no field 'gold'"):
        evolve(FactionState(), {"gold": 1})
    with pytest.raises(TypeError):
        replace(FactionState(), gold=1)  # type: ignore[call-arg]


@dataclass(frozen=True)
class _NoSlots:
    a: int = 0


@dataclass(frozen=True, slots=True)
class _Checked:
    a: int = 0

    def __post_init__(self) -> None:
        if self.a < 0:
            raise ValueError("negative")


@dataclass(slots=True)
class _Mutable:
    a: int = 0


@pytest.mark.parametrize("cls", [_NoSlots, _Checked, _Mutable])
def test_only_frozen_slotted_values_without_post_init_are_accepted(cls: type[Any]) -> None:
    with pytest.raises(TypeError):
        evolver(cls)
