"""The Storm phase's commands (1.01): its subcommand of the orders cog's group
(``/orders storm``)."""

from discord.ext import commands

from cogs.storm.storm import Storm


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Storm(bot))
