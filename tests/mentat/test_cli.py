"""`mentat`'s command line: --version, --help texts, a closed pipe, where render writes."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from mentat.cli import COMMANDS, SIGPIPE_EXIT, build_parser, main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "advanced-phase.json"


def help_text(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    with pytest.raises(SystemExit) as done:
        main([*args, "--help"])
    assert done.value.code == 0
    return " ".join(capsys.readouterr().out.split())  # argparse wraps lines as it likes


def test_version_comes_from_the_package_metadata(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"mentat {metadata.version('mentat')}\n"


def test_run_help_names_every_setting_it_reads_and_its_default(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = help_text(capsys, "run")
    for name in ("DISCORD_TOKEN", "DEV_GUILD_ID", "DATABASE_PATH", "LOG_LEVEL", ".env"):
        assert name in text
    assert "(default: mentat.db)" in text and "(default: INFO)" in text


@pytest.mark.parametrize(
    ("command", "defaults"),
    [
        ("scenario", ["(default: all on one line)"]),
        ("render", ["(default: ./map.png", "(default: none shown)", "(default: no tint)"]),
        ("demo", ["(default: ./demo-out/"]),
    ],
)
def test_offline_commands_give_their_defaults_and_read_no_settings(
    capsys: pytest.CaptureFixture[str], command: str, defaults: list[str]
) -> None:
    text = help_text(capsys, command)
    for default in defaults:
        assert default in text
    assert "environment: none read" in text


def test_the_top_level_help_lists_version_and_commands(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = help_text(capsys)
    assert "--version" in text
    for command in ("scenario", "render", "demo", "run"):
        assert command in text


HEAVY = ("discord", "PIL", "aiohttp", "bot.render", "bot.demo.phase", "mentat.run")


def test_the_top_level_help_imports_no_command_s_module() -> None:
    """`mentat --help` is quick: the renderer, the demo and discord.py stay unimported."""
    script = (
        "import sys\nfrom mentat.cli import main\ntry:\n    main(['--help'])\n"
        "except SystemExit:\n    pass\n"
        f"print([m for m in sys.modules if m.startswith({HEAVY!r})], file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stderr.strip() == "[]"
    assert "scenario" in done.stdout


@pytest.mark.parametrize("command", list(COMMANDS))
def test_each_command_s_help_line_is_the_one_its_module_gives(command: str) -> None:
    """The top-level help reads the same whether the command's module was imported or not."""
    assert build_parser(command).format_help() == build_parser().format_help()


def test_the_description_says_what_mentat_is_now(capsys: pytest.CaptureFixture[str]) -> None:
    text = help_text(capsys)
    assert "whole games of Dune" in text
    assert "Shipment & Movement moderator" not in text


def test_a_reader_that_stops_early_ends_the_output_quietly(tmp_path: Path) -> None:
    """`mentat scenario FILE | head`: no BrokenPipeError traceback."""
    data = json.loads(EXAMPLE.read_text())
    data["actions"] = [{"faction": "emperor", "action": "pass"}] * 3000  # ~0.5 MB of output
    big = tmp_path / "big.json"
    big.write_text(json.dumps(data))
    with subprocess.Popen(
        [sys.executable, "-m", "mentat", "scenario", str(big), "--indent", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        assert process.stdout.read(200).startswith(b"{")
        process.stdout.close()  # as `head` does once it has its lines
        err = process.stderr.read().decode()
        code = process.wait(timeout=60)
    assert err == ""
    assert code == SIGPIPE_EXIT


def test_render_says_where_it_wrote_the_map(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["render", str(EXAMPLE)]) == 0
    assert capsys.readouterr().out == "Wrote the map to map.png\n"
    assert (tmp_path / "map.png").read_bytes().startswith(b"\x89PNG")
    assert main(["render", str(EXAMPLE), "--out", str(tmp_path / "start.png")]) == 0
    assert capsys.readouterr().out == f"Wrote the map to {tmp_path / 'start.png'}\n"
