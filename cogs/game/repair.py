"""``/mod channels``: the game's channels made whole again.

A channel that was deleted is created again (in the game's category, with the same
permissions as at the start); one the bot can no longer see or post in gets the bot's
permissions back when the bot may manage it. The game is bound to the new channels and
what they missed is delivered: the kept messages, and in a private channel made again the
faction's open prompt, posted again."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import discord

from bot.app import Mentat
from rules.factions import Faction

log = logging.getLogger(__name__)

BOT_CAN = discord.PermissionOverwrite(view_channel=True, send_messages=True, attach_files=True)
ROLES = ("table", "spectators", "moderators")
Overwrites = dict[discord.Role | discord.Member | discord.Object, discord.PermissionOverwrite]


@dataclass
class Repair:
    """What a repair did, in words for the moderator."""

    made: list[str] = field(default_factory=list)
    fixed: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    channels: dict[str, int] = field(default_factory=dict)
    private: dict[Faction, int] = field(default_factory=dict)

    def describe(self, redelivered: int, prompts: int) -> str:
        parts = []
        if self.made:
            parts.append("created again: " + ", ".join(self.made))
        if self.fixed:
            parts.append("the bot's permissions restored in: " + ", ".join(self.fixed))
        if self.failed:
            parts.append("could not repair: " + "; ".join(self.failed))
        if not parts:
            parts.append("every channel of the game is in place")
        kept = "1 kept message" if redelivered == 1 else f"{redelivered} kept messages"
        again = f"{kept} sent again"
        if prompts:
            open_ = "1 open prompt" if prompts == 1 else f"{prompts} open prompts"
            again += f"; {open_} posted again"
        return f"Channels: {'; '.join(parts)}. {again}."


async def repair_channels(guild: discord.Guild, app: Mentat, game_id: int) -> Repair:
    record = await app.store.game(game_id)
    repair = Repair()
    category = guild.get_channel(int(record.channels.get("category", 0)))
    parent = category if isinstance(category, discord.CategoryChannel) else None
    moderators: list[int] = sorted(await app.store.moderators(game_id))
    role_id = record.settings.channels.moderator_role
    for role in ROLES:
        name = f"dune-{role}"
        overwrites = _overwrites(guild, role, moderators, role_id)
        found = await _repaired(guild, parent, record.channels.get(role), name, overwrites)
        _note(repair, name, found, record.channels.get(role))
        if isinstance(found[0], int) and found[0] != record.channels.get(role):
            repair.channels[role] = found[0]
    seats = await app.seats(game_id)
    for faction, old in record.settings.channels.private.items():
        name = f"dune-{faction.value.replace('_', '-')}"
        overwrites = _overwrites(guild, "private", [])
        if faction in seats:
            player = discord.Object(seats[faction])
            overwrites[player] = discord.PermissionOverwrite(view_channel=True, send_messages=True)
        found = await _repaired(guild, parent, old, name, overwrites)
        _note(repair, name, found, old)
        if isinstance(found[0], int) and found[0] != old:
            repair.private[faction] = found[0]
    return repair


def _note(repair: Repair, name: str, result: tuple[int | str, bool], old: int | None) -> None:
    found, fixed = result
    if isinstance(found, str):
        repair.failed.append(f"#{name} ({found})")
    elif found != old:
        repair.made.append(f"#{name}")
    elif fixed:
        repair.fixed.append(f"#{name}")


async def _repaired(
    guild: discord.Guild,
    parent: discord.CategoryChannel | None,
    channel_id: int | None,
    name: str,
    overwrites: Overwrites,
) -> tuple[int | str, bool]:
    """The id of a working channel for ``name`` (the old one, or a new one) or why there is
    none, and whether the bot's permissions in the old one were restored."""
    channel = guild.get_channel(int(channel_id)) if channel_id else None
    try:
        if not isinstance(channel, discord.TextChannel):
            made = await guild.create_text_channel(name, category=parent, overwrites=overwrites)
            return made.id, False
        mine = channel.permissions_for(guild.me)
        if mine.view_channel and mine.send_messages and mine.attach_files:
            return channel.id, False
        await channel.set_permissions(guild.me, overwrite=BOT_CAN)
        return channel.id, True
    except discord.HTTPException as error:
        log.warning("repairing #%s failed: %s", name, error)
        why = f"Discord refused: {error.text[:80]}" if error.text else "Discord refused"
        return f"{why}; give the bot View Channel, Send Messages and Attach Files there", False


def _overwrites(
    guild: discord.Guild, role: str, moderators: list[int], moderator_role: int | None = None
) -> Overwrites:
    """As ``/game new`` made them: the moderators' channel is for the listed moderators and
    the holders of the game's moderator role."""
    everyone = guild.default_role
    if role == "table":
        return {guild.me: BOT_CAN}
    if role == "spectators":
        return {everyone: discord.PermissionOverwrite(send_messages=False), guild.me: BOT_CAN}
    hidden: Overwrites = {
        everyone: discord.PermissionOverwrite(view_channel=False),
        guild.me: BOT_CAN,
    }
    if role == "moderators":
        moderator_can = discord.PermissionOverwrite(view_channel=True, send_messages=True)
        for user in moderators:
            hidden[discord.Object(user)] = moderator_can
        held = guild.get_role(moderator_role) if moderator_role is not None else None
        if held is not None:  # (a role deleted since has no holders to let in)
            hidden[held] = moderator_can
    return hidden
