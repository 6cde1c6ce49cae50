"""/profile: a player's reliability in this server's games, in words (bot.seats.reliability)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.seats.reliability import profile_text, reliability
from cogs.common import app_of
from cogs.errors import reply


class Profile(commands.Cog):
    """How a player has kept their seats: games, deadlines, answers, seats abandoned."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="profile", description="A player's reliability in this server.")
    @app_commands.describe(player="Whose profile (by default, yours).")
    @app_commands.guild_only()
    async def profile(
        self, interaction: discord.Interaction, player: discord.Member | None = None
    ) -> None:
        guild = interaction.guild
        assert guild is not None
        who = player or interaction.user
        record = await reliability(app_of(interaction).store, guild.id, who.id)
        await reply(interaction, profile_text(record))
