"""Oversized input: every answer arrives, fits Discord's limit and quotes little of it."""

from __future__ import annotations

from typing import Any

import pytest
import simcord

from tests.cogs.conftest import make_table, position, refusals, text_of

LONG = "Arrakeen" + "x" * 1952  # 1,960 characters
COMMANDS: list[tuple[str, str, dict[str, Any]]] = [
    ("atreides", "ship", {"to": LONG, "forces": 1}),
    ("atreides", "ship", {"to": "Arrakeen", "sector": 9, "forces": 1, "ally_pays": 99}),
    ("fremen", "send", {"to": LONG, "forces": 1}),
    ("spacing_guild", "cross-ship", {"from": LONG, "to": LONG, "forces": 1}),
    ("spacing_guild", "cross-ship", {"from": "Arrakeen", "to": LONG, "forces": 1}),
    ("spacing_guild", "ship-to-reserves", {"from": LONG, "forces": 1}),
    ("atreides", "karama cancel", {"card": LONG}),
    ("atreides", "karama prevent", {"ability": "ship_as_it_pleases_you", "card": LONG}),
    ("atreides", "bg flip", {"territory": LONG, "to": "fighters"}),
    ("atreides", "map", {"highlight": LONG}),
    ("atreides", "map", {"highlight": "Arrakeen" + "!" * 1995}),  # names Arrakeen
]


async def _first(env: simcord.Env, faction: str) -> Any:
    """A basic game in which ``faction`` is first to act, with 5 forces in Arrakeen."""
    others = [f for f in ("atreides", "harkonnen") if f != faction][:1]
    seats = [faction, *others, None, None, None, None][:6]
    t = await make_table(env, start=False)
    scenario = position(
        seats=seats,
        alliances=[],
        factions={f: {"spice": 10, "reserves": 10} for f in (faction, *others)},
        board=[{"faction": faction, "territory": "Arrakeen", "sector": 9, "forces": 5}],
    )
    result = await t.moderator.slash(t.table, "game start", position=scenario)
    assert "is running" in text_of(result), text_of(result)
    return t


@pytest.mark.parametrize(("faction", "command", "options"), COMMANDS)
async def test_the_answer_to_oversized_input_is_delivered_short(
    simcord_env: simcord.Env, faction: str, command: str, options: dict[str, Any]
) -> None:
    t = await _first(simcord_env, faction)
    player = t.players[next(f for f in t.players if f.value == faction)]
    result = await player.slash(t.table, command, **options)
    text = text_of(result)
    assert text and len(text) <= 2000, len(text)
    assert "x" * 100 not in text and "!" * 100 not in text, text
    refusals(simcord_env)


async def test_moderator_corrections_with_oversized_input(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    for command, options in [
        ("mod place", {"faction": "harkonnen", "territory": LONG, "forces": 1}),
        ("mod remove", {"faction": "harkonnen", "territory": LONG, "forces": 1}),
        ("mod card", {"faction": "atreides", "card": LONG, "give": False}),
    ]:
        result = await t.moderator.slash(t.table, command, **options)
        text = text_of(result)
        assert text.startswith("Refused") and len(text) <= 2000, (command, len(text))
        assert "x" * 100 not in text, text
    assert len(refusals(simcord_env)) == 3
