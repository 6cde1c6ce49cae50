"""The Discord :class:`~bot.publisher.Publisher`: notices become channel messages.

Public notices go to the table channel and the spectator channel (text and map in
one message); a faction's notices go to its private channel only, with its
choices as persistent buttons; moderator notices to the moderators' channel.
"""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING

import discord

from bot.publisher import ModeratorNotice, PrivateNotice, PublicNotice
from cogs.play.views import prompt_view

if TYPE_CHECKING:
    from cogs.client import MentatBot

log = logging.getLogger(__name__)

LIMIT = 2000


class DiscordPublisher:
    def __init__(self, bot: MentatBot) -> None:
        self.bot = bot

    async def public(self, game_id: int, notice: PublicNotice) -> None:
        await self._post(await self._channel(game_id, "table"), notice.text, notice.picture)

    async def spectators(self, game_id: int, notice: PublicNotice) -> None:
        await self._post(await self._channel(game_id, "spectators"), notice.text, notice.picture)

    async def private(self, game_id: int, notice: PrivateNotice) -> None:
        settings = await self.bot.app.store.settings(game_id)
        channel_id = settings.channels.private.get(notice.faction)
        if channel_id is None:
            log.warning("game %d: no private channel for %s", game_id, notice.faction.value)
            return
        view = prompt_view(game_id, notice)
        await self._post(await self._fetch(channel_id), notice.text, notice.picture, view)

    async def moderators(self, game_id: int, notice: ModeratorNotice) -> None:
        await self._post(await self._channel(game_id, "moderators"), notice.text, None)

    async def _channel(self, game_id: int, role: str) -> discord.abc.Messageable:
        record = await self.bot.app.store.game(game_id)
        return await self._fetch(int(record.channels[role]))

    async def _fetch(self, channel_id: int) -> discord.abc.Messageable:
        channel = self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)
        assert isinstance(channel, discord.abc.Messageable)
        return channel

    async def _post(
        self,
        channel: discord.abc.Messageable,
        text: str,
        picture: bytes | None,
        view: discord.ui.View | None = None,
    ) -> None:
        """One message per notice (more only when the text passes Discord's 2000 characters)."""
        chunks = split(text) or [""]
        for chunk in chunks[:-1]:
            await channel.send(chunk)
        extra: dict[str, object] = {}
        if picture is not None:
            extra["file"] = discord.File(io.BytesIO(picture), filename="map.png")
        if view is not None:
            extra["view"] = view
        await channel.send(chunks[-1], **extra)  # type: ignore[call-overload]


def split(text: str, limit: int = LIMIT) -> list[str]:
    """Cut ``text`` at line ends into pieces Discord accepts."""
    chunks: list[str] = []
    current = ""
    for line in text.splitlines():
        while len(line) > limit:
            chunks.append(line[:limit])
            line = line[limit:]
        if current and len(current) + 1 + len(line) > limit:
            chunks.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        chunks.append(current)
    return chunks
