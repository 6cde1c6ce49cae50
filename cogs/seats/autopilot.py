"""/back: a player takes their faction off autopilot (bot.session.autopilot)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import app_of, game_of
from cogs.errors import reply
from rules.errors import MentatError


class Back(commands.Cog):
    """A player back at the table."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="back", description="Take your faction off autopilot.")
    @app_commands.guild_only()
    async def back(self, interaction: discord.Interaction) -> None:
        game_id = game_of(interaction)
        app = app_of(interaction)
        faction = await app.faction_of(game_id, interaction.user.id)
        if faction is None:
            raise MentatError(f"you hold no seat in game #{game_id}")
        if not await app.session(game_id).come_back(faction, interaction.user.id):
            raise MentatError(f"{faction.label} is not on autopilot: the game waits for you")
        await reply(interaction, f"Welcome back: the game waits for {faction.label} again.")
