"""/pings: one's own pings in this server, across all one's games (bot.seats.pinger):
quiet hours, a reminder interval, the heads-up, the digest by direct message. Each
command shows and changes the caller's own settings only; answers are private."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.pings import PingsError, parse_interval, quiet_hours
from bot.seats.pinger import describe
from cogs.common import app_of
from cogs.errors import reply


class Pings(commands.Cog):
    """How and when Mentat pings you."""

    pings = app_commands.Group(
        name="pings",
        description="How and when Mentat pings you, in every game of this server.",
        guild_only=True,
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @pings.command(name="show", description="Your pings in this server.")
    async def show(self, interaction: discord.Interaction) -> None:
        guild = _guild(interaction)
        app = app_of(interaction)
        prefs = await app.pinger.prefs(guild, interaction.user.id)
        await reply(interaction, describe(prefs, app.clock.now()))

    @pings.command(name="quiet", description="No ping in these hours (deadlines do not move).")
    @app_commands.describe(
        start="When they begin, your local time (23:00). Leave all three out to remove them.",
        end="When they end, your local time (07:00).",
        zone="Your time zone, as its IANA name (Europe/Paris, America/New_York).",
    )
    async def quiet(
        self,
        interaction: discord.Interaction,
        start: str | None = None,
        end: str | None = None,
        zone: str | None = None,
    ) -> None:
        given = [part for part in (start, end, zone) if part is not None]
        if given and len(given) < 3:
            raise PingsError(
                "give start, end and zone together (or none of them to remove your quiet hours)"
            )
        hours = None
        if start is not None and end is not None and zone is not None:
            hours = quiet_hours(start, end, zone)
        await self._change(interaction, quiet=hours)

    @pings.command(name="interval", description="A reminder while a game waits on you.")
    @app_commands.describe(every="How often: 4h, 90m, 1h30m; or off (the default).")
    async def interval(self, interaction: discord.Interaction, every: str) -> None:
        await self._change(interaction, interval=parse_interval(every))

    @pings.command(name="before-me", description="A ping when the player before you starts.")
    @app_commands.describe(on="On: a heads-up when the player before you in storm order starts.")
    async def before_me(self, interaction: discord.Interaction, on: bool) -> None:
        await self._change(interaction, before_me=on)

    @pings.command(name="digest", description="Your reminders as a digest by direct message.")
    @app_commands.describe(on="On: what happened since your last action, by direct message.")
    async def digest(self, interaction: discord.Interaction, on: bool) -> None:
        await self._change(interaction, digest=on, dm_closed=False)

    async def _change(self, interaction: discord.Interaction, **changes: object) -> None:
        app = app_of(interaction)
        prefs = await app.pinger.change(_guild(interaction), interaction.user.id, **changes)
        await reply(interaction, f"Saved.\n{describe(prefs, app.clock.now())}")


def _guild(interaction: discord.Interaction) -> int:
    assert interaction.guild is not None
    return interaction.guild.id
