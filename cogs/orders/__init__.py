"""The standing orders' group, ``/orders``: its own subcommands and the phases' guests."""

from discord.ext import commands

from cogs.orders.orders import Orders


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Orders(bot))
