"""The whole turn's player choices: set-up, spice blow and Nexus, any phase's; Truthtrance."""

from discord.ext import commands

from cogs.turn.truthtrance import Truthtrance
from cogs.turn.turn import Turn


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Turn(bot))
    await bot.add_cog(Truthtrance(bot))
