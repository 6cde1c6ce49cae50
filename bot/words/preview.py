"""The ephemeral preview of a shipment or move: what it would do, as the engine's dry run."""

from __future__ import annotations

from bot.words import narrate
from rules.actions import FactionAction
from rules.events import TurnStarted
from rules.game import GameState


def preview(state: GameState, action: FactionAction, note: str = "") -> str:
    """What ``action`` would do now, or the RulesError it would meet (raised); ``note``
    adds a line (where a share of the payment comes from, ...)."""
    trial = state.dry_run(action)
    spice_before = state.factions[action.faction].spice
    lines = [
        line
        for e in trial.events
        if not isinstance(e, TurnStarted) and (line := narrate.describe(e))
    ]
    spice_after = trial.private.spice if trial.private else spice_before
    if spice_after != spice_before:
        lines.append(f"Your spice: {spice_before} → {spice_after}.")
    if note:
        lines.append(note)
    if trial.public.to_act is action.faction:
        lines += [
            f"If your turn ended now, the alliance constraint would send "
            f"{narrate.count(lost.forces, lost.special, of=action.faction)} in "
            f"{narrate.where(territory, sector)} "
            "to the Tleilaxu Tanks (1.06.03.08)."
            for territory, sector, lost in trial.alliance_losses
        ]
    return "**Preview**\n" + "\n".join(lines) + "\nConfirm to submit it."
