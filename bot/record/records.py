"""The moderators' records (of the battle they record; in bidding and revival, which the
engine runs, a record is a correction): their preview, as the engine's dry run, in the
public words the table will read."""

from __future__ import annotations

from bot.words import ceremony
from rules.actions import PhaseDone, Record
from rules.game import GameState

MAX_PREVIEW = 1800  # Discord's 2000 characters, with room for the frame


def record_preview(state: GameState, action: Record | PhaseDone) -> str:
    """What ``action`` would record now, or the RulesError it would meet (raised)."""
    trial = state.dry_run(action)
    lines = ceremony.lines(trial.events, trial.public) or ["Nothing to announce."]
    body = "\n".join(lines)
    if len(body) > MAX_PREVIEW:
        body = body[: MAX_PREVIEW - 1] + "…"
    return f"**Preview** (only you see this)\n{body}\nConfirm to record it."
