"""What a phase waits on: the faction to act in its step, or an open stage of prompts.

A :class:`Wait`'s ``key`` names it exactly, so the session can tell whether what is
awaited changed (a new deadline, new prompt messages) or not (a correction, a pause).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.factions import Faction
from rules.game import GameState


@dataclass(frozen=True, slots=True)
class Wait:
    """What the phase waits on now: its identity, kind and who may end it."""

    key: str
    kind: str  # "step" or "prompt"
    factions: tuple[Faction, ...]


def wait_of(state: GameState) -> Wait | None:
    """What ``state`` waits on (None once the phase is complete)."""
    if state.is_complete:
        return None
    prompts = state.open_prompts()
    if prompts:
        who = tuple(dict.fromkeys(f for p in prompts for f in p.waiting_on()))
        parts = [f"{p.kind.value}/{p.subject}/{p.ability}/{p.territory}" for p in prompts]
        return Wait("prompts:" + "|".join(parts), "prompt", who)
    turn = state.phase.turn
    assert turn is not None
    key = f"turn:{turn.faction.value}:{turn.step.value}:{turn.moves_made}:{turn.hajr_played}"
    return Wait(key + f":{sorted(f.value for f in state.phase.done)}", "step", (turn.faction,))
