"""Discord failing under a game: injected HTTP errors, deleted channels, denied permissions,
a removed guild (simcord's backend), and the clock moved past deadlines."""

from __future__ import annotations

import discord
import simcord
from simcord.backend.models.channel import Overwrite
from simcord.enums import OverwriteType

from bot.session.session import Timing
from tests.cogs.conftest import Bots, Table

STEP = Timing().step.total_seconds()
PROMPT = Timing().prompt.total_seconds()
POSTS = "/channels/*/messages"


def deny(t: Table, channel: simcord.ChannelHandle, *permissions: str) -> None:
    """Take ``permissions`` (e.g. "send_messages") in ``channel`` away from the bot."""
    assert t.bot.user is not None
    bits = discord.Permissions(**dict.fromkeys(permissions, True)).value
    overwrite = Overwrite(t.bot.user.id, OverwriteType.MEMBER, deny=bits)
    t.env.backend.set_overwrite(channel.id, overwrite)


def restore(t: Table, channel: simcord.ChannelHandle) -> None:
    """An admin gives the bot back what ``/game new`` gave it in ``channel``."""
    assert t.bot.user is not None
    bits = discord.Permissions(view_channel=True, send_messages=True, attach_files=True).value
    t.env.backend.set_overwrite(channel.id, Overwrite(t.bot.user.id, OverwriteType.MEMBER, bits))


def delete(t: Table, channel: simcord.ChannelHandle) -> None:
    t.env.backend.delete_channel(channel.id)


async def advance(t: Table, bots: Bots, seconds: float) -> None:
    """Move the game's clock, letting every woken task (session, delivery) finish."""
    await t.session.until_idle()
    await bots.clock.advance(seconds, settle=t.session.next_idle)
    await t.env.settle()


def texts(channel: simcord.ChannelHandle) -> list[str]:
    return [m.content for m in channel.history()]


def step(t: Table) -> tuple[str, str]:
    """Whose turn and which step, in words."""
    view = t.state().public_view()
    turn = t.state().phase.turn
    return (turn.faction.value if turn else "-", str(view.step))
