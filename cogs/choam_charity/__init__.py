"""The CHOAM Charity phase's commands (1.03): a claim, and its standing order."""

from discord.ext import commands

from cogs.choam_charity.charity import Charity


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Charity(bot))
