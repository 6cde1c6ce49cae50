from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import Config, ConfigError


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
