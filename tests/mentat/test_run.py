"""`mentat run` without a network, with a refused token or without one: one line on
stderr and a non-zero exit, never a traceback."""

from __future__ import annotations

import asyncio
import logging
import socket
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import aiohttp
import discord
import pytest

from bot.config import Config, ConfigError
from bot.starts import standard_start
from bot.store import Store
from mentat import run
from mentat.cli import main
from tests.cogs.fake_discord import FakeDiscord

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A clean folder (no .env) and environment; the database goes there."""
    monkeypatch.chdir(tmp_path)
    names = ("DISCORD_TOKEN", "DEV_GUILD_ID", "DATABASE_PATH", "DATABASE_URL", "LOG_LEVEL")
    for name in (*names, "SHARD_COUNT", "SHARD_IDS", "RENDER_WORKERS", "WEB_PORT", "WEB_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "mentat.db"))
    monkeypatch.setenv("LOG_LEVEL", "CRITICAL")
    return tmp_path


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port  # nothing listens there any more


def test_without_a_network_run_says_so_in_one_line(
    settings: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "some-token")
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{closed_port()}/api/v10")
    assert main(["run"]) == 1
    out, err = capsys.readouterr()
    assert err.count("\n") == 1, err
    assert err.startswith("mentat run: cannot reach Discord (")
    assert "check the network connection" in err and "Traceback" not in out + err


async def test_a_refused_token_is_named_in_one_line(
    settings: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "not-the-token")
    async with FakeDiscord(lifetime=45) as fake:
        monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
        code = await asyncio.to_thread(main, ["run"])  # `mentat run` starts its own loop
    assert code == 1
    err = capsys.readouterr().err
    assert err == "mentat run: Discord refused the token: check DISCORD_TOKEN\n"


def left_behind(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("mentat.db"))


async def test_a_refused_token_leaves_no_database_and_no_voice_warning(
    settings: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """`make run` with a bad token, in a fresh clone: one line, nothing else."""
    monkeypatch.setenv("DISCORD_TOKEN", "not-the-token")
    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)  # as in a new process
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
    caplog.set_level(logging.WARNING, logger="discord")
    async with FakeDiscord(lifetime=45) as fake:
        monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
        code = await asyncio.to_thread(main, ["run"])
    assert code == 1
    assert left_behind(settings) == []
    assert [r.getMessage() for r in caplog.records if "voice" in r.getMessage()] == []


def test_no_network_leaves_no_database_but_keeps_one_that_was_there(
    settings: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "some-token")
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{closed_port()}/api/v10")
    assert main(["run"]) == 1
    assert left_behind(settings) == []
    (settings / "mentat.db").write_bytes(b"")  # an existing (empty) database
    assert main(["run"]) == 1
    assert "mentat.db" in left_behind(settings)


async def test_a_database_made_by_a_run_that_logged_in_is_kept(
    settings: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Games may have been made once Discord took the token: a later failure keeps them."""

    async def serve_then_fail(config: Config, token: str, logged_in: asyncio.Event) -> None:
        config.database_path.write_bytes(b"games")
        logged_in.set()
        raise OSError("the connection dropped")

    monkeypatch.setattr(run, "_serve", serve_then_fail)
    config = Config(database_path=settings / "mentat.db")
    with pytest.raises(OSError):
        await run.run(config, "a-token")
    assert (settings / "mentat.db").read_bytes() == b"games"


def test_a_missing_token_is_reported_on_stderr(
    settings: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "mentat run: DISCORD_TOKEN is not set (put it in .env or the environment)\n"


def test_a_database_in_a_missing_folder_is_a_setting_error(
    settings: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "some-token")
    monkeypatch.setenv("DATABASE_PATH", str(settings / "no-such-folder" / "mentat.db"))
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert (
        err
        == f"mentat run: DATABASE_PATH: the folder {settings / 'no-such-folder'} does not exist\n"
    )


def test_an_unreachable_postgres_database_is_a_setting_error_without_its_password(
    settings: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "some-token")
    monkeypatch.setenv("DATABASE_URL", f"postgresql://m:pw-123@127.0.0.1:{closed_port()}/m")
    assert main(["run"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mentat run: DATABASE_URL: cannot connect to the PostgreSQL database")
    assert err.count("\n") == 1 and "pw-123" not in err


async def test_the_live_pages_are_served_on_web_port_and_a_taken_port_is_named(
    tmp_path: Path,
) -> None:
    """``WEB_PORT`` set: ``mentat run`` serves the games' pages (off when unset)."""
    async with await Store.open(tmp_path / "pages.db") as store:
        game = await store.create_game(0, standard_start())
        assert await run._serve_pages(Config(), store, ThreadPoolExecutor(1)) is None
        port = closed_port()
        shard_one = Config(web_port=port, shard_count=2, shard_ids=(1,))  # shard 0's serves
        assert await run._serve_pages(shard_one, store, ThreadPoolExecutor(1)) is None
        pages = await run._serve_pages(Config(web_port=port), store, ThreadPoolExecutor(1))
        assert pages is not None
        try:
            url = f"http://127.0.0.1:{port}/games/{game}"
            async with aiohttp.ClientSession() as http, http.get(url) as response:
                assert response.status == 200
                assert f"Mentat: game {game}" in await response.text()
            with pytest.raises(ConfigError, match=f"WEB_PORT: cannot serve on port {port}"):
                await run._serve_pages(Config(web_port=port), store, ThreadPoolExecutor(1))
        finally:
            await pages.cleanup()
