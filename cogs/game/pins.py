"""The live page's link, pinned in a game's table and spectators' channels when it starts
(with ``WEB_BASE_URL`` set). A pin Discord refuses (no Manage Messages permission, an
error of its own) never stops the game: the moderators are told once, with the link."""

from __future__ import annotations

import logging

import discord

from bot.web.links import page_url, pin_failed_text, pin_text

log = logging.getLogger(__name__)
PINNED_IN = ("table", "spectators")


def live_page_base(bot: object) -> str | None:
    """The pages' public address the bot was built with (``WEB_BASE_URL``), if any."""
    base = getattr(bot, "live_page_base", None)
    return base if isinstance(base, str) else None


async def pin_live_page(
    guild: discord.Guild, base: str | None, game_id: int, channels: dict[str, int]
) -> None:
    """Post and pin the page's link where it is not pinned yet; tell the moderators once
    where that failed."""
    if base is None:
        return
    failed: list[str] = []
    for role in PINNED_IN:
        channel = guild.get_channel(channels.get(role, 0))
        if not isinstance(channel, discord.TextChannel):
            continue  # a channel gone: /mod channels repairs it
        try:
            await _pin(channel, base, game_id)
        except discord.HTTPException as error:
            log.warning("game %d: link not pinned in %d: %s", game_id, channel.id, error)
            failed.append(str(channel.id))
    if failed:
        await _tell_moderators(guild, channels, pin_failed_text(base, game_id, failed))


async def _pin(channel: discord.TextChannel, base: str, game_id: int) -> None:
    url = page_url(base, game_id)
    async for earlier in channel.pins(limit=50):
        if url in earlier.content:
            return  # pinned when the game started before (a phase started again)
    posted = await channel.send(pin_text(base, game_id))
    await posted.pin()


async def _tell_moderators(guild: discord.Guild, channels: dict[str, int], text: str) -> None:
    channel = guild.get_channel(channels.get("moderators", 0))
    if not isinstance(channel, discord.TextChannel):
        return
    try:
        await channel.send(text)
    except discord.HTTPException as error:
        log.warning("the moderators were not told of a failed pin: %s", error)
