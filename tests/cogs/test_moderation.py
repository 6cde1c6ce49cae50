"""/mod: moderators only, each correction announced publicly."""

from __future__ import annotations

import simcord

from bot.session import SessionError
from rules.factions import Faction
from tests.cogs.conftest import is_ephemeral, make_table, refusals, text_of

BG, GUILD, ATREIDES = Faction.BENE_GESSERIT, Faction.SPACING_GUILD, Faction.ATREIDES


async def test_players_cannot_moderate(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    result = await t.players[ATREIDES].slash(t.table, "mod pause")
    assert result.ephemeral and "moderators" in text_of(result)
    assert all(isinstance(e, SessionError) for e in refusals(simcord_env))


async def test_pause_and_resume_are_announced(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    result = await t.moderator.slash(t.table, "mod pause")
    assert is_ephemeral(result)
    assert "Paused by" in t.table.last_message.content
    await t.moderator.slash(t.table, "mod resume")
    assert "Resumed by" in t.table.last_message.content


async def test_undo_after_a_pass(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    await t.players[GUILD].click(t.private(GUILD).last_message, label="Decline")
    await t.players[BG].slash(t.table, "pass")
    assert t.state().public_view().step == "move"
    await t.moderator.slash(t.table, "mod undo")
    assert "Correction by" in t.table.last_message.content
    assert t.state().public_view().step == "ship"


async def test_corrections_keep_cards_and_spice_private(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    await t.moderator.slash(t.table, "mod card", faction="atreides", card="Karama")
    assert "Atreides receive a treachery card" in t.table.last_message.content
    await t.moderator.slash(t.table, "mod spice", faction="atreides", amount=17)
    assert "17" not in t.table.last_message.content
    assert t.state().factions[ATREIDES].cards == ("Karama",)
    assert t.state().factions[ATREIDES].spice == 17
    status = await t.players[ATREIDES].slash(t.table, "status")
    assert status.ephemeral and "Karama" in status.response.content


async def test_place_and_set_storm(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    await t.moderator.slash(
        t.table, "mod place", faction="harkonnen", territory="Imperial Basin", forces=3, sector=9
    )
    assert "Harkonnen place 3 forces from reserves in Imperial Basin" in (
        t.table.last_message.content
    )
    assert t.state().factions[Faction.HARKONNEN].reserves == 7
    await t.moderator.slash(t.table, "mod set-storm", sector=7)
    assert t.state().storm_sector == 7
    bad = await t.moderator.slash(
        t.table, "mod place", faction="harkonnen", territory="Nowhere", forces=1
    )
    assert "unknown territory" in text_of(bad)
    assert refusals(simcord_env)
