"""The Bidding and Revival phases' commands, their autocomplete and standing orders."""

from discord.ext import commands

from cogs.auction.auction import Auction


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Auction(bot))
