"""The Bidding phase's commands, their autocomplete, and its standing order."""

from discord.ext import commands

from cogs.auction.auction import Auction


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Auction(bot))
