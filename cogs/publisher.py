"""The Discord :class:`~bot.publisher.Publisher`: notices become channel messages.

Public notices go to the table channel and the spectator channel (text and map in
one message); a faction's notices go to its private channel only, a prompt with its
choices as persistent buttons bound to that prompt (edited once it closes, found again
by the "channel:message" reference the session keeps); moderator notices to the
moderators' channel.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.publisher import ModeratorNotice, PrivateNotice, PublicNotice
from cogs.play.views import closed_text, prompt_view

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
        channel = await self._private_channel(game_id, notice)
        if channel is not None:
            ping = await self._player(game_id, notice)
            await self._post(channel, notice.text, notice.picture, ping=ping)

    async def ask(self, game_id: int, notice: PrivateNotice) -> str | None:
        channel = await self._private_channel(game_id, notice)
        if channel is None:
            return None
        view = prompt_view(game_id, notice)
        ping = await self._player(game_id, notice)
        message = await self._post(channel, notice.text, notice.picture, view, ping=ping)
        return f"{message.channel.id}:{message.id}"

    async def edit_prompt(self, game_id: int, ref: str, notice: PrivateNotice) -> None:
        await self._edit(ref, lambda _: {"content": split(notice.text)[-1]})

    async def close_prompt(self, game_id: int, ref: str, text: str) -> None:
        await self._edit(ref, lambda old: {"content": closed_text(old, text), "view": None})

    async def _edit(self, ref: str, change: Callable[[str], dict[str, Any]]) -> None:
        """Edit a prompt message; one that cannot be edited is logged, never an error of the
        action that closed it (a stale button is still refused, and closed when pressed)."""
        message = await self._message(ref)
        if message is None:
            return
        try:
            await message.edit(**change(message.content))
        except discord.HTTPException as error:
            log.warning("prompt message %s cannot be edited: %s", ref, error)

    async def _message(self, ref: str) -> discord.Message | None:
        """The message of a prompt reference (None, logged, when it is gone)."""
        try:
            channel_id, message_id = (int(part) for part in ref.split(":"))
            channel = await self._fetch(channel_id)
            return await channel.fetch_message(message_id)
        except (ValueError, discord.HTTPException) as error:
            log.warning("prompt message %s cannot be edited: %s", ref, error)
            return None

    async def _private_channel(
        self, game_id: int, notice: PrivateNotice
    ) -> discord.abc.Messageable | None:
        settings = await self.bot.app.store.settings(game_id)
        channel_id = settings.channels.private.get(notice.faction)
        if channel_id is None:
            log.warning("game %d: no private channel for %s", game_id, notice.faction.value)
            return None
        return await self._fetch(channel_id)

    async def _player(self, game_id: int, notice: PrivateNotice) -> int | None:
        """The seated player of the notice's faction: the one user it may ping."""
        return (await self.bot.app.seats(game_id)).get(notice.faction)

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
        *,
        ping: int | None = None,
    ) -> discord.Message:
        """One message per notice (more only when the text passes Discord's 2000 characters).

        Nothing pings (the client allows no mentions) but the user ``ping``: a faction's
        notice may ping its own player, whose turn it is.
        """
        chunks = split(text) or [""]
        extra: dict[str, object] = {}
        if ping is not None:
            extra["allowed_mentions"] = discord.AllowedMentions(
                everyone=False, roles=False, replied_user=False, users=[discord.Object(ping)]
            )
        for chunk in chunks[:-1]:
            await channel.send(chunk, **extra)  # type: ignore[call-overload]
        if picture is not None:
            extra["file"] = discord.File(io.BytesIO(picture), filename="map.png")
        if view is not None:
            extra["view"] = view
        message: discord.Message = await channel.send(chunks[-1], **extra)  # type: ignore[call-overload]
        return message


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
