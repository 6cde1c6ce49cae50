"""/mod: moderators only, each correction announced publicly."""

from __future__ import annotations

import logging

import discord
import pytest
import simcord

from bot.session.session import SessionError
from rules.errors import MentatError
from rules.factions import Faction
from tests.cogs.conftest import is_ephemeral, make_table, refusals, text_of
from tests.cogs.test_commands import FREMEN_MOVE, _fremen_move_two, _started

BG, GUILD, ATREIDES = Faction.BENE_GESSERIT, Faction.SPACING_GUILD, Faction.ATREIDES
FREMEN, HARKONNEN = Faction.FREMEN, Faction.HARKONNEN


async def test_players_cannot_moderate(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    result = await t.players[ATREIDES].slash(t.table, "mod pause")
    assert result.ephemeral and "moderators" in text_of(result)
    spice = await t.players[ATREIDES].slash(t.table, "mod spice", faction="atreides", amount=99)
    assert spice.ephemeral and "moderators" in text_of(spice)
    assert t.state().factions[ATREIDES].spice != 99
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
    told = [m.content for m in t.private(ATREIDES).history()]
    assert "A moderator gave you Karama." in told and "A moderator set your spice to 17." in told
    assert not any("Karama" in m.content for m in t.private(BG).history())


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


# -- the game's moderator role -------------------------------------------------------


async def test_moderator_role_holder_counts_as_moderator(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env, moderator_role="Mentats")
    holder = t.role_holder
    assert holder is not None and t.role is not None
    record = await t.bot.app.store.game(t.game_id)
    assert record.settings.channels.moderator_role == t.role.id
    assert not await t.bot.app.store.is_moderator(t.game_id, holder.id)  # never listed
    await t.players[GUILD].click(t.private(GUILD).last_message, label="Decline")

    acted = await holder.slash(t.table, "pass", faction="bene_gesserit")  # acts for a faction
    assert is_ephemeral(acted) and text_of(acted) == "Done: you passed your shipment."
    assert "Bene Gesserit does not ship." in t.table.last_message.content

    preview = await holder.slash(t.table, "move", faction="bene_gesserit", **_polar_sink_move())
    assert preview.ephemeral and "Preview" in preview.response.content
    confirmed = await holder.click(preview.response.message, label="Confirm")
    assert confirmed.acknowledged and "Done: submitted." in text_of(confirmed)
    assert "Bene Gesserit moves 1 force" in t.table.last_message.content

    paused = await holder.slash(t.table, "mod pause")
    assert is_ephemeral(paused) and "Paused by" in t.table.last_message.content
    await holder.slash(t.table, "mod resume")
    seated = await holder.slash(t.table, "game seat", player=t.outsider, faction="emperor")
    assert is_ephemeral(seated) and "plays Emperor" in text_of(seated)
    assert await t.bot.app.faction_of(t.game_id, t.outsider.id) is Faction.EMPEROR
    undone = await holder.slash(t.table, "mod undo")  # the store's own check accepts them
    assert is_ephemeral(undone) and text_of(undone) == "Done: undone."
    assert refusals(simcord_env) == []


async def test_without_the_role_moderating_is_refused(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env, moderator_role="Mentats", start=False)
    managers = t.guild.create_role(
        "Channel managers", permissions=discord.Permissions(manage_channels=True)
    )
    other = t.guild.add_member(simcord_env.create_user("manager"), roles=[managers])
    started = await other.slash(t.table, "game start")  # may use /game, not moderate this game
    assert started.ephemeral and "only this game's moderators" in text_of(started)
    assert t.session.deadline.paused_left is not None  # still set up, not running
    seat = await other.slash(t.table, "game seat", player=other, faction="atreides")
    assert seat.ephemeral and "Refused" in text_of(seat)
    paused = await other.slash(t.table, "mod pause")
    assert paused.ephemeral and "only this game's moderators" in text_of(paused)
    acted = await other.slash(t.table, "status", faction="atreides")
    assert acted.ephemeral and "Atreides seat" in text_of(acted)
    assert await t.bot.app.faction_of(t.game_id, other.id) is None
    assert len(refusals(simcord_env)) == 4
    assert all(isinstance(e, SessionError) for e in refusals(simcord_env))
    holder = t.role_holder
    assert holder is not None
    started = await holder.slash(t.table, "game start")
    assert is_ephemeral(started) and "is running" in text_of(started)


def _polar_sink_move() -> dict[str, object]:
    return {"from": "Polar Sink", "to": "Imperial Basin", "sector": 9, "forces": 1}


async def test_redo_with_nothing_to_redo_is_refused_not_logged(
    simcord_env: simcord.Env, caplog: pytest.LogCaptureFixture
) -> None:
    t = await make_table(simcord_env)
    with caplog.at_level(logging.WARNING):
        redo = await t.moderator.slash(t.table, "mod redo")
        undo = await t.moderator.slash(t.table, "mod undo")
    assert text_of(redo) == "Refused: there is no undone action to redo."
    assert text_of(undo) == "Refused: there is no action to undo in this phase."
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert all(isinstance(e, MentatError) for e in refusals(simcord_env))


async def test_a_karama_decline_is_never_logged_so_undo_cannot_name_it(
    simcord_env: simcord.Env,
) -> None:
    """A "no" to a Karama window stays with the session (docs/windows.md): the log, and so
    undo and redo, never hold it; the last decision taken back is the move itself."""
    t = await _started(simcord_env, **FREMEN_MOVE)
    await _fremen_move_two(t)
    logged = len(await t.bot.app.store.log(t.game_id))
    prompt = t.private(ATREIDES).last_message
    await t.players[ATREIDES].click(prompt, label="Decline")
    assert len(await t.bot.app.store.log(t.game_id)) == logged
    await t.moderator.slash(t.table, "mod undo")
    mod = t.moderator.id
    undone = t.table.last_message.content.splitlines()[0]
    assert undone.startswith(f"Correction by <@{mod}>: the Fremen move")
    await t.moderator.slash(t.table, "mod redo")
    redone = t.table.last_message.content
    assert "Atreides" not in redone.splitlines()[0] and "{" not in redone and "'" not in redone


async def test_undo_of_a_shipment_is_told_in_words(simcord_env: simcord.Env) -> None:
    t = await _started(simcord_env, **FREMEN_MOVE)
    fremen = t.players[FREMEN]
    await fremen.slash(t.table, "pass")
    await fremen.click(
        (
            await fremen.slash(
                t.table,
                "move",
                to="Rock Outcroppings",
                sector=13,
                forces=1,
                **{"from": "Sietch Tabr"},
            )
        ).response.message,
        label="Confirm",
    )
    await t.moderator.slash(t.table, "mod undo")
    move = "the Fremen move of 1 force from Sietch Tabr to Rock Outcroppings (sector 13)"
    assert f"{move} was taken back." in t.table.last_message.content
    await t.moderator.slash(t.table, "mod undo")
    assert "the Fremen pass (shipment) was taken back." in t.table.last_message.content


async def test_mod_card_takes_only_real_cards(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    before = len(t.table.history())
    for junk in ("", "@everyone", "K" * 2000, "Karma"):
        result = await t.moderator.slash(t.table, "mod card", faction="atreides", card=junk)
        text = text_of(result)
        assert is_ephemeral(result) and text.startswith("Refused: there is no treachery card")
        assert len(text) <= 300
    assert t.state().factions[ATREIDES].cards == ()
    assert len(t.table.history()) == before  # nothing announced
    given = await t.moderator.slash(t.table, "mod card", faction="atreides", card=" karama ")
    assert text_of(given) == "Done: corrected and announced."
    assert t.state().factions[ATREIDES].cards == ("Karama",)
    assert t.state().karama_card(ATREIDES) == "Karama"
    choices = await t.moderator.autocomplete(t.table, "mod card", "card", "ka", faction="atreides")
    assert [c["value"] for c in choices] == ["Karama"]
    every = await t.moderator.autocomplete(t.table, "mod card", "card", "", faction="atreides")
    assert {c["value"] for c in every} >= {"Karama", "Hajr", "Baliset", "Lasgun"}
    assert len(every) <= 25  # Discord's limit
    assert len(refusals(simcord_env)) == 4


async def test_corrections_that_move_no_forces_are_refused(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    before = len(t.table.history())
    place = await t.moderator.slash(
        t.table, "mod place", faction="harkonnen", territory="Carthag", forces=0
    )
    assert text_of(place) == "Refused: that moves no forces (forces and special are both 0)."
    remove = await t.moderator.slash(
        t.table, "mod remove", faction="harkonnen", territory="Carthag", forces=0, special=0
    )
    assert text_of(remove) == "Refused: that moves no forces (forces and special are both 0)."
    assert len(t.table.history()) == before
    assert len(refusals(simcord_env)) == 2


# -- corrections are actions: undo and redo step over them, a pause survives them ---------


async def test_undo_steps_back_over_a_correction_and_the_action_before_it(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env)
    await t.players[GUILD].click(t.private(GUILD).last_message, label="Decline")
    await t.players[BG].slash(t.table, "pass")
    passed = t.state().to_dict()
    await t.moderator.slash(
        t.table, "mod place", faction="harkonnen", territory="Imperial Basin", forces=3, sector=9
    )
    assert t.state().factions[HARKONNEN].reserves == 7
    undone = await t.moderator.slash(t.table, "mod undo")
    assert text_of(undone) == "Done: undone."
    assert t.state().to_dict() == passed
    mod = t.moderator.id
    assert t.table.last_message.content.splitlines()[0] == (
        f"Correction by <@{mod}>: the correction placing 3 forces of the Harkonnen in "
        "Imperial Basin (sector 9) was taken back."
    )
    await t.moderator.slash(t.table, "mod undo")  # the Bene Gesserit's pass, before it
    assert t.state().public_view().step == "ship"
    await t.moderator.slash(t.table, "mod redo")
    await t.moderator.slash(t.table, "mod redo")
    assert t.state().factions[HARKONNEN].reserves == 7
    assert t.state().public_view().step == "move"
    kinds = [e.kind for e in await t.bot.app.store.log(t.game_id)]
    assert kinds.count("start") == 1  # no correction started the phase afresh
    assert refusals(simcord_env) == []


async def test_a_pause_survives_a_correction(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    prompt = t.private(GUILD).last_message
    await t.moderator.slash(t.table, "mod pause")
    frozen = t.session.deadline.paused_left
    corrected = await t.moderator.slash(t.table, "mod set-storm", sector=7)
    assert text_of(corrected) == "Done: corrected and announced."
    assert t.state().storm_sector == 7
    assert t.session.deadline.paused_left == frozen is not None
    now = next(m for m in t.private(GUILD).history() if m.id == prompt.id)
    assert "Deadline: paused by a moderator." in now.content
    acted = await t.players[GUILD].click(now, label="Decline")
    assert "paused by a moderator" in text_of(acted)


async def test_corrections_are_announced_in_the_same_words(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    mod = t.moderator.id
    wait = (
        "Waiting for Bene Gesserit to ship. Guild timing: the Guild may act before Bene Gesserit."
    )
    said = [
        ("mod set-storm", {"sector": 5}, "the storm is in sector 5."),
        (
            "mod spice",
            {"faction": "fremen", "amount": 9},
            "Fremen's spice is corrected (the amount stays behind their shield).",
        ),
        ("mod card", {"faction": "fremen", "card": "Hajr"}, "Fremen receive a treachery card."),
        (
            "mod card",
            {"faction": "fremen", "card": "Hajr", "give": False},
            "Fremen loses a treachery card.",
        ),
        (
            "mod remove",
            {"faction": "fremen", "territory": "Sietch Tabr", "forces": 2},
            "Fremen loses 2 forces in Sietch Tabr (sector 13) to reserves.",
        ),
        (
            "mod place",
            {
                "faction": "emperor",
                "territory": "Imperial Basin",
                "forces": 0,
                "special": 1,
                "sector": 9,
            },
            "Emperor place 0 forces and 1 Sardaukar from reserves in Imperial Basin (sector 9).",
        ),
        (
            "mod remove",
            {
                "faction": "emperor",
                "territory": "Imperial Basin",
                "forces": 0,
                "special": 1,
                "sector": 9,
                "to": "tanks",
            },
            "Emperor loses 0 forces and 1 Sardaukar in Imperial Basin (sector 9) to the Tleilaxu "
            "Tanks.",
        ),
    ]
    for command, options, words in said:
        await t.moderator.slash(t.table, command, **options)
        lines = t.table.last_message.content.splitlines()
        assert lines == [f"Correction by <@{mod}>: {words}", wait], lines


async def test_an_open_prompt_stays_open_and_shows_what_a_correction_changed(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env)
    prompt = t.private(GUILD).last_message
    asked = len(t.private(GUILD).history())
    await t.moderator.slash(t.table, "mod spice", faction="spacing_guild", amount=9)
    new = [m.content for m in t.private(GUILD).history()[asked:]]
    assert new == ["A moderator set your spice to 9."]  # not asked again: the same prompt
    now = next(m for m in t.private(GUILD).history() if m.id == prompt.id)
    assert "You hold 9 spice" in now.content
    await t.players[GUILD].click(now, label="Decline")
    closed = next(m for m in t.private(GUILD).history() if m.id == prompt.id)
    assert closed.content.endswith("**Closed: you declined.**")
    assert t.state().open_prompts() == ()
