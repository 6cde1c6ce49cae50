"""The ephemeral preview of a shipment or move: what it would do, tried on a copy."""

from __future__ import annotations

from bot import narrate
from rules.actions import FactionAction
from rules.game import GameState


def preview(state: GameState, action: FactionAction) -> str:
    """What ``action`` would do now, or the RulesError it would meet (raised)."""
    trial = GameState.from_dict(state.to_dict())
    spice_before = trial.factions[action.faction].spice
    events = trial.apply(action)
    lines = [line for e in events if e.kind != "turn_started" and (line := narrate.describe(e))]
    spice_after = trial.factions[action.faction].spice
    if spice_after != spice_before:
        lines.append(f"Your spice: {spice_before} → {spice_after}.")
    return "**Preview**\n" + "\n".join(lines) + "\nConfirm to submit it."
