"""``mentat run``: the bot, from the settings in ``.env`` (see ``.env.example``).

Here the parts meet: the settings, the store, the render workers, the Discord
client (``cogs``) that carries the application (``bot.app``) and, with ``WEB_PORT``, the
games' live pages (``bot.web``).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import socket
import sqlite3
import sys
from concurrent.futures import Executor, ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

import aiohttp
import discord
from aiohttp.web import AppRunner

from bot.config import Config, ConfigError, environment_help
from bot.render.maps import start_render_worker, start_render_workers
from bot.store import Store, StoreError
from cogs.client import build

log = logging.getLogger(__name__)
SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "run",
        help="start the Discord bot (needs DISCORD_TOKEN)",
        description="Start the Discord bot with the settings below; it runs until stopped "
        "(Ctrl-C). Exit 2 for a missing or malformed setting, 1 when Discord cannot be "
        "reached or refuses the token.",
        epilog=environment_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace) -> int:
    try:
        config = Config.from_env()
        token = config.require_token()
    except ConfigError as error:
        print(f"mentat run: {error}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    try:
        asyncio.run(run(config, token))
    except ConfigError as error:
        print(f"mentat run: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130  # stopped by the user (Ctrl-C)
    except (discord.DiscordException, aiohttp.ClientError, OSError) as error:
        print(f"mentat run: {_why_not_connected(error)}", file=sys.stderr)
        return 1
    return 0


def _why_not_connected(error: BaseException) -> str:
    """One line for a bot that could not connect or log in, instead of a traceback."""
    if isinstance(error, discord.LoginFailure):
        return "Discord refused the token: check DISCORD_TOKEN"
    if isinstance(error, discord.PrivilegedIntentsRequired):
        return "enable the bot's privileged intents in the Discord developer portal"
    if isinstance(error, aiohttp.ClientError | ConnectionError | TimeoutError | socket.gaierror):
        return f"cannot reach Discord ({_first_line(error)}); check the network connection"
    return f"{type(error).__name__}: {_first_line(error)}"


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0][:200] if text else type(error).__name__


async def run(config: Config, token: str) -> None:
    """Open the store, log in, start every active game's session, then connect.

    A SQLite file this run created is removed again when the bot never logged in (a
    refused token, no network): a failed start leaves nothing behind."""
    created = _new_database_file(config)
    logged_in = asyncio.Event()
    try:
        await _serve(config, token, logged_in)
    finally:
        if created is not None and not logged_in.is_set():
            _remove_database_file(created)


async def _serve(config: Config, token: str, logged_in: asyncio.Event) -> None:
    """Serve until stopped; ``logged_in`` is set once Discord has accepted the token."""
    _without_voice()
    store = await _open_store(config)
    # Maps are CPU work: draw them in a separate process, away from the event loop and
    # its GIL. "spawn", because the store's worker thread is already running by then.
    # Their workers run at a lower priority: the words of a notice must not wait for a map.
    renderer = ProcessPoolExecutor(
        max_workers=config.render_workers,
        mp_context=get_context("spawn"),
        initializer=start_render_worker,
    )
    start_render_workers(renderer, config.render_workers)
    bot = build(
        store,
        dev_guild_id=config.dev_guild_id,
        render_executor=renderer,
        shards=config.shards,
        live_page_base=config.web_base_url,
    )
    pages = None
    try:
        async with bot:
            await bot.login(token)
            logged_in.set()
            await bot.app.start()
            log.info("serving %d games (%s)", len(bot.app.sessions), _which(config))
            pages = await _serve_pages(config, store, renderer)
            await bot.connect()
    finally:
        try:
            if pages is not None:
                await pages.cleanup()
            await bot.app.stop()
        finally:  # the store closes whatever happened to a session
            await store.close()
            renderer.shutdown(cancel_futures=True)


async def _serve_pages(config: Config, store: Store, renderer: Executor) -> AppRunner | None:
    """The games' live pages on ``WEB_PORT`` (None when unset), their maps drawn by the
    render workers; a port that cannot be had is a setting to fix (exit 2). Of several
    shard processes, the one running shard 0 serves them (every game's, from the shared
    database): the others would want the same port."""
    if config.web_port is None:
        return None
    if config.shards is not None and not config.shards.syncs_commands:
        log.info("live pages: served by the process running shard 0")
        return None
    from bot.web.server import LiveSite, start

    try:
        return await start(LiveSite.over(store, renderer), config.web_port)
    except OSError as error:
        raise ConfigError(f"WEB_PORT: cannot serve on port {config.web_port}: {error}") from error


def _without_voice() -> None:
    """The bot never joins a voice channel: discord.py's warnings that voice's optional
    packages (PyNaCl, davey) are missing say nothing to its operator."""
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False


def _new_database_file(config: Config) -> Path | None:
    """The SQLite file this run is about to create, or None (it exists, or PostgreSQL)."""
    path = config.database_path
    return path if config.database_url is None and not path.exists() else None


def _remove_database_file(path: Path) -> None:
    for leftover in (path, *(path.with_name(path.name + end) for end in SQLITE_SIDE_FILES)):
        leftover.unlink(missing_ok=True)


def _which(config: Config) -> str:
    shards = config.shards
    if shards is None:
        return "every server"
    return f"the servers of shards {', '.join(map(str, shards.ids))} of {shards.count}"


async def _open_store(config: Config) -> Store:
    if config.database_url is not None:
        try:
            return await Store.open(config.database_url, shards=config.shards)
        except StoreError as error:  # its message never repeats the URL (a password)
            raise ConfigError(f"DATABASE_URL: {_first_line(error)}") from error
    folder = config.database_path.parent
    if not folder.is_dir():
        raise ConfigError(f"DATABASE_PATH: the folder {folder} does not exist")
    try:
        return await Store.open(config.database_path, shards=config.shards)
    except (sqlite3.Error, OSError) as error:
        raise ConfigError(
            f"DATABASE_PATH: cannot open {config.database_path}: {_first_line(error)}"
        ) from error
