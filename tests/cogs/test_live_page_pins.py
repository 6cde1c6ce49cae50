"""The live page's link, pinned in the table's and spectators' channels when a game starts
(WEB_BASE_URL set), through simcord's Discord; a pin Discord refuses (no Manage Messages
permission, a 503) leaves the game running and tells the moderators once."""

from __future__ import annotations

import simcord

from tests.cogs.conftest import Table, make_table, text_of
from tests.cogs.faults import deny

BASE = "https://dune.example.org"


async def started(env: simcord.Env, base: str | None = BASE) -> Table:
    t = await make_table(env, start=False, kind="whole_game")
    t.bot.live_page_base = base
    return t


async def start(t: Table) -> str:
    return text_of(await t.moderator.slash(t.table, "game start"))


def pinned(channel: simcord.ChannelHandle) -> list[str]:
    return [m.content for m in channel.pinned_messages()]


async def test_the_link_is_pinned_at_the_table_and_for_the_spectators(
    simcord_env: simcord.Env,
) -> None:
    t = await started(simcord_env)
    assert await start(t) == "The game is running."
    url = f"{BASE}/games/{t.game_id}"
    for channel in (t.table, t.spectators):
        assert len(pinned(channel)) == 1 and url in pinned(channel)[0]
    assert not any(
        "could not be pinned" in m.content for m in t.channel("dune-moderators").history()
    )


async def test_without_a_base_url_nothing_is_pinned(simcord_env: simcord.Env) -> None:
    t = await started(simcord_env, base=None)
    assert await start(t) == "The game is running."
    assert pinned(t.table) == [] and pinned(t.spectators) == []


async def test_a_refused_pin_leaves_the_game_running_and_tells_the_moderators_once(
    simcord_env: simcord.Env,
) -> None:
    t = await started(simcord_env)
    deny(t, t.table, "manage_messages")
    simcord_env.inject_error(
        "PUT", f"/channels/{t.spectators.id}/messages/pins/*", status=503, times=9
    )
    assert await start(t) == "The game is running."
    assert t.session.state is not None
    notes = [
        m.content
        for m in t.channel("dune-moderators").history()
        if "could not be pinned" in m.content
    ]
    assert len(notes) == 1
    assert f"<#{t.table.id}> and <#{t.spectators.id}>" in notes[0]
    assert f"{BASE}/games/{t.game_id}" in notes[0] and "Manage Messages" in notes[0]
    assert pinned(t.table) == [] and pinned(t.spectators) == []
