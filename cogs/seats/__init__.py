"""Seats and watchers across games: /observe (and later /profile, /my-turns)."""

from discord.ext import commands

from cogs.seats.observe import Observe
from cogs.seats.profile import Profile
from cogs.seats.turns import MyTurns


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Observe(bot))
    await bot.add_cog(Profile(bot))
    await bot.add_cog(MyTurns(bot))
