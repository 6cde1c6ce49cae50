"""The one app-command error handler: refusals become ephemeral messages.

Every routine refusal is a :class:`~rules.errors.MentatError` (the engine's, and the
application's: not your seat, not a moderator, paused game, ...) and is answered with
its message and the rule it cites, if any (a moderator's refused correction cites no rule
of the game); discord.py's own refusals of an option (a failed check or conversion) are
made one at the door. Anything else is logged with the game and the action and answered
with a short apology.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from rules.errors import MODERATOR_RULE, QUOTE_LIMIT, MentatError

log = logging.getLogger(__name__)

LIMIT = 2000
"""Discord's limit on a message's content."""
APOLOGY = "Sorry, something went wrong on Mentat's side; the moderators can look it up in the log."


def message_for(error: BaseException) -> str | None:
    """The ephemeral answer to a refusal, or None for an unexpected error."""
    if isinstance(error, MentatError) and error.rule and error.rule != MODERATOR_RULE:
        return f"Refused: {error} (rule {error.rule})."
    if isinstance(error, MentatError):
        return f"Refused: {error}."
    return None


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer ``interaction`` with the refusal or an apology, always ephemerally."""
    text = message_for(error)
    if text is None:
        log.error(
            "unexpected error in %s (game channel %s, user %s, options %s)",
            _action(interaction),
            interaction.channel_id,
            interaction.user.id,
            _options(interaction),
            exc_info=error,
        )
        text = APOLOGY
    await reply(interaction, text)


async def reply(
    interaction: discord.Interaction,
    text: str,
    *,
    file: discord.File | None = None,
    view: discord.ui.View | None = None,
) -> None:
    """An ephemeral answer through ``response`` or ``followup``, whichever is open.

    The text is cut to Discord's limit as a last resort (messages should be short).
    """
    text = clamp(text)
    extra: dict[str, object] = {}
    if file is not None:
        extra["file"] = file
    if view is not None:
        extra["view"] = view
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **extra)  # type: ignore[call-overload]
    else:
        await interaction.response.send_message(text, ephemeral=True, **extra)  # type: ignore[call-overload]


def clip(typed: str) -> str:
    """What a user typed, as echoed in an answer: at most ``QUOTE_LIMIT`` characters."""
    return typed if len(typed) <= QUOTE_LIMIT else typed[: QUOTE_LIMIT - 1] + "…"


def clamp(text: str, limit: int = LIMIT) -> str:
    """``text`` cut to ``limit`` characters, ending in "…" when it was longer."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


async def on_app_command_error(
    interaction: discord.Interaction, error: app_commands.AppCommandError
) -> None:
    await report(interaction, refusal_of(error))


def refusal_of(error: app_commands.AppCommandError) -> BaseException:
    """What went wrong behind ``error``: the command's own exception, or, for discord.py's
    refusal of an option (a failed check or conversion), a :class:`MentatError` saying so."""
    if isinstance(error, app_commands.CommandInvokeError):
        return error.original
    if isinstance(error, app_commands.CheckFailure | app_commands.TransformerError):
        return MentatError(str(error).rstrip("."))
    return error


def _action(interaction: discord.Interaction) -> str:
    command = interaction.command
    if command is not None:
        return f"/{command.qualified_name}"
    data: dict[str, object] = dict(interaction.data or {})
    return f"component {data.get('custom_id', '?')}"


def _options(interaction: discord.Interaction) -> dict[str, object]:
    return dict(interaction.namespace.__dict__) if interaction.command else {}
