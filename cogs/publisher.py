"""The Discord :class:`~bot.publisher.Publisher`: notices become channel messages.

Public notices go to the table channel and the spectator channel: the text at once, the
map (and close-up), or a phase's picture of the moment (its scene, before the map), attached to
that message by an edit once it is drawn (found again by its "channel:message"
reference). A faction's notices go to its private channel only, a
prompt with its choices as persistent buttons bound to that prompt (edited once it
closes, found again by the reference the session keeps); moderator notices to the
moderators' channel.
"""

from __future__ import annotations

import contextlib
import io
import logging
import re
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.publisher import (
    AttachmentRefusedError,
    ChannelGoneError,
    DeliveryError,
    DirectMessagesClosedError,
    ModeratorNotice,
    PrivateNotice,
    PublicNotice,
    fill_players,
)
from cogs.play.clicks import closed_text
from cogs.play.views import prompt_view
from rules.factions import Faction

if TYPE_CHECKING:
    from cogs.client import MentatBot

log = logging.getLogger(__name__)

LIMIT = 2000
PINGED = re.compile(r"<@\d+> ")  # how a message that pings its player begins
UNKNOWN_MESSAGE = 10008  # Discord's error code for a message that is gone
DMS_CLOSED = 50007  # Discord's error code for a user who takes no direct message


class DiscordPublisher:
    """Raises :class:`~bot.publisher.DeliveryError` (and its kinds) for what Discord refuses."""

    def __init__(self, bot: MentatBot) -> None:
        self.bot = bot

    async def public(self, game_id: int, notice: PublicNotice) -> str | None:
        """The table: the player whose turn it is (``notice.mention``) is pinged, no one
        else (the players named in it are mentions that do not ping)."""
        async with failures("table"):
            channel = await self._channel(game_id, "table")
            seats = await self.bot.app.seats(game_id)
            ping = seats.get(notice.mention) if notice.mention is not None else None
            ping = await self._unless_quiet(game_id, ping)
            return await self._post_public(channel, notice, seats, ping=ping)

    async def spectators(self, game_id: int, notice: PublicNotice) -> str | None:
        """The spectators: the same names, and nobody is pinged."""
        async with failures("spectators"):
            channel = await self._channel(game_id, "spectators")
            return await self._post_public(channel, notice, await self.bot.app.seats(game_id))

    async def attach_map(self, game_id: int, ref: str, notice: PublicNotice) -> None:
        """Edit the posted public message ``ref`` (its text stays) to carry the map and the
        close-up; without a map, to add the note of why. A deleted message is left alone
        (logged); a channel that is gone, a 5xx or a 429 fail as a post does."""
        try:
            channel_id, message_id = (int(part) for part in ref.split(":"))
        except ValueError:
            log.warning("public message %s cannot be edited: a malformed reference", ref)
            return
        record = await self.bot.app.store.game(game_id)
        roles = {int(channel): role for role, channel in record.channels.items()}
        async with failures(roles.get(channel_id, "table")):
            channel = await self._fetch(channel_id)
            picture = self._picture(channel, notice.picture or notice.scene)
            seats = await self.bot.app.seats(game_id)  # the text as it was posted
            text = fill_players(notice.text, lambda faction: _player(seats, faction))
            try:
                await _edit_public(channel, message_id, replace(notice, text=text), picture)
            except discord.NotFound as error:
                if error.code != UNKNOWN_MESSAGE:
                    raise
                log.warning("public message %s is gone; its map is not attached", ref)

    async def private(self, game_id: int, notice: PrivateNotice) -> None:
        """A faction's message; one that pings (``notice.ping``) starts with a mention of
        the faction's player, the one user any private message may ping; any other pings
        nobody, whoever it names (a briefing names the newcomer in the seat's history)."""
        async with failures("private", notice.faction):
            channel = await self._private_channel(game_id, notice)
            player = await self._player(game_id, notice) if notice.ping else None
            picture = self._picture(channel, notice.picture)
            ping = await self._unless_quiet(game_id, player)
            await self._post(channel, _pinging(notice, player), picture, ping=ping)

    async def ask(self, game_id: int, notice: PrivateNotice) -> str | None:
        """A prompt with its buttons; one that begins its wait (``notice.ping``) starts with
        a mention of the faction's player, the one user it pings."""
        async with failures("private", notice.faction):
            channel = await self._private_channel(game_id, notice)
            view = prompt_view(game_id, notice)
            player = await self._player(game_id, notice) if notice.ping else None
            picture = self._picture(channel, notice.picture)
            text = _pinging(notice, player)
            ping = await self._unless_quiet(game_id, player)
            message = await self._post(channel, text, picture, view, ping=ping)
            return f"{message.channel.id}:{message.id}"

    async def edit_prompt(self, game_id: int, ref: str, notice: PrivateNotice) -> None:
        """The prompt reads ``notice.text`` now (a mention it began with stays: an edit
        pings nobody)."""
        view = prompt_view(game_id, notice)  # its choices now (some may be answered)

        def change(old: str) -> dict[str, Any]:
            mention = PINGED.match(old)
            text = (mention.group(0) if mention else "") + split(notice.text)[-1]
            return {"content": text[:LIMIT], "view": view}

        await self._edit(ref, change)

    async def close_prompt(self, game_id: int, ref: str, text: str) -> None:
        await self._edit(ref, lambda old: {"content": closed_text(old, text), "view": None})

    async def _edit(self, ref: str, change: Callable[[str], dict[str, Any]]) -> None:
        """Edit a prompt message; one that is gone is logged and left (a stale button is
        still refused, and closed when pressed); a 5xx or 429 may be tried again."""
        try:
            channel_id, message_id = (int(part) for part in ref.split(":"))
        except ValueError:
            log.warning("prompt message %s cannot be edited: a malformed reference", ref)
            return
        try:
            async with failures("private"):
                channel = await self._fetch(channel_id)
                message = await channel.fetch_message(message_id)
                await message.edit(**change(message.content))
        except ChannelGoneError as gone:
            log.warning("prompt message %s cannot be edited: %s", ref, gone.why)

    async def _private_channel(
        self, game_id: int, notice: PrivateNotice
    ) -> discord.abc.Messageable:
        settings = await self.bot.app.store.settings(game_id)
        channel_id = settings.channels.private.get(notice.faction)
        if channel_id is None:
            raise ChannelGoneError(
                "private", "the game has no private channel for it", faction=notice.faction
            )
        return await self._fetch(channel_id)

    @staticmethod
    def _picture(channel: discord.abc.Messageable, picture: bytes | None) -> bytes | None:
        """The picture, if the bot may attach files in ``channel``; else refused before
        anything is sent (the text alone is sent again by the delivery)."""
        if picture is None or not isinstance(channel, discord.abc.GuildChannel):
            return picture
        if channel.permissions_for(channel.guild.me).attach_files:
            return picture
        raise AttachmentRefusedError("", "the bot lacks the Attach Files permission there")

    async def _unless_quiet(self, game_id: int, user: int | None) -> int | None:
        """``user``, the one a message would ping, unless it is their quiet hours: then the
        message still names them but pings nobody, and they are pinged once the quiet
        hours end if the game still waits on them (:mod:`bot.seats.pinger`)."""
        if user is None:
            return None
        try:
            return None if await self.bot.app.pinger.hush(game_id, user) else user
        except Exception:  # the store failed us: better a ping in quiet hours than none
            log.exception("game %d: could not read %d's quiet hours", game_id, user)
            return user

    async def direct(self, user_id: int, text: str) -> None:
        """A direct message to ``user_id`` (a digest), pinging nobody; closed DMs raise
        :class:`~bot.publisher.DirectMessagesClosedError`."""
        async with failures("direct"):
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            try:
                channel = user.dm_channel or await user.create_dm()
                for chunk in split(text):
                    await channel.send(chunk)
            except discord.Forbidden as error:
                if error.code == DMS_CLOSED:
                    raise DirectMessagesClosedError(error.text[:80]) from error
                raise

    async def _player(self, game_id: int, notice: PrivateNotice) -> int | None:
        """The seated player of the notice's faction: the one user it may ping."""
        return (await self.bot.app.seats(game_id)).get(notice.faction)

    async def moderators(self, game_id: int, notice: ModeratorNotice) -> None:
        async with failures("moderators"):
            await self._post(await self._channel(game_id, "moderators"), notice.text, None)

    async def _channel(self, game_id: int, role: str) -> discord.abc.Messageable:
        record = await self.bot.app.store.game(game_id)
        channel_id = record.channels.get(role)
        if channel_id is None:
            raise ChannelGoneError(role, "the game has no such channel")
        return await self._fetch(int(channel_id))

    async def _fetch(self, channel_id: int) -> discord.abc.Messageable:
        channel = self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)
        assert isinstance(channel, discord.abc.Messageable)
        return channel

    async def _post_public(
        self,
        channel: discord.abc.Messageable,
        notice: PublicNotice,
        seats: Mapping[Faction, int],
        *,
        ping: int | None = None,
    ) -> str:
        """The whole map, with a close-up of what the action touched (legible on a phone);
        each player the text names is written as a mention of the seated user. Returns
        the reference of the (last) message, which a map comes to later."""
        pictures = notice.picture or notice.scene or notice.charts
        allowed = self._picture(channel, pictures) is not None
        files = public_files(notice) if allowed else []
        text = fill_players(notice.text, lambda faction: _player(seats, faction))
        message = await self._post(channel, text, None, files=files, ping=ping)
        return f"{message.channel.id}:{message.id}"

    async def _post(
        self,
        channel: discord.abc.Messageable,
        text: str,
        picture: bytes | None,
        view: discord.ui.View | None = None,
        *,
        ping: int | None = None,
        files: list[discord.File] | None = None,
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
            files = [discord.File(io.BytesIO(picture), filename="map.png")]
        if files:
            extra["files"] = files
        if view is not None:
            extra["view"] = view
        message: discord.Message = await channel.send(chunks[-1], **extra)  # type: ignore[call-overload]
        return message


def _pinging(notice: PrivateNotice, player: int | None) -> str:
    """The notice's text, after a mention of its ``player`` when it pings."""
    return f"<@{player}> {notice.text}" if notice.ping and player is not None else notice.text


def _player(seats: Mapping[Faction, int], faction: Faction) -> str:
    user = seats.get(faction)
    return f"<@{user}>" if user is not None else "(no player seated)"


async def _edit_public(
    channel: discord.abc.Messageable, message_id: int, notice: PublicNotice, picture: bytes | None
) -> None:
    if picture is not None:
        if isinstance(channel, discord.TextChannel | discord.Thread):
            partial = channel.get_partial_message(message_id)  # only the files change: no read
            await partial.edit(attachments=public_files(notice))
        else:
            posted = await channel.fetch_message(message_id)
            await posted.edit(attachments=public_files(notice))
        return
    message = await channel.fetch_message(message_id)
    content = noted(message.content, notice.text)
    if content != message.content:
        await message.edit(content=content)


def public_files(notice: PublicNotice) -> list[discord.File]:
    """A phase's picture of the moment (a scene: named by its words), then the whole map,
    then the close-up, then the game's charts: those the notice has."""
    scene = notice.scene
    files: list[tuple[bytes | None, str, str | None]] = [
        (scene, f"{scene.words.name}.png" if scene else "", None),
        (notice.picture, "map.png", None),
    ]
    files += [(notice.closeup, "closeup.png", notice.caption), (notice.charts, "charts.png", None)]
    return [
        discord.File(io.BytesIO(b), filename=name, description=about)
        for b, name, about in files
        if b
    ]


def noted(posted: str, text: str) -> str:
    """The posted message with what ``text`` (its notice, with a note added at the end)
    says after it; the posted message as it is when that does not fit or is not found."""
    at = text.rfind(posted) if posted else -1
    if at < 0:
        return posted
    content = posted + text[at + len(posted) :]
    return content if len(content) <= LIMIT else posted


@contextlib.asynccontextmanager
async def failures(role: str, faction: Faction | None = None) -> AsyncIterator[None]:
    """What Discord refused, as the delivery's kinds of failure."""
    try:
        yield
    except AttachmentRefusedError as refused:
        raise AttachmentRefusedError(role, refused.why, faction=faction) from None
    except DirectMessagesClosedError:
        raise
    except discord.NotFound as error:
        raise ChannelGoneError(role, f"it is gone ({error.text[:80]})", faction=faction) from error
    except discord.Forbidden as error:
        why = f"the bot may not post there ({error.text[:80]})"
        raise ChannelGoneError(role, why, faction=faction) from error
    except discord.RateLimited as error:
        wait = error.retry_after
        raise DeliveryError("rate limited", retryable=True, retry_after=wait) from error
    except discord.HTTPException as error:
        retryable = error.status == 429 or error.status >= 500
        raise DeliveryError(f"HTTP {error.status}", retryable=retryable) from error
    except (TimeoutError, aiohttp.ClientError, OSError) as error:
        raise DeliveryError(f"network: {error}"[:120], retryable=True) from error


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
