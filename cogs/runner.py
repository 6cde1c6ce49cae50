"""``mentat run``: the bot, from the settings in ``.env`` (see ``.env.example``)."""

from __future__ import annotations

import argparse
import asyncio
import logging
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

from bot.config import Config, ConfigError
from bot.store import Store

RENDER_WORKERS = 2  # maps come in bursts; the event loop and SQLite need little CPU (bench_session)

log = logging.getLogger(__name__)


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("run", help="start the Discord bot (needs DISCORD_TOKEN)")
    parser.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace) -> int:
    try:
        config = Config.from_env()
        token = config.require_token()
    except ConfigError as error:
        print(f"mentat run: {error}")
        return 2
    logging.basicConfig(
        level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    asyncio.run(run(config, token))
    return 0


async def run(config: Config, token: str) -> None:
    """Open the store, log in, start every active game's session, then connect."""
    from cogs.client import build

    # Maps are CPU work: draw them in a separate process, away from the event loop and
    # its GIL. "spawn", because the store's worker thread is already running by then.
    renderer = ProcessPoolExecutor(max_workers=RENDER_WORKERS, mp_context=get_context("spawn"))
    store = await Store.open(config.database_path)
    bot = build(store, dev_guild_id=config.dev_guild_id, render_executor=renderer)
    try:
        async with bot:
            await bot.login(token)
            await bot.app.start()
            await bot.connect()
    finally:
        await bot.app.stop()
        await store.close()
        renderer.shutdown(cancel_futures=True)
