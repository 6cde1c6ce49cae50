"""The Discord client: loads the cogs, registers the persistent buttons, syncs commands."""

from __future__ import annotations

import logging
from concurrent.futures import Executor
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import Mentat
from bot.clock import Clock
from bot.shards import Shards
from bot.store import Store
from cogs.common import acknowledge
from cogs.errors import on_app_command_error

log = logging.getLogger(__name__)

EXTENSIONS = (
    "cogs.game",
    "cogs.play",
    "cogs.moderation",
    "cogs.turn",
    "cogs.orders",
    "cogs.storm",
    "cogs.auction",
    "cogs.choam_charity",
    "cogs.revival",
    "cogs.battle",
    "cogs.seats",
)
"""The cogs, in the order they load: a group's own cog before the cogs that add subcommands
to it (``/karama``, ``/mod record``, ``/orders``: :mod:`cogs.groups`)."""


class MentatTree(app_commands.CommandTree):
    """The command tree: every slash command acknowledged before its body runs
    (:func:`cogs.common.acknowledge`), and the one central error handler."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        await acknowledge(interaction)
        return True

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await on_app_command_error(interaction, error)


class MentatBot(commands.Bot):
    """discord.py's bot around one :class:`~bot.app.Mentat` application."""

    app: Mentat

    def __init__(
        self, *, dev_guild_id: int | None = None, syncs_commands: bool = True, **options: Any
    ) -> None:
        intents = discord.Intents.default()
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=MentatTree,
            allowed_mentions=discord.AllowedMentions.none(),  # only explicit pings ping
            **options,
        )
        self.dev_guild_id = dev_guild_id
        self.syncs_commands = syncs_commands  # one process of a sharded bot syncs them
        self.live_previews: set[str] = set()  # previews whose buttons a live view answers
        self.live_page_base: str | None = None  # WEB_BASE_URL: the games' pages, pinned

    async def setup_hook(self) -> None:
        from cogs.play.views import EarlierButton, PromptButton, answer_stale_preview

        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.add_dynamic_items(PromptButton, EarlierButton)
        self.add_listener(answer_stale_preview, "on_interaction")
        self.add_listener(self._channel_deleted, "on_guild_channel_delete")
        self.add_listener(self._guild_left, "on_guild_remove")
        if self.dev_guild_id is not None and self.syncs_commands:
            await self.sync_commands(self.dev_guild_id)

    async def _channel_deleted(self, channel: discord.abc.GuildChannel) -> None:
        await self.app.channel_deleted(channel.id)

    async def _guild_left(self, guild: discord.Guild) -> None:
        await self.app.guild_left(guild.id)

    async def sync_commands(self, guild_id: int | None = None) -> int:
        """Sync the slash commands (to one guild at once, or globally within the hour)."""
        guild = discord.Object(id=guild_id) if guild_id is not None else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        synced = await self.tree.sync(guild=guild)
        log.info("synced %d commands to %s", len(synced), guild_id or "every guild")
        return len(synced)


class ShardedMentatBot(MentatBot, commands.AutoShardedBot):
    """The bot running some of Discord's shards (``SHARD_IDS`` of ``SHARD_COUNT``): one
    connection per shard, the events of their servers only."""


def build(
    store: Store,
    *,
    clock: Clock | None = None,
    dev_guild_id: int | None = None,
    render_executor: Executor | None = None,
    shards: Shards | None = None,
    live_page_base: str | None = None,
) -> MentatBot:
    """A bot and its application over ``store`` (the sessions start with ``bot.app.start()``);
    with ``shards``, an auto-sharded bot for those shards (the store should have the same);
    with ``live_page_base``, each game's page link is pinned at its start."""
    from cogs.publisher import DiscordPublisher

    bot: MentatBot
    if shards is None:
        bot = MentatBot(dev_guild_id=dev_guild_id)
    else:
        bot = ShardedMentatBot(
            dev_guild_id=dev_guild_id,
            syncs_commands=shards.syncs_commands,
            shard_ids=list(shards.ids),
            shard_count=shards.count,
        )
    bot.app = Mentat(store, DiscordPublisher(bot), clock, render_executor=render_executor)
    bot.live_page_base = live_page_base
    return bot
