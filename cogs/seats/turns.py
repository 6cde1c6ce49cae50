"""/my-turns: privately, every game of the server waiting on the caller (bot.seats.my_turns)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.seats.my_turns import my_turns, my_turns_text
from cogs.common import app_of
from cogs.errors import reply


class MyTurns(commands.Cog):
    """Where the caller is awaited, across the server's games."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name="my-turns", description="Every game of this server waiting on you, privately."
    )
    @app_commands.guild_only()
    async def my_turns(self, interaction: discord.Interaction) -> None:
        guild = interaction.guild
        assert guild is not None
        turns = await my_turns(app_of(interaction), guild.id, interaction.user.id)
        await reply(interaction, my_turns_text(turns, guild.id))
