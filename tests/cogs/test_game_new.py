"""/game new: a game needs at least two factions; a refused one leaves nothing behind."""

from __future__ import annotations

import discord
import pytest
import simcord

from rules.scenario import ScenarioError
from tests.cogs.conftest import is_ephemeral, make_table, refusals, text_of


async def test_a_game_of_one_faction_is_refused(simcord_env: simcord.Env) -> None:
    guild = simcord_env.create_guild()
    lobby = guild.create_text_channel("lobby")
    admins = guild.create_role("Admins", permissions=discord.Permissions(administrator=True))
    moderator = guild.add_member(simcord_env.create_user("moderator"), roles=[admins])
    await simcord_env.bot.sync_commands(guild.id)  # type: ignore[attr-defined]
    channels_before = set(guild.channels)
    for seats in ("atreides", "-,-,harkonnen", ",,,,,"):
        result = await moderator.slash(lobby, "game new", seats=seats)
        assert is_ephemeral(result)
        assert text_of(result).startswith(
            "Refused: a game of Dune needs at least 2 factions; the seats give"
        ), text_of(result)
    assert set(guild.channels) == channels_before  # no category, no channels
    assert await simcord_env.bot.app.store.games() == []  # type: ignore[attr-defined]
    assert [type(e) for e in refusals(simcord_env)] == [ScenarioError] * 3
    two = await moderator.slash(lobby, "game new", seats="atreides,harkonnen")
    assert is_ephemeral(two) and "is set up" in text_of(two)


async def test_the_window_time_is_set_with_the_game_and_kept(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env, window_minutes=12)
    settings = await t.bot.app.store.settings(t.game_id)
    assert settings.timing.window.total_seconds() == 12 * 60
    assert t.session.timing.window.total_seconds() == 12 * 60
    for junk in (0, 1441, -5):
        with pytest.raises(simcord.OptionError):
            await t.moderator.slash(t.lobby, "game new", window_minutes=junk)
