"""Moderator controls: /mod."""

from discord.ext import commands

from cogs.moderation.moderation import Moderation


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Moderation(bot))
