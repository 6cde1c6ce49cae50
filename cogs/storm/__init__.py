"""The Storm phase's commands (1.01): ``/dial``, ``/weather-control``, ``/family-atomics``,
and its subcommands of other cogs' groups (``/fremen storm-losses``, ``/orders storm``)."""

from discord.ext import commands

from cogs.storm.storm import Storm


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Storm(bot))
