"""Settings read from the environment and an optional ``.env`` file.

Variables (see ``.env.example``): ``DATABASE_PATH`` (default ``./mentat.db``),
``DISCORD_TOKEN``, ``DEV_GUILD_ID``, ``LOG_LEVEL`` (default ``INFO``). A value set in
the process environment wins over the ``.env`` file; an empty value counts as unset.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import dotenv_values

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
DEFAULT_DATABASE_PATH = Path("./mentat.db")
VARIABLES = (
    ("DISCORD_TOKEN", "the bot's token from the Discord developer portal (required)"),
    ("DEV_GUILD_ID", "a server id where slash commands are synced at start-up (default: none)"),
    ("DATABASE_PATH", f"the SQLite file holding every game (default: {DEFAULT_DATABASE_PATH})"),
    ("LOG_LEVEL", f"{', '.join(LOG_LEVELS)} (default: INFO)"),
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
        return cls(
            database_path=Path(values.get("DATABASE_PATH", DEFAULT_DATABASE_PATH)),
            discord_token=values.get("DISCORD_TOKEN"),
            dev_guild_id=_parse_guild_id(values.get("DEV_GUILD_ID")),
            log_level=_parse_log_level(values.get("LOG_LEVEL", "INFO")),
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
