"""Game set-up: /game new, seat, start."""

from discord.ext import commands

from cogs.game.game import Game


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Game(bot))
