"""/observe join and /observe leave: one user reads one game's spectators' channel.

A per-channel permission overwrite for that user only (never a role that would show every
game); one REST call each way, so a refusal by Discord leaves nothing half-done. The rules
of who may observe are :mod:`bot.seats.observers`'."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.seats.observers import Observed, ObserverError, to_leave, to_observe
from cogs.common import app_of
from cogs.errors import reply
from rules.errors import MentatError

log = logging.getLogger(__name__)

OBSERVER = discord.PermissionOverwrite(
    view_channel=True, read_message_history=True, send_messages=False
)
"""What an observer may do in the spectators' channel: read it, and nothing else."""


class Observe(commands.Cog):
    """Watch a game as a spectator, and stop."""

    observe = app_commands.Group(
        name="observe",
        description="Watch one game's spectators' channel (not every game's).",
        guild_only=True,
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @observe.command(name="join", description="Read this game's spectators' channel.")
    @app_commands.describe(game="The game's number (by default, the game of this channel).")
    async def join(self, interaction: discord.Interaction, game: int | None = None) -> None:
        member, guild = _member(interaction)
        store = app_of(interaction).store
        observed = await to_observe(store, guild.id, _game(interaction, game), member.id)
        channel = _spectators(guild, observed)
        if channel.overwrites_for(member).view_channel:
            raise ObserverError(f"you already observe {observed.name} in {channel.mention}")
        await _set(channel, member, OBSERVER, observed, "open")
        await reply(
            interaction,
            f"You now observe {observed.name}: {channel.mention} is open to you (read only). "
            "`/observe leave` closes it.",
        )

    @observe.command(name="leave", description="Stop reading this game's spectators' channel.")
    @app_commands.describe(game="The game's number (by default, the game of this channel).")
    async def leave(self, interaction: discord.Interaction, game: int | None = None) -> None:
        member, guild = _member(interaction)
        observed = await to_leave(app_of(interaction).store, guild.id, _game(interaction, game))
        channel = _spectators(guild, observed)
        if channel.overwrites_for(member).is_empty():
            raise ObserverError(f"you do not observe {observed.name}, so there is nothing to leave")
        await _set(channel, member, None, observed, "close")
        await reply(interaction, f"You no longer observe {observed.name}.")


def _member(interaction: discord.Interaction) -> tuple[discord.Member, discord.Guild]:
    if not isinstance(interaction.user, discord.Member) or interaction.guild is None:
        raise ObserverError("use this in the game's server")
    return interaction.user, interaction.guild


def _game(interaction: discord.Interaction, game: int | None) -> int:
    """The game named, else the game of the channel the command is used in."""
    if game is not None:
        return game
    try:
        return app_of(interaction).game_in(interaction.channel_id or 0)
    except MentatError:
        raise ObserverError("this channel belongs to no game: name it with `game:`") from None


def _spectators(guild: discord.Guild, observed: Observed) -> discord.TextChannel:
    channel = guild.get_channel(observed.spectators or 0)
    if not isinstance(channel, discord.TextChannel):
        raise ObserverError(
            f"{observed.name} has no spectators' channel any more: its moderators' "
            "`/mod channels` creates it again"
        )
    return channel


async def _set(
    channel: discord.TextChannel,
    member: discord.Member,
    overwrite: discord.PermissionOverwrite | None,
    observed: Observed,
    verb: str,
) -> None:
    """One overwrite set (or removed) by one REST call: done whole, or not at all."""
    try:
        await channel.set_permissions(
            member, overwrite=overwrite, reason=f"/observe {observed.name}"
        )
    except discord.HTTPException as error:
        log.warning("could not %s %s's spectators to %d: %s", verb, observed.name, member.id, error)
        why = f"{error.status} {error.text[:80]}".strip() if error.text else str(error.status)
        raise ObserverError(
            f"Discord refused to {verb} {channel.mention} to you ({why}); nothing changed. "
            + (
                "The bot needs the Manage Permissions permission there: tell a moderator"
                if error.status == 403
                else "Try again in a moment"
            )
        ) from error
