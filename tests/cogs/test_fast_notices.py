"""Issue 11, fast notices, on Discord: the table reads an action's words at once and the map
comes to that same message by an edit (real discord.py messages, simcord's Discord)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import simcord

from bot.delivery import NO_MAP
from bot.render.maps import MapMaker
from cogs.publisher import noted
from rules.factions import Faction
from tests.cogs.conftest import Bots, Table, make_table, position
from tests.cogs.faults import advance, deny

ATREIDES = Faction.ATREIDES
SHIPS = "Atreides ships 2 forces to Arrakeen"
MAP_FILES = ["map.png", "closeup.png"]


class GatedMaps(MapMaker):
    """The game's real maps, each drawn only once the test opens the gate."""

    def __init__(self) -> None:
        super().__init__("action", turn=1)
        self.gate = asyncio.Event()
        self.waiting = 0

    async def _run(self, draw: Callable[[], bytes]) -> bytes:
        self.waiting += 1
        await self.gate.wait()
        return await super()._run(draw)


async def _table(env: simcord.Env) -> tuple[Table, GatedMaps]:
    t = await make_table(env, start=False)
    await t.moderator.slash(t.table, "game start", position=position())
    maps = GatedMaps()
    t.session.renderer = maps
    return t, maps


def _confirm_ship(t: Table) -> asyncio.Task[Any]:
    """Atreides ship 2 forces to Arrakeen (previewed, then confirmed), in a task."""

    async def ship() -> Any:
        atreides = t.players[ATREIDES]
        preview = await atreides.slash(t.table, "ship", to="Arrakeen", forces=2)
        return await atreides.click(preview.response.message, label="Confirm")

    return asyncio.create_task(ship())


async def _until(condition: Callable[[], bool]) -> None:
    for _ in range(10_000):
        if condition():
            return
        await asyncio.sleep(0.001)
    raise AssertionError("never happened")


def _names(message: Any) -> list[str]:
    return [a.filename for a in message.attachments]


async def test_the_table_reads_the_words_then_the_map_comes_to_the_same_message(
    simcord_env: simcord.Env,
) -> None:
    t, maps = await _table(simcord_env)
    confirmed = _confirm_ship(t)
    await _until(lambda: maps.waiting == 2)  # the map and its close-up wait to be drawn
    await _until(lambda: SHIPS in t.table.last_message.content)
    posted = t.table.last_message
    assert posted.content.startswith(SHIPS) and posted.attachments == []
    assert all(SHIPS not in m.content for m in t.spectators.history())  # at the turn's end
    maps.gate.set()
    result = await confirmed
    assert result.followups or result.response  # the player was answered
    edited = t.table.last_message
    assert edited.id == posted.id and edited.content == posted.content
    assert _names(edited) == MAP_FILES  # the whole map, then the close-up


async def test_a_failed_map_edit_leaves_the_words_and_the_delivery_tries_again(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t, maps = await _table(simcord_env)
    maps.gate.set()
    simcord_env.inject_error("PATCH", "/channels/*/messages/*", status=503, times=2)
    await _confirm_ship(t)
    posted = [m for m in t.table.history() if m.content.startswith(SHIPS)]
    assert len(posted) == 1 and posted[0].attachments == []  # the words stay
    await advance(t, bots, 30)  # the edits are tried again (2 s, then 4 s later)
    (edited,) = [m for m in t.table.history() if m.content.startswith(SHIPS)]
    assert edited.id == posted[0].id and _names(edited) == MAP_FILES
    assert t.session.delivery.failures == 2  # the table's edit failed twice


async def test_a_table_without_attach_files_gets_the_note_in_the_posted_message(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t, maps = await _table(simcord_env)
    deny(t, t.table, "attach_files")
    maps.gate.set()
    await _confirm_ship(t)
    await advance(t, bots, 1)
    (posted,) = [m for m in t.table.history() if m.content.startswith(SHIPS)]
    assert posted.attachments == [] and posted.content.endswith(NO_MAP)
    assert t.session.deadline.paused_left is None  # no files is not a lost table


def test_the_note_is_added_to_the_posted_words_only_when_it_fits() -> None:
    assert noted("B ships.", "A ships.\nB ships." + NO_MAP) == "B ships." + NO_MAP
    assert noted("B ships.", "something else") == "B ships."
    long = "x" * 1990
    assert noted(long, long + NO_MAP) == long
