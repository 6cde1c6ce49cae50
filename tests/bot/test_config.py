from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import Config, ConfigError, default_render_workers
from bot.shards import Shards, shard_of


def write_env(tmp_path: Path, text: str) -> Path:
    path = tmp_path / ".env"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_when_nothing_is_set(tmp_path: Path) -> None:
    config = Config.from_env({}, dotenv_path=tmp_path / "missing.env")
    assert config == Config(Path("./mentat.db"), None, None, "INFO")


def test_reads_the_dotenv_file(tmp_path: Path) -> None:
    env = write_env(
        tmp_path,
        "DATABASE_PATH=/data/m.db\nDISCORD_TOKEN=abc\nDEV_GUILD_ID=123\nLOG_LEVEL=debug\n",
    )
    config = Config.from_env({}, dotenv_path=env)
    assert config.database_path == Path("/data/m.db")
    assert config.require_token() == "abc"
    assert config.dev_guild_id == 123
    assert config.log_level == "DEBUG"


def test_environment_wins_over_dotenv(tmp_path: Path) -> None:
    env = write_env(tmp_path, "DATABASE_PATH=file.db\nLOG_LEVEL=ERROR\n")
    config = Config.from_env({"DATABASE_PATH": "env.db"}, dotenv_path=env)
    assert config.database_path == Path("env.db")
    assert config.log_level == "ERROR"


def test_empty_values_count_as_unset(tmp_path: Path) -> None:
    env = write_env(tmp_path, "DISCORD_TOKEN=\nDEV_GUILD_ID=\nDATABASE_PATH=\n")
    config = Config.from_env({"LOG_LEVEL": ""}, dotenv_path=env)
    assert config == Config()


def test_the_token_is_not_in_the_repr() -> None:
    assert "s3cret" not in repr(Config(discord_token="s3cret"))


def test_missing_token_is_a_clear_error() -> None:
    with pytest.raises(ConfigError, match="DISCORD_TOKEN"):
        Config().require_token()


@pytest.mark.parametrize("value", ["abc", "-5", "0", "12.5"])
def test_bad_guild_id_names_the_variable(value: str) -> None:
    with pytest.raises(ConfigError, match="DEV_GUILD_ID"):
        Config.from_env({"DEV_GUILD_ID": value}, dotenv_path=None)


def test_bad_log_level_names_the_variable() -> None:
    with pytest.raises(ConfigError, match=r"LOG_LEVEL.*'loud'"):
        Config.from_env({"LOG_LEVEL": "loud"}, dotenv_path=None)


def test_config_is_frozen() -> None:
    config = Config()
    with pytest.raises(AttributeError):
        config.log_level = "DEBUG"  # type: ignore[misc]


def test_postgres_and_shards(tmp_path: Path) -> None:
    env = write_env(tmp_path, "DATABASE_URL=postgresql://m:pw@db/mentat\nSHARD_COUNT=4\n")
    config = Config.from_env({"SHARD_IDS": "3, 1"}, dotenv_path=env)
    assert config.database == "postgresql://m:pw@db/mentat"
    assert (config.shard_count, config.shard_ids, config.shards) == (4, (1, 3), Shards((1, 3), 4))
    assert "pw" not in repr(config)
    whole = Config.from_env({"SHARD_COUNT": "3"}, dotenv_path=None)
    assert whole.shards == Shards((0, 1, 2), 3) and whole.shards.syncs_commands
    assert (whole.database, whole.render_workers) == (whole.database_path, 2)
    assert Config().shards is None


@pytest.mark.parametrize(
    ("environ", "message"),
    [
        ({"DATABASE_URL": "mysql://x/y"}, "DATABASE_URL must be a PostgreSQL URL"),
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be a positive whole number, not '0'"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,x"}, "shard numbers separated by commas"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "shard 2 does not exist.*0 to 1"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1"}, "SHARD_IDS: several processes.*DATABASE_URL"),
        ({"RENDER_WORKERS": "-1"}, "RENDER_WORKERS must be a positive whole number"),
        ({"WEB_PORT": "http"}, "WEB_PORT must be a port number from 1 to 65535, not 'http'"),
        ({"WEB_PORT": "0"}, "WEB_PORT must be a port number"),
        ({"WEB_PORT": "65536"}, "WEB_PORT must be a port number"),
        ({"WEB_BASE_URL": "dune.example.org"}, "WEB_BASE_URL must be an http:// or https://"),
        ({"WEB_BASE_URL": "ftp://dune.example.org"}, "WEB_BASE_URL must be an http"),
        ({"WEB_BASE_URL": "https://"}, "WEB_BASE_URL must be an http"),
        ({"WEB_BASE_URL": "https://x.org/?a=1"}, "WEB_BASE_URL must be an http"),
    ],
)
def test_bad_database_and_shard_settings_name_the_variable(
    environ: dict[str, str], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        Config.from_env(environ, dotenv_path=None)


def test_render_workers_share_the_machine() -> None:
    assert default_render_workers(None, None, 8) == 2
    assert default_render_workers((0,), 3, 2) == 1  # three processes on two processors
    assert default_render_workers((0, 1), 4, 8) == 2
    config = Config.from_env({"RENDER_WORKERS": "5"}, dotenv_path=None)
    assert config.render_workers == 5


def test_a_server_belongs_to_the_shard_discord_sends_its_events_to() -> None:
    guild = 197038439483310086  # a real-sized id: the shard comes from its timestamp bits
    assert shard_of(guild, 1) == 0
    assert shard_of(guild, 4) == (guild >> 22) % 4
    shards = Shards((shard_of(guild, 4),), 4)
    assert shards.owns(guild) and not shards.owns(guild + (1 << 22))
    assert not Shards((1, 2), 3).syncs_commands
    with pytest.raises(ValueError, match="do not exist"):
        Shards((3,), 3)


def test_the_live_pages_are_off_unless_set(tmp_path: Path) -> None:
    assert (Config().web_port, Config().web_base_url) == (None, None)
    env = write_env(tmp_path, "WEB_PORT=8080\nWEB_BASE_URL=https://dune.example.org/mentat/\n")
    config = Config.from_env({}, dotenv_path=env)
    assert config.web_port == 8080
    assert config.web_base_url == "https://dune.example.org/mentat"  # pages are added to it
    plain = Config.from_env({"WEB_BASE_URL": "http://127.0.0.1:8080"}, dotenv_path=None)
    assert plain.web_base_url == "http://127.0.0.1:8080"
