"""Seats and watchers across games: /observe, /profile, /my-turns, /substitute, /leave,
/back, /pings."""

from discord.ext import commands

from cogs.seats.autopilot import Back
from cogs.seats.observe import Observe
from cogs.seats.pings import Pings
from cogs.seats.profile import Profile
from cogs.seats.substitutes import AcceptButton, JoinButton, Substitutes
from cogs.seats.turns import MyTurns


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Observe(bot))
    await bot.add_cog(Profile(bot))
    await bot.add_cog(MyTurns(bot))
    await bot.add_cog(Substitutes(bot))
    await bot.add_cog(Back(bot))
    await bot.add_cog(Pings(bot))
    bot.add_dynamic_items(JoinButton, AcceptButton)
