"""`mentat demo`: the bundled phase runs offline and leaves maps, private logs and the
public log, in a folder of its own."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from PIL import Image

from bot.demo.phase import DemoFolderError, claim_folder, play_demo
from mentat.cli import main
from rules.factions import Faction


async def test_the_demo_plays_the_whole_phase(tmp_path: Path) -> None:
    console = io.StringIO()
    publisher = await play_demo(tmp_path, stream=console)
    log = console.getvalue()
    for line in (
        "Harkonnen ships 2 forces to Carthag (sector 10)",
        "Bene Gesserit sends a spiritual advisor to Carthag (sector 10).",
        "Atreides plays Karama to cancel the Fremen move of two territories (2.04.06).",
        "The Spacing Guild delays its turn (it may take it before any later faction's).",
        "Spacing Guild cross-ships 2 forces from Tuek's Sietch to Habbanya Sietch",
        "The Shipment & Movement phase is over.",
    ):
        assert line in log
    assert "refused" not in log
    maps = sorted(tmp_path.glob("map-*.png"))
    assert len(maps) == publisher.maps >= 6  # the spectators' record: a map per turn
    with Image.open(maps[-1]) as picture:
        assert picture.width == 1400
    assert {p.name for p in tmp_path.glob("private-*.txt")} == {
        f"private-{f.value}.txt" for f in Faction
    }


async def test_the_public_log_keeps_hands_and_shields_secret(tmp_path: Path) -> None:
    console = io.StringIO()
    await play_demo(tmp_path, stream=console)
    log = console.getvalue()
    markdown = (tmp_path / "public.md").read_text()
    for secret in ("Lasgun", "Baliset", "Kulon", "You hold"):
        assert secret not in log
        assert secret not in markdown
    emperor = (tmp_path / "private-emperor.txt").read_text()
    assert "You hold 12 spice" in emperor


def test_a_folder_with_the_users_files_is_refused_and_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = {"map-001.png": b"my holiday picture", "private-notes.txt": b"mine", "a.md": b"x"}
    for name, content in mine.items():
        (tmp_path / name).write_bytes(content)
    assert main(["demo", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(tmp_path) in err and "not empty" in err
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == mine


def test_make_demo_runs_twice_in_a_row_and_leaves_the_public_log_as_markdown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "demo-out"
    assert main(["demo", "--phase"]) == 0
    first = sorted(p.name for p in out.iterdir())
    assert (
        main(["demo", "--phase"]) == 0
    )  # the default folder: the earlier demo's files are replaced
    assert sorted(p.name for p in out.iterdir()) == first
    console = capsys.readouterr().out
    markdown = (out / "public.md").read_text()
    assert markdown.startswith("# Mentat demo: the spectators' record\n")
    assert markdown.count("# Mentat demo") == 1  # written afresh, not appended to
    pictures = re.findall(r"!\[Map (\d+)\]\((map-\d+\.png)\)", markdown)
    assert [f"map-{int(n):03d}.png" for n, _ in pictures] == [f for _, f in pictures]
    assert {f for _, f in pictures} == {p.name for p in out.glob("map-*.png")}
    assert "**Fremen** is up: @Fremen." in console  # the table's log
    assert "**Fremen's turn**" in markdown and "is up" not in markdown  # the record's
    assert "Waiting for" in console and "Waiting for" not in markdown
    assert "Seats: Atreides @Atreides (sector 1)" in markdown  # the phase's opening
    assert "**The Shipment & Movement phase in short**" in markdown
    assert "Atreides plays Karama to cancel the Fremen move of two territories" in markdown
    assert "[moderators]" not in markdown

    (out / "map-999.png").write_bytes(b"the user's own")
    assert main(["demo", "--phase"]) == 2
    assert "map-999.png" in capsys.readouterr().err
    assert (out / "map-999.png").read_bytes() == b"the user's own"
    assert sorted(p.name for p in out.iterdir()) == sorted([*first, "map-999.png"])


class ClosedPipe(io.StringIO):
    """A console whose reader has gone, as under `mentat demo | head`."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


async def test_a_console_reader_that_goes_away_stops_only_the_printing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    publisher = await play_demo(tmp_path, stream=ClosedPipe())
    assert publisher.reader_gone
    assert "request failed" not in caplog.text  # the session saw no error
    assert len(list(tmp_path.glob("map-*.png"))) == publisher.maps >= 6
    assert "The Shipment & Movement phase is over." in (tmp_path / "public.md").read_text()


def test_the_demos_own_web_folder_is_replaced_and_a_users_is_kept(tmp_path: Path) -> None:
    out = tmp_path / "demo-out"
    claim_folder(out, replace_own=True)
    (out / ".mentat-demo").write_text("web\n")  # as the whole game's demo lists it
    (out / "web").mkdir()
    (out / "web" / "index.html").write_text("an earlier demo's page")
    claim_folder(out, replace_own=True)
    assert sorted(p.name for p in out.iterdir()) == [".mentat-demo"]
    (out / "web").mkdir()  # the user's own folder of that name, not listed
    with pytest.raises(DemoFolderError, match="web"):
        claim_folder(out, replace_own=True)
    assert (out / "web").is_dir()
