"""``/mod record ...``: the moderators record the phases the engine does not run yet.

Each record is previewed (the engine's dry run, in the table's words) with Confirm and
Cancel, like a player's ``/move``; Confirm checks again that the clicker moderates the game
and submits the record through the game's session, as an action of its log.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.record.records import record_preview
from cogs.common import (
    acknowledge_click,
    app_of,
    game_of,
    key_of,
    require_moderator,
    roles_of,
    state_of,
)
from cogs.errors import reply, report
from cogs.play.views import PREVIEW_ID, PreviewView, close_preview
from rules.actions import PhaseDone, Record


class ConfirmRecordView(PreviewView):
    """Under an ephemeral record preview: Confirm records it, Cancel drops it."""

    def __init__(self, game_id: int, action: Record | PhaseDone, *, live: set[str]) -> None:
        super().__init__(live=live)
        self.confirm.custom_id = f"{PREVIEW_ID}record:{self.nonce}"
        self.cancel.custom_id = f"{PREVIEW_ID}record-cancel:{self.nonce}"
        self.game_id = game_id
        self.action = action

    @discord.ui.button(label="Confirm", style=discord.ButtonStyle.success)
    async def confirm(
        self, interaction: discord.Interaction, button: discord.ui.Button[Any]
    ) -> None:
        try:
            await acknowledge_click(interaction)
            await app_of(interaction).record(
                self.game_id,
                interaction.user.id,
                self.action,
                key=key_of(interaction),
                roles=roles_of(interaction),
            )
        except Exception as error:
            await report(interaction, error)
            return
        self.stop()
        await close_preview(interaction, "Done: recorded and announced.")

    @discord.ui.button(label="Cancel", style=discord.ButtonStyle.secondary)
    async def cancel(
        self, interaction: discord.Interaction, button: discord.ui.Button[Any]
    ) -> None:
        self.stop()
        await acknowledge_click(interaction)
        await close_preview(interaction, "Cancelled: nothing was recorded.")


async def preview_record(interaction: discord.Interaction, action: Record | PhaseDone) -> None:
    """The game's moderators only: the record's preview, with Confirm and Cancel."""
    game_id = game_of(interaction)
    await require_moderator(interaction, game_id)
    text = record_preview(state_of(interaction, game_id), action)
    live: set[str] = getattr(interaction.client, "live_previews", set())
    await reply(interaction, text, view=ConfirmRecordView(game_id, action, live=live))
