"""Player commands, their autocomplete and buttons."""

from discord.ext import commands

from cogs.play.karama import Karama
from cogs.play.play import Play


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Play(bot))
    await bot.add_cog(Karama(bot))
