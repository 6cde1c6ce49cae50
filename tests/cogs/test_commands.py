"""The remaining player and set-up commands through the real command tree: what the
user sees (ephemeral or public) and what the game state becomes."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import discord
import pytest
import simcord

from bot.orders import OrderError
from bot.session.session import SessionError
from bot.settings import Timing
from rules.errors import RulesError
from rules.factions import Faction
from rules.scenario import ScenarioError
from tests.cogs.conftest import (
    Table,
    is_ephemeral,
    make_table,
    position,
    refusals,
    text_of,
)

ATREIDES, BG, FREMEN = Faction.ATREIDES, Faction.BENE_GESSERIT, Faction.FREMEN
GUILD, HARKONNEN = Faction.SPACING_GUILD, Faction.HARKONNEN


async def _started(env: simcord.Env, **scenario: Any) -> Table:
    """A table whose phase starts from a scenario (``/game start position:``)."""
    t = await make_table(env, start=False)
    result = await t.moderator.slash(t.table, "game start", position=position(**scenario))
    assert is_ephemeral(result) and "is running" in text_of(result), text_of(result)
    return t


def _stack(t: Table, faction: Faction, territory: str) -> tuple[int, int]:
    """(fighters, advisors) of ``faction`` in ``territory``, every sector."""
    stacks = [
        s for (f, name, _), s in t.state().stacks.items() if f is faction and name == territory
    ]
    return sum(s.fighters for s in stacks), sum(s.advisors for s in stacks)


async def _confirm(t: Table, player: simcord.MemberActor, preview: Any) -> None:
    assert preview.ephemeral and preview.response.content.startswith("**Preview**")
    confirmed = await player.click(preview.response.message, label="Confirm")
    assert "Done: submitted." in text_of(confirmed)


THREE = {f: {"spice": 10, "reserves": 10} for f in ("atreides", "bene_gesserit", "fremen")}
GUILD_FIRST: dict[str, Any] = {
    "seats": ["spacing_guild", "atreides", None, None, None, None],
    "alliances": [],
    "factions": {f: {"spice": 10, "reserves": 10} for f in ("atreides", "spacing_guild")},
    "board": [{"faction": "spacing_guild", "territory": "Arrakeen", "sector": 9, "forces": 5}],
}


# -- shipments of the Fremen and the Guild -----------------------------------------------


async def test_send(simcord_env: simcord.Env) -> None:
    t = await _started(
        simcord_env,
        seats=["fremen", "atreides", "bene_gesserit", None, None, None],
        alliances=[],
        factions=THREE,
    )
    fremen = t.players[FREMEN]
    preview = await fremen.slash(t.table, "send", to="Funeral Plain", forces=3)
    assert "Fremen sends 3 forces to Funeral Plain (sector 14)." in preview.response.content
    assert t.state().factions[FREMEN].reserves == 10  # only previewed
    await _confirm(t, fremen, preview)
    assert t.table.last_message.content.startswith("Fremen sends 3 forces to Funeral Plain")
    # the whole map, then the close-up of what the sending touched (legible on a phone)
    names = [a.filename for a in t.table.last_message.attachments]
    assert names == ["map.png", "closeup.png"]
    assert "Fremen send" not in "\n".join(m.content for m in t.spectators.history())
    await fremen.slash(t.table, "pass", step="movement")  # the turn ends: the spectators read it
    record = t.spectators.last_message
    assert record.content.startswith("**Fremen's turn**\nFremen sends 3 forces to Funeral Plain")
    assert [a.filename for a in record.attachments] == ["map.png", "closeup.png"]
    closeup = record.attachments[1]  # the turn's close-up, described for who cannot see it
    assert closeup.description == (
        "Close-up of Funeral Plain: the shipments and moves since the last map."
    )
    assert _stack(t, FREMEN, "Funeral Plain") == (3, 0)
    assert t.state().factions[FREMEN].reserves == 7


async def test_cross_ship(simcord_env: simcord.Env) -> None:
    t = await _started(simcord_env, **GUILD_FIRST)
    guild = t.players[GUILD]
    preview = await guild.slash(
        t.table, "cross-ship", forces=2, to="Tuek's Sietch", **{"from": "Arrakeen"}
    )
    assert "cross-ships 2 forces from Arrakeen to Tuek's Sietch (sector 4) for 1 spice" in (
        preview.response.content
    )
    assert "Your spice: 10 → 9." in preview.response.content
    await _confirm(t, guild, preview)
    public = t.table.last_message.content
    assert "Spacing Guild cross-ships 2 forces from Arrakeen to Tuek's Sietch" in public
    assert "Karama window" in public and "10 → 9" not in public
    assert _stack(t, GUILD, "Arrakeen") == (3, 0)
    assert _stack(t, GUILD, "Tuek's Sietch") == (2, 0)
    assert t.state().factions[GUILD].spice == 9


async def test_ship_to_reserves(simcord_env: simcord.Env) -> None:
    t = await _started(simcord_env, **GUILD_FIRST)
    guild = t.players[GUILD]
    preview = await guild.slash(t.table, "ship-to-reserves", forces=2, **{"from": "Arrakeen"})
    assert "ships 2 forces from Arrakeen back to reserves for 1 spice" in (preview.response.content)
    await _confirm(t, guild, preview)
    public = t.table.last_message.content
    assert "Spacing Guild ships 2 forces from Arrakeen back to reserves" in public
    assert _stack(t, GUILD, "Arrakeen") == (3, 0)
    assert t.state().factions[GUILD].reserves == 12
    refused = await t.players[ATREIDES].slash(
        t.table, "ship-to-reserves", forces=1, **{"from": "Arrakeen"}
    )
    assert refused.ephemeral and "Refused" in text_of(refused)
    assert refusals(simcord_env)


# -- Karama --------------------------------------------------------------------------------

FREMEN_MOVE: dict[str, Any] = {
    "advanced": True,
    "seats": ["fremen", "atreides", "bene_gesserit", None, None, None],
    "alliances": [],
    "factions": {
        "fremen": {"spice": 3, "reserves": 5},
        "atreides": {"spice": 10, "reserves": 10, "cards": ["Karama"]},
        "bene_gesserit": {"spice": 5, "reserves": 10},
    },
    "board": [{"faction": "fremen", "territory": "Sietch Tabr", "forces": 5}],
}


async def _fremen_move_two(t: Table) -> None:
    """The Fremen pass their shipment and move two territories (their ✷ ability)."""
    fremen = t.players[FREMEN]
    await fremen.slash(t.table, "pass")
    preview = await fremen.slash(
        t.table, "move", to="Funeral Plain", sector=14, forces=2, **{"from": "Sietch Tabr"}
    )
    await _confirm(t, fremen, preview)
    assert "Karama window" in t.table.last_message.content
    assert _stack(t, FREMEN, "Funeral Plain") == (2, 0)


async def test_karama_cancel_by_the_prompt_button(simcord_env: simcord.Env) -> None:
    t = await _started(simcord_env, **FREMEN_MOVE)
    await _fremen_move_two(t)
    prompt = t.private(ATREIDES).last_message
    assert "Karama window: the Fremen move" in prompt.content
    result = await t.players[ATREIDES].click(prompt, label="Cancel it with Karama")
    assert is_ephemeral(result) and text_of(result) == "Cancelled with Karama."
    _assert_cancelled(t)


def _assert_cancelled(t: Table) -> None:
    public = t.table.last_message.content
    assert "Atreides plays Karama to cancel the Fremen move of two territories (2.04.06)." in public
    assert "Fremen may retake the action" in public
    assert _stack(t, FREMEN, "Funeral Plain") == (0, 0)
    assert _stack(t, FREMEN, "Sietch Tabr") == (5, 0)
    assert t.state().factions[ATREIDES].cards == ()
    assert t.state().to_act() is FREMEN and t.state().open_prompts() == ()


async def test_karama_cancel_by_the_command(simcord_env: simcord.Env) -> None:
    t = await _started(simcord_env, **FREMEN_MOVE)
    await _fremen_move_two(t)
    result = await t.players[ATREIDES].slash(t.table, "karama cancel")
    assert is_ephemeral(result)
    assert text_of(result) == "Done: Karama played to cancel the ability just used."
    _assert_cancelled(t)
    late = await t.players[BG].slash(t.table, "karama cancel")  # the window is closed
    assert is_ephemeral(late) and "no use of a ✷ ability" in text_of(late)
    assert all(isinstance(e, RulesError) for e in refusals(simcord_env))


async def test_karama_naming_no_ability_is_refused_by_the_engine(simcord_env: simcord.Env) -> None:
    t = await _started(simcord_env, **FREMEN_MOVE)
    await _fremen_move_two(t)
    before = t.state().to_dict()
    voice = await t.players[ATREIDES].slash(t.table, "karama cancel", ability="cross_ship")
    assert is_ephemeral(voice) and "3.01.11" in text_of(voice)

    assert t.state().to_dict() == before
    assert all(isinstance(e, RulesError) for e in refusals(simcord_env))


# -- the Guild's timing ----------------------------------------------------------------


async def test_guild_now(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)  # advanced, six factions: the Guild may act before BG
    result = await t.players[GUILD].slash(t.table, "guild now")
    assert is_ephemeral(result) and text_of(result) == "Done: the Guild acts now."
    assert (
        "The Spacing Guild takes its turn now, before Bene Gesserit."
        in t.table.last_message.content
    )
    assert t.state().to_act() is GUILD


async def test_guild_delay(simcord_env: simcord.Env) -> None:
    t = await _started(simcord_env, advanced=True, **GUILD_FIRST)
    assert t.state().to_act() is GUILD
    result = await t.players[GUILD].slash(t.table, "guild delay")
    assert is_ephemeral(result) and text_of(result) == "Done: the Guild delays."
    assert (
        "The Spacing Guild delays its turn (it may take it before any later faction's)."
        in t.table.last_message.content
    )
    assert t.state().phase.guild_delayed and t.state().to_act() is ATREIDES


async def test_guild_standing_order(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    assert t.state().open_prompts()[0].kind.value == "guild_timing"
    result = await t.players[GUILD].slash(t.table, "guild standing-order", order="last")
    assert is_ephemeral(result) and text_of(result) == (
        "Standing order saved (only you see it): Guild timing: delay to act last."
    )
    assert "Guild timing: delay to act last" in t.private(GUILD).last_message.content
    assert "Standing order" not in t.table.last_message.content
    assert t.session.orders[GUILD].guild_timing == "last"
    assert t.state().open_prompts() == () and t.state().to_act() is BG  # answered at once
    before = await t.players[GUILD].slash(
        t.table, "guild standing-order", order="before", before="harkonnen"
    )
    assert text_of(before) == (
        "Standing order saved (only you see it): Guild timing: act right before Harkonnen."
    )
    assert t.session.orders[GUILD].guild_timing == "before:harkonnen"
    other = await t.players[ATREIDES].slash(t.table, "guild standing-order", order="last")
    assert other.ephemeral
    assert text_of(other) == "Refused: only the Spacing Guild give a Guild timing standing order."
    assert ATREIDES not in t.session.orders
    foreign = await t.players[ATREIDES].slash(
        t.table, "guild standing-order", order="last", faction="spacing_guild"
    )
    assert foreign.ephemeral and "Spacing Guild seat" in text_of(foreign)
    assert [type(e) for e in refusals(simcord_env)] == [OrderError, SessionError]


# -- the Bene Gesserit ---------------------------------------------------------------------

BG_TABLE: dict[str, Any] = {
    "advanced": True,
    "seats": ["atreides", "bene_gesserit", "fremen", None, None, None],
    "alliances": [],
    "factions": THREE,
}


async def test_bg_advise(simcord_env: simcord.Env) -> None:
    t = await _started(simcord_env, **BG_TABLE)
    atreides = t.players[ATREIDES]
    await _confirm(t, atreides, await atreides.slash(t.table, "ship", to="Arrakeen", forces=2))
    assert "Spiritual Advisors: the Bene Gesserit may send" in t.private(BG).last_message.content
    result = await t.players[BG].slash(t.table, "bg advise", to="Arrakeen")
    assert is_ephemeral(result) and text_of(result) == "Done: advisor to Arrakeen."
    public = t.table.last_message.content
    assert "Bene Gesserit sends a spiritual advisor to Arrakeen (sector 9)." in public
    assert _stack(t, BG, "Arrakeen") == (0, 1)
    assert t.state().factions[BG].reserves == 9


@pytest.mark.parametrize(
    ("board", "places"),
    [
        ([], ["Polar Sink", "Arrakeen"]),
        (
            [{"faction": "bene_gesserit", "territory": "Arrakeen", "sector": 9, "forces": 1}],
            ["Polar Sink"],  # the Bene Gesserit have fighters there (2.02.11)
        ),
    ],
)
async def test_bg_advise_autocomplete_offers_only_where_the_advisor_may_go(
    simcord_env: simcord.Env, board: list[dict[str, Any]], places: list[str]
) -> None:
    t = await _started(simcord_env, **{**BG_TABLE, "board": board})
    atreides = t.players[ATREIDES]
    await _confirm(t, atreides, await atreides.slash(t.table, "ship", to="Arrakeen", forces=2))
    choices = await t.players[BG].autocomplete(t.table, "bg advise", "to", "")
    assert [c["value"] for c in choices] == places
    assert await atreides.autocomplete(t.table, "bg advise", "to", "") == []


async def test_bg_flip(simcord_env: simcord.Env) -> None:
    board = [{"faction": "bene_gesserit", "territory": "Arrakeen", "sector": 9, "forces": 2}]
    t = await _started(simcord_env, **{**BG_TABLE, "board": board})
    atreides = t.players[ATREIDES]
    await _confirm(t, atreides, await atreides.slash(t.table, "ship", to="Arrakeen", forces=2))
    result = await t.players[BG].slash(t.table, "bg flip", territory="Arrakeen", to="advisors")
    assert is_ephemeral(result) and text_of(result) == "Done: flip to advisors."
    assert "The Bene Gesserit in Arrakeen flip to advisors (2.02.16)." in (
        t.table.last_message.content
    )
    assert _stack(t, BG, "Arrakeen") == (0, 2)
    again = await t.players[BG].slash(t.table, "bg flip", territory="Arrakeen", to="fighters")
    assert again.ephemeral and "Refused" in text_of(again)
    assert _stack(t, BG, "Arrakeen") == (0, 2)
    assert refusals(simcord_env)


# -- setting up a game -------------------------------------------------------------------


async def test_game_new_with_variants_and_moderator_role(simcord_env: simcord.Env) -> None:
    t = await make_table(
        simcord_env,
        start=False,
        moderator_role="Mentats",
        seats="atreides,-,harkonnen,fremen",
        advanced=False,
        storm=7,
        maps="never",
        step_minutes=60,
        prompt_minutes=30,
        ornithopters_from_shipment=False,
        fremen_storm_movement="half_loss",
        guild_ally_pays="bank",
    )
    assert t.role is not None
    state = t.state()
    assert set(state.factions) == {ATREIDES, HARKONNEN, FREMEN}
    assert state.storm_sector == 7 and not state.rules.advanced
    assert state.rules.to_dict()["variants"] == {
        "ornithopters_from_shipment": False,
        "fremen_storm_movement": "half_loss",
        "guild_ally_pays": "bank",
        "guild_ally_ship_to_reserves": False,
    }
    record = await t.bot.app.store.game(t.game_id)
    settings = record.settings
    assert settings.channels.moderator_role == t.role.id
    assert settings.maps == "never"
    assert settings.timing == Timing(
        timedelta(hours=1), timedelta(minutes=30), timedelta(minutes=15)
    )
    assert {f.value for f in settings.channels.private} == {"atreides", "harkonnen", "fremen"}
    assert "dune-emperor" not in {c.name for c in t.guild.channels.values()}
    moderators = t.bot.get_channel(t.channel("dune-moderators").id)
    assert isinstance(moderators, discord.TextChannel)
    assert moderators.overwrites_for(discord.Object(t.role.id)).view_channel is True
    everyone = discord.Object(t.guild.id)
    assert moderators.overwrites_for(everyone).view_channel is False
    assert t.session.deadline.paused_left is not None  # set up, waiting for /game start
    assert "Paused by" in t.table.last_message.content


async def test_game_new_is_for_channel_managers(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env, start=False)
    assert "game new" not in t.players[ATREIDES].available_commands(t.lobby)
    assert "ship" in t.players[ATREIDES].available_commands(t.table)


async def test_game_start_from_a_scenario_file(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env, start=False)
    assert len(t.state().factions) == 6
    bad_json = await t.moderator.slash(t.table, "game start", position=("p.json", b"{nope"))
    assert is_ephemeral(bad_json) and "Refused: the position is not JSON" in text_of(bad_json)
    board = [{"faction": "atreides", "territory": "Nowhere", "forces": 1}]
    bad_field = await t.moderator.slash(t.table, "game start", position=position(board=board))
    assert is_ephemeral(bad_field) and "board[0].territory" in text_of(bad_field)
    assert all(isinstance(e, ScenarioError) for e in refusals(simcord_env))
    assert len(t.state().factions) == 6 and t.session.deadline.paused_left is not None  # unchanged

    board = [{"faction": "harkonnen", "territory": "Carthag", "forces": 4}]
    result = await t.moderator.slash(t.table, "game start", position=position(board=board))
    assert is_ephemeral(result) and text_of(result) == "The game is running."
    state = t.state()
    assert set(state.factions) == {ATREIDES, Faction.EMPEROR, HARKONNEN}
    assert state.storm_sector == 10 and state.ally_of(ATREIDES) is HARKONNEN
    assert _stack(t, HARKONNEN, "Carthag") == (4, 0)
    assert t.session.deadline.paused_left is None
    public = [m.content for m in t.table.history()]
    assert "The moderator set up the position.\nWaiting for Atreides to ship." in public
    assert any("The moderator set up the position." in m.content for m in t.spectators.history())
