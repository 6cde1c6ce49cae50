"""/substitute open, /substitute channel, /leave, and the Join and Accept buttons
(bot.seats.substitutes): a moderator (or, where the game allows it, the leaving player with
/leave) opens a faction's seat at the table and in the server's channel for volunteers; a
volunteer presses Join; a moderator accepts in the moderators' channel (or, where the game
is set so, the first volunteer takes the seat); the seat and its private channel pass and
the newcomer is briefed (bot.seats.briefing)."""

from __future__ import annotations

import asyncio
import logging
import re
from collections import defaultdict
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import Mentat
from bot.seats.briefing import brief
from bot.seats.substitutes import (
    SubstituteError,
    check_volunteer,
    holder_to_replace,
    left_text,
    open_text,
    own_seat_to_open,
    taken_text,
    volunteer_text,
)
from cogs.common import (
    FactionName,
    acknowledge_click,
    app_of,
    game_of,
    require_moderator,
    roles_of,
)
from cogs.errors import reply, report
from cogs.game.game import hand_over
from rules.errors import MentatError
from rules.factions import Faction

log = logging.getLogger(__name__)

SEAT = r"(?P<game>\d{1,19}):(?P<faction>[a-z_]{1,20}):(?P<holder>\d{1,20})"
Volunteer = tuple[int, Faction, int, int]
"""(game, faction, holder, volunteer): who pressed Join for a seat."""
_SEATING: defaultdict[tuple[int, Faction], asyncio.Lock] = defaultdict(asyncio.Lock)
"""One seating at a time per seat (a check and a seat are two awaits apart)."""


class Substitutes(commands.Cog):
    """Open a seat to volunteers."""

    substitute = app_commands.Group(
        name="substitute",
        description="Open a faction's seat to volunteers (moderators).",
        default_permissions=discord.Permissions(manage_channels=True),
        guild_only=True,
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.volunteered: set[Volunteer] = set()  # a second Join is answered, not posted

    @substitute.command(name="open", description="Post a 'seat open' message with a Join button.")
    @app_commands.describe(
        faction="The seat to open.",
        channel="Also post it there (by default the server's channel for volunteers, if chosen).",
    )
    async def open_seat(
        self,
        interaction: discord.Interaction,
        faction: FactionName,
        channel: discord.TextChannel | None = None,
    ) -> None:
        game_id = game_of(interaction)
        await require_moderator(interaction, game_id)
        seat = Faction(faction)
        posted = await _post_open(interaction, game_id, seat, channel)
        await reply(interaction, f"The {seat.label} seat is open in {posted}.")

    @substitute.command(
        name="channel", description="Choose the server's channel for 'seat open' posts."
    )
    @app_commands.describe(channel="Where every game's open seats are posted (none: stop).")
    async def volunteers_channel(
        self, interaction: discord.Interaction, channel: discord.TextChannel | None = None
    ) -> None:
        guild = interaction.guild
        assert guild is not None  # a guild-only group
        await app_of(interaction).store.set_volunteers_channel(
            guild.id, None if channel is None else channel.id
        )
        if channel is None:
            await reply(interaction, "Open seats are posted at their game's table only.")
        else:
            await reply(interaction, f"Every game's open seats are posted in {channel.mention}.")

    @app_commands.command(name="leave", description="Open your seat to a substitute.")
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction) -> None:
        """A player opens their own seat, where the game lets them; they play on until a
        volunteer takes it, and the moderators are told."""
        game_id = game_of(interaction)
        app = app_of(interaction)
        seat = await own_seat_to_open(app, game_id, interaction.user.id)
        posted = await _post_open(interaction, game_id, seat, None)
        await _to_moderators(interaction, game_id, left_text(game_id, seat, interaction.user.id))
        await reply(
            interaction,
            f"Your {seat.label} seat is open in {posted}. You play on until a volunteer "
            "takes it; then its private channel passes to them.",
        )


async def _post_open(
    interaction: discord.Interaction,
    game_id: int,
    seat: Faction,
    channel: discord.TextChannel | None,
) -> str:
    """Post "seat open" at the table and in ``channel`` (else the server's volunteers'
    channel); the channels it went to, in words. Refused when Discord took none."""
    app = app_of(interaction)
    holder = await holder_to_replace(app, game_id, seat)
    text = await open_text(app, game_id, seat)
    guild = interaction.guild
    table_id = int((await app.store.game(game_id)).channels["table"])
    if channel is None and guild is not None:
        chosen = await app.store.volunteers_channel(guild.id)
        found = guild.get_channel(chosen) if chosen is not None else None
        channel = found if isinstance(found, discord.TextChannel) else None
    table = guild.get_channel(table_id) if guild is not None else None
    posted: list[discord.TextChannel] = []
    for where in (table, channel):
        if isinstance(where, discord.TextChannel) and where not in posted:
            view = discord.ui.View(timeout=None)
            view.add_item(JoinButton(game_id, seat, holder))
            try:
                await where.send(text, view=view)
                posted.append(where)
            except discord.HTTPException as error:
                log.warning("seat open post to %d failed: %s", where.id, error)
    if not posted:
        raise SubstituteError("Discord refused the post; nothing was opened")
    return ", ".join(c.mention for c in posted)


class JoinButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"mentat-join:" + SEAT):
    """A volunteer's Join on a "seat open" post."""

    def __init__(self, game_id: int, faction: Faction, holder: int) -> None:
        self.game_id, self.faction, self.holder = game_id, faction, holder
        super().__init__(
            discord.ui.Button(
                label="Join",
                style=discord.ButtonStyle.success,
                custom_id=f"mentat-join:{game_id}:{faction.value}:{holder}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> JoinButton:
        return cls(int(match["game"]), Faction(match["faction"]), int(match["holder"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await acknowledge_click(interaction, ephemeral=True, thinking=True)
        try:
            await self._join(interaction)
        except MentatError as error:
            await report(interaction, error)

    async def _join(self, interaction: discord.Interaction) -> None:
        app, user = app_of(interaction), interaction.user.id
        if (await app.store.settings(self.game_id)).seating.first_volunteer:
            await self._take(interaction)
            return
        await check_volunteer(app, self.game_id, self.faction, self.holder, user)
        mine = (self.game_id, self.faction, self.holder, user)
        client = interaction.client
        cog = client.get_cog("Substitutes") if isinstance(client, commands.Bot) else None
        volunteered: set[Volunteer] = cog.volunteered if isinstance(cog, Substitutes) else set()
        if mine in volunteered:
            raise SubstituteError("you volunteered already; a moderator will answer")
        view = discord.ui.View(timeout=None)
        view.add_item(AcceptButton(self.game_id, self.faction, self.holder, user))
        text = volunteer_text(self.game_id, self.faction, user)
        await _to_moderators(interaction, self.game_id, text, view)
        volunteered.add(mine)
        await reply(interaction, "You volunteered: the moderators will answer here and ping you.")

    async def _take(self, interaction: discord.Interaction) -> None:
        """The game seats its first volunteer: no Accept; the moderators are told. One at
        a time per seat, so two volunteers pressing together cannot both take it."""
        async with _SEATING[(self.game_id, self.faction)]:
            user = interaction.user.id
            note = await _seat_volunteer(interaction, self.game_id, self.faction, self.holder, user)
        text = taken_text(self.game_id, self.faction, user)
        try:
            await _to_moderators(interaction, self.game_id, text)
        except SubstituteError as error:  # the seat is theirs: the moderators' loss only
            log.warning("moderators not told of game %d's new player: %s", self.game_id, error)
        message = interaction.message
        if message is not None:
            try:
                await message.edit(content=f"{message.content}\nTaken by <@{user}>.", view=None)
            except discord.HTTPException as error:
                log.warning("the taken seat's post was not closed: %s", error)
        await reply(interaction, f"You play {self.faction.label} now.{note}")


class AcceptButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"mentat-accept:" + SEAT + r":(?P<user>\d{1,20})",
):
    """A moderator's Accept of one volunteer."""

    def __init__(self, game_id: int, faction: Faction, holder: int, user: int) -> None:
        self.game_id, self.faction, self.holder, self.user = game_id, faction, holder, user
        super().__init__(
            discord.ui.Button(
                label="Accept",
                style=discord.ButtonStyle.primary,
                custom_id=f"mentat-accept:{game_id}:{faction.value}:{holder}:{user}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AcceptButton:
        seat = (int(match["game"]), Faction(match["faction"]), int(match["holder"]))
        return cls(*seat, int(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await acknowledge_click(interaction, ephemeral=True, thinking=True)
        try:
            await self._accept(interaction)
        except MentatError as error:
            await report(interaction, error)

    async def _accept(self, interaction: discord.Interaction) -> None:
        app = app_of(interaction)
        await app.require_moderator(self.game_id, interaction.user.id, roles=roles_of(interaction))
        async with _SEATING[(self.game_id, self.faction)]:
            note = await _seat_volunteer(
                interaction, self.game_id, self.faction, self.holder, self.user
            )
        message = interaction.message
        if message is not None:
            accepted = f"{message.content}\nAccepted by {interaction.user.mention}."
            try:
                await message.edit(content=accepted, view=None)
            except discord.HTTPException as error:
                log.warning("the accepted volunteer's message was not closed: %s", error)
        await reply(interaction, f"<@{self.user}> plays {self.faction.label}.{note}")


async def _seat_volunteer(
    interaction: discord.Interaction, game_id: int, faction: Faction, holder: int, user: int
) -> str:
    """Seat ``user`` in the seat opened when ``holder`` held it (checked again, now); the
    private channel passes and they are briefed. A note for the reply."""
    app, guild = app_of(interaction), interaction.guild
    await check_volunteer(app, game_id, faction, holder, user)
    if guild is None:
        raise SubstituteError("use this in the game's server")
    member = await _member(guild, user)
    previous = await app.seat(game_id, user, faction)
    return await _pass_channel(app, guild, game_id, faction, member, previous)


async def _member(guild: discord.Guild, user_id: int) -> discord.Member:
    """The volunteer as a member of the server (asked of Discord: members are not cached)."""
    member = guild.get_member(user_id)
    if member is not None:
        return member
    try:
        return await guild.fetch_member(user_id)
    except discord.NotFound:
        raise SubstituteError(f"<@{user_id}> is no longer in this server") from None
    except discord.HTTPException as error:
        raise SubstituteError("Discord did not answer; nothing changed, try again") from error


async def _to_moderators(
    interaction: discord.Interaction,
    game_id: int,
    text: str,
    view: discord.ui.View | None = None,
) -> None:
    record = await app_of(interaction).store.game(game_id)
    guild = interaction.guild
    channel = guild.get_channel(int(record.channels["moderators"])) if guild else None
    if not isinstance(channel, discord.TextChannel):
        raise SubstituteError("the game's moderators' channel is gone; try again later")
    try:
        if view is None:
            await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
        else:
            await channel.send(text, view=view)
    except discord.HTTPException as error:
        raise SubstituteError("Discord refused to tell the moderators; try again") from error


async def _pass_channel(
    app: Mentat,
    guild: discord.Guild,
    game_id: int,
    faction: Faction,
    member: discord.Member,
    previous: int | None,
) -> str:
    """The private channel passes at once and the newcomer is briefed there."""
    settings = await app.store.settings(game_id)
    channel = guild.get_channel(settings.channels.private.get(faction, 0))
    if not isinstance(channel, discord.TextChannel):
        return " Their private channel is gone: `/mod channels` creates it again."
    try:
        await hand_over(channel, member, previous)
    except discord.HTTPException as error:
        log.warning("private channel %d not handed over: %s", channel.id, error)
        return " Their private channel could not be opened to them: `/mod channels` repairs it."
    await brief(app, game_id, faction, member.id, previous)
    await app.session(game_id).seated(faction)  # an open prompt again below, pinging them
    return " They were briefed in their private channel."
