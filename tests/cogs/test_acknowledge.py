"""Issue 18: every slash command and button is acknowledged within Discord's 3 seconds,
before any slow call, and gets an answer.

The world is made slow: each SQL statement of the store, each request queued on a game's
session and each REST call of the bot (channels, permissions, messages) takes 4 seconds of
simcord's clock, which refuses a first answer given 3 seconds after the interaction
(Unknown Interaction, as Discord does). An interaction acknowledged only after one of them
is never answered."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import aiosqlite
import pytest
import simcord
from discord import AppCommandOptionType, app_commands

from bot.serial import SerialTask
from cogs.errors import APOLOGY
from rules.errors import MentatError
from rules.factions import Faction
from tests.cogs.conftest import Table, is_ephemeral, make_table, refusals, text_of

SLOW = 4.0  # seconds of simcord's clock each slow call takes (Discord allows 3)
BG, GUILD = Faction.BENE_GESSERIT, Faction.SPACING_GUILD
PUBLIC = {"map"}  # the commands whose answer (without options) everyone sees
LAST = {"mod end-phase", "game new", "game start"}  # they change the most


def slow_world(t: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on every store statement, session request and REST call takes ``SLOW``."""

    def slowed(call: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def slow(*args: Any, **kwargs: Any) -> Any:
            t.env.backend.advance_clock(SLOW)
            return await call(*args, **kwargs)

        return slow

    for name in ("execute", "execute_fetchall", "executemany"):
        monkeypatch.setattr(aiosqlite.Connection, name, slowed(getattr(aiosqlite.Connection, name)))
    monkeypatch.setattr(SerialTask, "call", slowed(SerialTask.call))
    monkeypatch.setattr(t.bot.http, "request", slowed(t.bot.http.request))


def example(t: Table, parameter: app_commands.Parameter) -> Any:
    """A value of the parameter's type (refused or not, the command gets that far)."""
    if parameter.choices:
        return parameter.choices[0].value
    kind = parameter.type
    if kind is AppCommandOptionType.string:
        return "Arrakeen"
    if kind is AppCommandOptionType.integer:
        return int(parameter.min_value or 1)
    if kind is AppCommandOptionType.boolean:
        return False
    if kind is AppCommandOptionType.user:
        return t.players[BG]
    raise AssertionError(f"no example for a required {kind} option {parameter.display_name}")


async def test_every_slash_command_is_acknowledged_before_its_slow_calls(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = await make_table(simcord_env, maps="never")
    await t.players[GUILD].click(t.private(GUILD).last_message, label="Decline")
    commands = [c for c in t.bot.tree.walk_commands() if isinstance(c, app_commands.Command)]
    commands.sort(key=lambda c: (c.qualified_name in LAST, c.qualified_name))
    names = {c.qualified_name for c in commands}
    assert {"ship", "pass", "map", "mod undo", "mod channels", "game new", "game seat"} <= names
    slow_world(t, monkeypatch)
    unanswered = []
    for command in commands:
        options = {p.display_name: example(t, p) for p in command.parameters if p.required}
        if any(p.name == "faction" for p in command.parameters):
            options.setdefault("faction", "bene_gesserit")  # the moderator acts for BG
        result = await t.moderator.slash(t.table, command.qualified_name, **options)
        answered = result.acknowledged and text_of(result)
        if not answered or APOLOGY in text_of(result):
            unanswered.append(command.qualified_name)
        elif is_ephemeral(result) == (command.qualified_name in PUBLIC):
            unanswered.append(f"{command.qualified_name} (ephemeral: {is_ephemeral(result)})")
    assert unanswered == []
    assert all(isinstance(e, MentatError) for e in refusals(simcord_env))  # no crash


async def test_map_with_highlight_is_acknowledged_ephemerally(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = await make_table(simcord_env)
    slow_world(t, monkeypatch)
    mine = await t.players[Faction.ATREIDES].slash(t.table, "map", highlight="Arrakeen")
    assert mine.acknowledged and is_ephemeral(mine) and mine.response is not None
    assert mine.response.attachments


async def test_every_button_is_acknowledged_before_its_slow_calls(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = await make_table(simcord_env, maps="never")
    slow_world(t, monkeypatch)
    declined = await t.players[GUILD].click(t.private(GUILD).last_message, label="Decline")
    assert declined.acknowledged and text_of(declined) == "Declined."
    preview = await t.players[BG].slash(t.table, "ship", to="Arrakeen", forces=1)
    assert preview.acknowledged and text_of(preview).startswith("**Preview**")
    assert preview.response is not None
    cancelled = await t.players[BG].click(preview.response.message, label="Cancel")
    assert cancelled.acknowledged and "Cancelled" in text_of(preview)
    preview = await t.players[BG].slash(t.table, "ship", to="Arrakeen", forces=1)
    assert preview.response is not None
    confirmed = await t.players[BG].click(preview.response.message, label="Confirm")
    assert confirmed.acknowledged and text_of(preview) == "Done: submitted."
    assert str(t.state().public_view().step) == "move"  # shipped once
