"""Settings read from the environment and an optional ``.env`` file.

Variables (see ``.env.example``): ``DATABASE_PATH`` (default ``./mentat.db``),
``DATABASE_URL`` (a PostgreSQL database instead, shared by several processes),
``DISCORD_TOKEN``, ``DEV_GUILD_ID``, ``LOG_LEVEL`` (default ``INFO``), ``SHARD_COUNT`` and
``SHARD_IDS`` (this process's Discord shards), ``RENDER_WORKERS``, ``WEB_PORT`` and
``WEB_BASE_URL`` (the games' live pages: off when unset). A value set in the process
environment wins over the ``.env`` file; an empty value counts as unset.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from dotenv import dotenv_values

from bot.shards import Shards

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
DEFAULT_RENDER_WORKERS = 2  # maps come in bursts; the event loop and the store need little CPU
DEFAULT_DATABASE_PATH = Path("./mentat.db")
VARIABLES = (
    ("DISCORD_TOKEN", "the bot's token from the Discord developer portal (required)"),
    ("DEV_GUILD_ID", "a server id where slash commands are synced at start-up (default: none)"),
    ("DATABASE_PATH", f"the SQLite file holding every game (default: {DEFAULT_DATABASE_PATH})"),
    ("DATABASE_URL", "postgresql://user:password@host/db: PostgreSQL instead of the file"),
    ("LOG_LEVEL", f"{', '.join(LOG_LEVELS)} (default: INFO)"),
    ("SHARD_COUNT", "how many Discord shards the bot runs on, all processes together"),
    ("SHARD_IDS", "this process's shards, e.g. 0,1 (default: all; needs DATABASE_URL)"),
    ("RENDER_WORKERS", "processes drawing maps (default: 2, less for a share of the shards)"),
    ("WEB_PORT", "the port serving each game's live page (default: none, no page served)"),
    ("WEB_BASE_URL", "the pages' public address, e.g. https://dune.example.org (pinned)"),
)
NO_ENVIRONMENT_HELP = "environment: none read (the settings in .env are for `mentat run` only)"


def environment_help() -> str:
    """The variables read, for ``--help``: one line each."""
    lines = [f"  {name:<14} {meaning}" for name, meaning in VARIABLES]
    return "\n".join(
        [
            "environment (a value in the environment wins over the .env file in the current "
            "folder; see .env.example):",
            *lines,
        ]
    )


class ConfigError(ValueError):
    """A setting is missing or malformed; the message names the variable."""


@dataclass(frozen=True, slots=True)
class Config:
    database_path: Path = DEFAULT_DATABASE_PATH
    discord_token: str | None = field(default=None, repr=False)
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    database_url: str | None = field(default=None, repr=False)  # may hold a password
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    render_workers: int = DEFAULT_RENDER_WORKERS
    web_port: int | None = None  # the live pages' port (None: not served)
    web_base_url: str | None = None  # their public address, without a final "/"

    @property
    def database(self) -> str | Path:
        """Where the games are: the PostgreSQL URL when set, else the SQLite file."""
        return self.database_url or self.database_path

    @property
    def shards(self) -> Shards | None:
        """The shards this process runs (None: one connection, no shards)."""
        if self.shard_count is None:
            return None
        ids = self.shard_ids if self.shard_ids is not None else tuple(range(self.shard_count))
        return Shards(ids, self.shard_count)

    @classmethod
    def from_env(
        cls,
        environ: Mapping[str, str] | None = None,
        *,
        dotenv_path: str | os.PathLike[str] | None = ".env",
    ) -> Config:
        """Read the settings from ``environ`` (default ``os.environ``) over ``dotenv_path``.

        Raises :class:`ConfigError` when ``DEV_GUILD_ID`` is not a positive integer or
        ``LOG_LEVEL`` is not a logging level name.
        """
        values = _merged(os.environ if environ is None else environ, dotenv_path)
        count = _positive("SHARD_COUNT", values.get("SHARD_COUNT"))
        ids = _parse_shard_ids(values.get("SHARD_IDS"), count)
        url = _parse_database_url(values.get("DATABASE_URL"))
        if ids is not None and count is not None and len(ids) < count and url is None:
            raise ConfigError(
                "SHARD_IDS: several processes need one shared database: set DATABASE_URL"
                " (a SQLite file belongs to one process)"
            )
        workers = _positive("RENDER_WORKERS", values.get("RENDER_WORKERS"))
        return cls(
            database_path=Path(values.get("DATABASE_PATH", DEFAULT_DATABASE_PATH)),
            discord_token=values.get("DISCORD_TOKEN"),
            dev_guild_id=_parse_guild_id(values.get("DEV_GUILD_ID")),
            log_level=_parse_log_level(values.get("LOG_LEVEL", "INFO")),
            database_url=url,
            shard_count=count,
            shard_ids=ids,
            render_workers=workers or default_render_workers(ids, count, os.cpu_count() or 1),
            web_port=_parse_port("WEB_PORT", values.get("WEB_PORT")),
            web_base_url=_parse_base_url(values.get("WEB_BASE_URL")),
        )

    def require_token(self) -> str:
        """The Discord token; raises :class:`ConfigError` when it is not set."""
        if not self.discord_token:
            raise ConfigError("DISCORD_TOKEN is not set (put it in .env or the environment)")
        return self.discord_token


def _merged(
    environ: Mapping[str, str], dotenv_path: str | os.PathLike[str] | None
) -> dict[str, str]:
    """The non-empty values of the ``.env`` file, overridden by the environment's."""
    from_file = dotenv_values(dotenv_path) if dotenv_path is not None else {}
    merged = {k: v for k, v in from_file.items() if v}
    merged.update({k: v for k, v in environ.items() if v})
    return {k: v.strip() for k, v in merged.items()}


def _parse_guild_id(text: str | None) -> int | None:
    if text is None:
        return None
    if not text.isdigit() or int(text) <= 0:
        raise ConfigError(f"DEV_GUILD_ID must be a Discord server id (digits), not {text!r}")
    return int(text)


def _parse_log_level(text: str) -> str:
    level = text.upper()
    if level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {text!r}")
    return level


def default_render_workers(ids: tuple[int, ...] | None, count: int | None, cpus: int) -> int:
    """Map workers for a process running ``ids`` of ``count`` shards: two for the whole bot,
    else its share of the machine's processors (at least one), so that the processes of one
    machine together draw on about as many processors as it has."""
    if ids is None or count is None:
        return DEFAULT_RENDER_WORKERS
    return max(1, min(DEFAULT_RENDER_WORKERS, cpus * len(ids) // count))


def _positive(name: str, text: str | None) -> int | None:
    if text is None:
        return None
    if not text.isdigit() or int(text) <= 0:
        raise ConfigError(f"{name} must be a positive whole number, not {text!r}")
    return int(text)


def _parse_port(name: str, text: str | None) -> int | None:
    if text is None:
        return None
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise ConfigError(f"{name} must be a port number from 1 to 65535, not {text!r}")
    return int(text)


def _parse_base_url(text: str | None) -> str | None:
    """An http(s) address with a host, kept without its final "/" (pages are added)."""
    if text is None:
        return None
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query:
        raise ConfigError(
            f"WEB_BASE_URL must be an http:// or https:// address such as "
            f"https://dune.example.org, not {text!r}"
        )
    return text.rstrip("/")


def _parse_shard_ids(text: str | None, count: int | None) -> tuple[int, ...] | None:
    if text is None:
        return None
    if count is None:
        raise ConfigError("SHARD_IDS needs SHARD_COUNT (how many shards there are in all)")
    parts = [part.strip() for part in text.split(",")]
    if not all(part.isdigit() for part in parts):
        raise ConfigError(f"SHARD_IDS must be shard numbers separated by commas, not {text!r}")
    ids = sorted({int(part) for part in parts})
    if ids[-1] >= count:
        raise ConfigError(
            f"SHARD_IDS: shard {ids[-1]} does not exist: with SHARD_COUNT={count} the shards"
            f" are 0 to {count - 1}"
        )
    return tuple(ids)


def _parse_database_url(text: str | None) -> str | None:
    if text is None:
        return None
    if not text.startswith(("postgresql://", "postgres://")):
        raise ConfigError(
            "DATABASE_URL must be a PostgreSQL URL (postgresql://user:password@host/db);"
            " for a SQLite file set DATABASE_PATH"
        )
    return text
