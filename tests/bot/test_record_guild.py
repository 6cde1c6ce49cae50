"""Issue 26: the Spacing Guild's delay is no turn of its own in the spectators' record:
its line goes out without a turn's heading, and the Guild's turn, taken later, gets its
heading once."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from rules.factions import Faction
from tests.bot.phase_script import scenario
from tests.bot.test_session import Table

GUILD = Faction.SPACING_GUILD


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    t = Table(tmp_path / "mentat.db")
    try:
        yield t
    finally:
        await t.close()


async def test_a_delayed_guild_turn_has_one_heading(table: Table) -> None:
    session = await table.open({**scenario(), "advanced": True})
    assert session.state is not None
    while session.state.to_act() is not GUILD:
        await table.play({"faction": session.state.to_act().value, "action": "pass"})
    await table.play({"faction": "spacing_guild", "action": "guild_delay"})
    up = session.state.to_act()
    assert up is not None and up is not GUILD
    await table.play({"faction": "spacing_guild", "action": "guild_now"})
    while session.state.to_act() is GUILD:  # its shipment, then its movement
        await table.play({"faction": "spacing_guild", "action": "pass"})
    texts = [n.text for _, n in table.publisher.spectator_notices]
    heads = [line for text in texts for line in text.splitlines() if line.endswith(" turn**")]
    assert heads.count("**Spacing Guild's turn**") == 1, texts
    delayed = next(text for text in texts if "delays its turn" in text)
    assert "turn**" not in delayed  # a line of its own, before the turn it precedes
    guild = next(text for text in texts if text.startswith("**Spacing Guild's turn**"))
    assert f"takes its turn now, before {up.label}" in guild
    assert texts.index(delayed) < texts.index(guild)
