"""Player commands through the real command tree: previews, refusals, views, the map."""

from __future__ import annotations

import pytest
import simcord

from bot.session.session import SessionError
from bot.words.common import split_place
from cogs.publisher import DiscordPublisher
from rules.errors import RulesError
from rules.factions import Faction
from tests.cogs.conftest import final, is_ephemeral, make_table, position, refusals, text_of

BG, GUILD, ATREIDES = Faction.BENE_GESSERIT, Faction.SPACING_GUILD, Faction.ATREIDES


async def _guild_declines(t) -> None:  # type: ignore[no-untyped-def]
    guild = t.players[GUILD]
    result = await guild.click(t.private(GUILD).last_message, label="Decline")
    assert is_ephemeral(result) and text_of(result) == "Declined."


async def test_ship_preview_then_confirm(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    await _guild_declines(t)
    bg = t.players[BG]
    preview = await bg.slash(t.table, "ship", to="Arrakeen", forces=2)
    assert preview.ephemeral
    assert "ships 2 forces to Arrakeen (sector 9) for 2 spice to the Spacing Guild" in (
        preview.response.content
    )
    assert "Your spice: 5 → 3" in preview.response.content
    assert t.state().factions[BG].reserves == 19  # nothing happened yet
    confirmed = await bg.click(preview.response.message, label="Confirm")
    assert confirmed.acknowledged
    assert t.state().factions[BG].reserves == 17
    public = t.table.last_message
    assert "Bene Gesserit ships 2 forces to Arrakeen" in public.content
    assert public.attachments and public.attachments[0].filename == "map.png"
    spectated = "\n".join(m.content for m in t.spectators.history())
    assert "ships 2 forces" not in spectated  # the spectators read it once the turn is over


async def test_cancel_drops_the_preview(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    await _guild_declines(t)
    bg = t.players[BG]
    preview = await bg.slash(t.table, "ship", to="Arrakeen", forces=2)
    cancelled = await bg.click(preview.response.message, label="Cancel")
    assert "Cancelled" in cancelled.response.content
    assert t.state().factions[BG].reserves == 19


async def test_refusal_is_ephemeral_and_cites_the_rule(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    await _guild_declines(t)
    result = await t.players[BG].slash(t.table, "ship", to="Arrakeen", forces=20)
    assert result.ephemeral
    assert "(rule " in result.response.content
    assert all(isinstance(e, RulesError) for e in refusals(simcord_env))


async def test_only_the_seated_player_acts(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    await _guild_declines(t)
    before = len(t.table.history())
    result = await t.outsider.slash(t.table, "pass", faction="bene_gesserit")
    assert result.ephemeral and "Bene Gesserit seat" in text_of(result)
    other = await t.players[ATREIDES].slash(t.table, "pass", faction="bene_gesserit")
    assert other.ephemeral and "Refused" in text_of(other)
    assert len(t.table.history()) == before
    assert all(isinstance(e, SessionError) for e in refusals(simcord_env))


async def test_moderator_acts_for_a_faction(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    await _guild_declines(t)
    result = await t.moderator.slash(t.table, "pass", faction="bene_gesserit")
    assert is_ephemeral(result) and "Done" in text_of(result)
    assert "Bene Gesserit does not ship." in t.table.last_message.content


async def test_prompt_waits_and_turn_actions_are_refused_meanwhile(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env)
    result = await t.players[BG].slash(t.table, "pass")
    assert "please wait until this closes" in text_of(result)
    assert all(isinstance(e, SessionError) for e in refusals(simcord_env))


async def test_status_is_private(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    result = await t.players[Faction.FREMEN].slash(t.table, "status")
    assert result.ephemeral
    assert "Spice: 3" in result.response.content and "Reserves: 7 forces, 3 Fedaykin" in (
        result.response.content
    )


async def test_autocomplete_offers_legal_choices_only(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    await _guild_declines(t)
    bg = t.players[BG]
    choices = await bg.autocomplete(t.table, "ship", "to", "", forces=2)
    assert 0 < len(choices) <= 25
    legal = {d.territory for d in t.state().legal_ship_destinations(BG, 2) if d.affordable}
    assert {split_place(c["value"])[0] for c in choices} <= legal
    typed = await bg.autocomplete(t.table, "ship", "to", "arra", forces=2)
    assert [c["value"] for c in typed] == ["Arrakeen"]
    sectors = await bg.autocomplete(t.table, "ship", "sector", "", to="False Wall West", forces=1)
    storm = t.state().storm_sector
    assert sectors and all(c["value"] != storm for c in sectors)
    origins = await t.players[ATREIDES].autocomplete(t.table, "move", "from", "")
    assert [c["value"] for c in origins] == ["Arrakeen"]
    outsider = await t.outsider.autocomplete(t.table, "ship", "to", "")
    assert outsider == []


async def test_move_destinations_autocomplete(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env, start=False)
    board = [{"faction": "atreides", "territory": "Arrakeen", "sector": 9, "forces": 10}]
    await t.moderator.slash(t.table, "game start", position=position(board=board))
    atreides = t.players[ATREIDES]
    await atreides.slash(t.table, "pass")  # its shipment: now its movement
    found = await atreides.autocomplete(t.table, "move", "to", "", **{"from": "Arrakeen"})
    legal = {
        (d.territory, s)
        for d in t.state().legal_move_destinations(ATREIDES, "Arrakeen")
        for s in d.sectors
    }
    assert found and {split_place(c["value"]) for c in found} <= {
        (territory, s if len(t.state().board.resolve(territory).sectors) > 1 else None)
        for territory, s in legal
    }
    assert all("→" in c["name"] for c in found)


async def test_map_public_and_highlight_ephemeral(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    public = await t.outsider.slash(t.table, "map")
    assert not is_ephemeral(public)
    assert final(public).attachments[0].filename == "map.png"
    mine = await t.players[ATREIDES].slash(t.table, "map", highlight="Arrakeen")
    assert is_ephemeral(mine) and final(mine).attachments


async def test_commands_outside_a_game_are_refused(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    result = await t.players[BG].slash(t.lobby, "status")
    assert result.ephemeral and "belongs to no Mentat game" in text_of(result)
    assert all(isinstance(e, SessionError) for e in refusals(simcord_env))


async def test_a_prompt_button_clicked_again_says_its_answer_is_no_longer_open(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def lost(self: DiscordPublisher, game_id: int, ref: str, text: str) -> None:
        return None  # the closed prompt keeps its buttons (an edit that never arrived)

    monkeypatch.setattr(DiscordPublisher, "close_prompt", lost, raising=False)
    t = await make_table(simcord_env)
    guild = t.players[GUILD]
    prompt = t.private(GUILD).last_message
    await guild.click(prompt, label="Decline")
    before = t.state().to_dict()
    again = await guild.click(prompt, label="Act now")
    assert is_ephemeral(again)
    assert text_of(again) == "Refused: this prompt has closed: you declined."
    assert t.state().to_dict() == before
