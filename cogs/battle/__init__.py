"""The Battle phase's commands (1.07): name a battle, build a plan, Voice, Prescience,
call a traitor, keep cards, capture."""

from discord.ext import commands

from cogs.battle.battle import Battles


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Battles(bot))
