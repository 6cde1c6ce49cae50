"""`mentat demo`: the bundled phase runs offline and leaves maps and private logs."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from bot.demo import play_demo
from rules.factions import Faction


async def test_the_demo_plays_the_whole_phase(tmp_path: Path) -> None:
    console = io.StringIO()
    publisher = await play_demo(tmp_path, stream=console)
    log = console.getvalue()
    for line in (
        "Harkonnen ships 2 forces to Carthag (sector 10)",
        "The Bene Gesserit send a spiritual advisor to Carthag (sector 10).",
        "Atreides plays Karama to cancel the Fremen move of two territories (2.04.06).",
        "The Spacing Guild announces: Delay.",
        "Spacing Guild cross-ships 2 forces from Tuek's Sietch to Habbanya Sietch",
        "The Shipment & Movement phase is over.",
    ):
        assert line in log
    assert "refused" not in log
    maps = sorted(tmp_path.glob("map-*.png"))
    assert len(maps) == publisher.maps >= 15
    with Image.open(maps[-1]) as picture:
        assert picture.width == 1400
    assert {p.name for p in tmp_path.glob("private-*.txt")} == {
        f"private-{f.value}.txt" for f in Faction
    }


async def test_the_public_log_keeps_hands_and_shields_secret(tmp_path: Path) -> None:
    console = io.StringIO()
    await play_demo(tmp_path, stream=console)
    log = console.getvalue()
    for secret in ("Lasgun", "Baliset", "Kulon", "You hold"):
        assert secret not in log
    emperor = (tmp_path / "private-emperor.txt").read_text()
    assert "You hold 12 spice" in emperor
