"""The Revival phase's commands (1.05): a revival, the Emperor's payment for its ally's
forces, the Tleilaxu Ghola, and its subcommands of other cogs' groups (``/karama revive``,
``/mod record revival``, ``/orders revival``)."""

from discord.ext import commands

from cogs.revival.revival import Revivals


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Revivals(bot))
