"""Buttons: the Confirm / Cancel of a preview, and the persistent answers to prompts."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.publisher import PrivateNotice
from bot.session import SessionError
from cogs.common import app_of, key_of, roles_of
from cogs.errors import reply, report
from rules.actions import Advise, FactionAction
from rules.board import POLAR_SINK
from rules.factions import Faction
from rules.game import GameState

log = logging.getLogger(__name__)

PREVIEW_TIMEOUT_S = 600


class ConfirmActionView(discord.ui.View):
    """Under an ephemeral preview: Confirm submits the action, Cancel drops it."""

    def __init__(self, game_id: int, action: FactionAction, user_id: int) -> None:
        super().__init__(timeout=PREVIEW_TIMEOUT_S)
        self.game_id = game_id
        self.action = action
        self.user_id = user_id

    @discord.ui.button(label="Confirm", style=discord.ButtonStyle.success)
    async def confirm(
        self, interaction: discord.Interaction, button: discord.ui.Button[Any]
    ) -> None:
        try:
            await interaction.response.defer()
            app = app_of(interaction)
            await app.require_player(
                self.game_id,
                interaction.user.id,
                self.action.faction,
                roles=roles_of(interaction),
            )
            await app.submit(
                self.game_id, self.action, actor=interaction.user.id, key=key_of(interaction)
            )
        except Exception as error:
            await report(interaction, error)
            return
        self.stop()
        await interaction.edit_original_response(content="Done: submitted.", view=None)

    @discord.ui.button(label="Cancel", style=discord.ButtonStyle.secondary)
    async def cancel(
        self, interaction: discord.Interaction, button: discord.ui.Button[Any]
    ) -> None:
        self.stop()
        await interaction.response.edit_message(content="Cancelled: nothing was done.", view=None)


LABELS = {
    "pass": "Pass",
    "decline": "Decline",
    "karama_cancel": "Cancel it with Karama",
    "karama_stop_shipment": "Stop the shipment (Karama)",
    "advise_sink": "Advise: Polar Sink",
    "advise_here": "Advise: there",
    "flip": "Flip",
    "guild_now": "Act now",
    "guild_delay": "Delay",
    "hajr": "Play Hajr",
}
BUTTONS = {
    "pass": ("pass",),
    "karama_cancel": ("karama_cancel",),
    "karama_stop_shipment": ("karama_stop_shipment",),
    "advise": ("advise_sink", "advise_here"),
    "flip": ("flip",),
    "guild_now": ("guild_now",),
    "guild_delay": ("guild_delay",),
    "hajr": ("hajr",),
}


class PromptButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"mentat:(?P<game>\d+):(?P<faction>[a-z_]+):(?P<choice>[a-z_]+):(?P<kind>[a-z_-]+)",
):
    """One answer to a session prompt; its custom id carries everything, so it
    keeps working after a restart."""

    def __init__(self, game_id: int, faction: Faction, choice: str, kind: str | None) -> None:
        self.game_id, self.faction, self.choice, self.kind = game_id, faction, choice, kind
        label = LABELS["decline" if choice == "pass" and kind else choice]
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.primary
                if choice != "pass"
                else discord.ButtonStyle.secondary,
                custom_id=f"mentat:{game_id}:{faction.value}:{choice}:{kind or '-'}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PromptButton:
        kind = match["kind"]
        return cls(
            int(match["game"]),
            Faction(match["faction"]),
            match["choice"],
            None if kind == "-" else kind,
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
            app = app_of(interaction)
            await app.require_player(
                self.game_id, interaction.user.id, self.faction, roles=roles_of(interaction)
            )
            session = app.session(self.game_id)
            assert session.state is not None
            action = answer(session.state, self.faction, self.choice, self.kind)
            await session.submit(
                self.faction, action, actor=interaction.user.id, key=key_of(interaction)
            )
        except Exception as error:
            await report(interaction, error)
            return
        await reply(interaction, f"Done: {LABELS.get(self.choice, self.choice)}.")


CHOICE_ACTIONS = {"advise_sink": "advise", "advise_here": "advise"}


def answer(state: GameState, faction: Faction, choice: str, kind: str | None) -> FactionAction:
    """The engine's legal action a prompt button stands for, at the time of the click."""
    if kind is None:
        options = tuple(state.legal_actions(faction))
    else:
        prompts = [p for p in state.open_prompts() if p.kind.value == kind]
        options = tuple(a for p in prompts for a in state.answers(p, faction))
    name = CHOICE_ACTIONS.get(choice, choice)
    found = list(dict.fromkeys(a for a in options if a.name == name and _fits(choice, a)))
    if not found:
        raise SessionError(f"“{LABELS.get(choice, choice)}” is not open to {faction.label} now")
    if len(found) > 1:
        raise SessionError(f"“{LABELS.get(choice, choice)}” has several targets: use the command")
    return found[0]


def _fits(choice: str, action: FactionAction) -> bool:
    """The two advise buttons: the Polar Sink, or the shipment's territory."""
    if choice == "advise_sink":
        return isinstance(action, Advise) and action.to == POLAR_SINK
    if choice == "advise_here":
        return isinstance(action, Advise) and action.to != POLAR_SINK
    return True


def prompt_view(game_id: int, notice: PrivateNotice) -> discord.ui.View | None:
    """The buttons for a faction's private notice (None when it asks nothing)."""
    choices = [c for name in notice.choices for c in BUTTONS.get(name, ())]
    if not choices:
        return None
    view = discord.ui.View(timeout=None)
    for choice in dict.fromkeys(choices):
        view.add_item(PromptButton(game_id, notice.faction, choice, notice.prompt))
    return view
