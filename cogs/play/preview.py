"""The ephemeral preview of a shipment or move: what it would do, tried on a copy."""

from __future__ import annotations

from bot import narrate
from rules.actions import FactionAction
from rules.game import GameState


def preview(state: GameState, action: FactionAction, note: str = "") -> str:
    """What ``action`` would do now, or the RulesError it would meet (raised); ``note``
    adds a line (where a share of the payment comes from, ...)."""
    trial = GameState.from_dict(state.to_dict())
    spice_before = trial.factions[action.faction].spice
    events = trial.apply(action)
    lines = [line for e in events if e.kind != "turn_started" and (line := narrate.describe(e))]
    spice_after = trial.factions[action.faction].spice
    if spice_after != spice_before:
        lines.append(f"Your spice: {spice_before} → {spice_after}.")
    if note:
        lines.append(note)
    if trial.to_act() is action.faction:
        lines += [
            f"If your turn ended now, the alliance constraint would send "
            f"{narrate.count(lost.forces, lost.special)} in {narrate.where(territory, sector)} "
            "to the Tleilaxu Tanks (1.06.03.08)."
            for territory, sector, lost in trial.alliance_losses(action.faction)
        ]
    return "**Preview**\n" + "\n".join(lines) + "\nConfirm to submit it."
