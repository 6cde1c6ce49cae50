"""Issue 18: when Discord fails, no step is lost, no game dies, no prompt is hidden.

Faults come from simcord: injected HTTP errors, a deleted channel, a permission taken from
the bot, the bot removed from the server. What is asserted is what people see and the
game's position."""

from __future__ import annotations

from typing import Any

import discord
import simcord

from rules.factions import Faction
from tests.cogs.conftest import Bots, Table, make_table, position, refusals, text_of
from tests.cogs.faults import POSTS, PROMPT, STEP, advance, delete, deny, restore, step, texts

BG, GUILD, ATREIDES, FREMEN = (
    Faction.BENE_GESSERIT,
    Faction.SPACING_GUILD,
    Faction.ATREIDES,
    Faction.FREMEN,
)
SORRY = "Sorry, something went wrong"


def moderators(t: Table) -> list[str]:
    return texts(t.channel("dune-moderators"))


async def test_a_denied_table_applies_one_default_then_pauses(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await make_table(simcord_env)
    assert step(t) == ("bene_gesserit", "ship") and t.state().open_prompts()
    deny(t, t.table, "send_messages")
    await advance(t, bots, PROMPT + 1)  # the Guild's window times out: declined, nothing more
    assert step(t) == ("bene_gesserit", "ship") and not t.state().open_prompts()
    assert t.session.deadline.paused_left is not None
    said = moderators(t)
    assert any("cannot post in the table channel" in m for m in said)
    assert any("The game is paused" in m for m in said)
    await advance(t, bots, 3 * STEP)  # paused: nobody is passed unseen
    assert step(t) == ("bene_gesserit", "ship")
    assert "Waiting for Bene Gesserit to ship" in t.private(BG).last_message.content


async def test_a_503_on_a_default_costs_one_step_and_the_next_gets_full_time(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await make_table(simcord_env)
    await t.players[GUILD].click(t.private(GUILD).last_message, label="Decline")
    await advance(t, bots, STEP - 10)  # after the reminder
    simcord_env.inject_error("POST", POSTS, status=503, times=1)
    await advance(t, bots, 11)  # BG's shipment times out; its announcement fails once
    assert step(t) == ("bene_gesserit", "move")
    assert "Time ran out: Bene Gesserit passes." not in t.table.last_message.content
    await advance(t, bots, 5)  # the delivery tries again
    assert "Time ran out: Bene Gesserit passes." in t.table.last_message.content
    await advance(t, bots, STEP - 60)  # the movement step has its own full time
    assert step(t) == ("bene_gesserit", "move")
    await advance(t, bots, 120)
    assert step(t)[0] != "bene_gesserit"


async def test_a_failed_reminder_leaves_the_game_running(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await make_table(simcord_env)
    delete(t, t.private(GUILD))
    await advance(t, bots, PROMPT - 30 * 60)  # the Guild's reminder cannot be delivered
    assert any("Spacing Guild private channel" in m for m in moderators(t))
    result = await t.moderator.slash(t.table, "mod pause")
    assert SORRY not in text_of(result)
    assert "Paused by" in t.table.last_message.content
    await t.moderator.slash(t.table, "mod resume")
    await advance(t, bots, 31 * 60)  # the deadline still fires
    assert not t.state().open_prompts()
    assert step(t) == ("bene_gesserit", "ship")


async def test_a_429_on_the_action_is_not_the_players_error(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await make_table(simcord_env)
    await t.players[GUILD].click(t.private(GUILD).last_message, label="Decline")
    simcord_env.inject_error("POST", POSTS, status=429, times=8)
    result = await t.players[BG].slash(t.table, "pass")
    assert SORRY not in text_of(result) and "Refused" not in text_of(result)
    assert step(t) == ("bene_gesserit", "move")
    again = await t.players[BG].slash(t.table, "pass")  # a retry of the pass loses nothing
    assert "Refused" in text_of(again) and step(t) == ("bene_gesserit", "move")
    assert refusals(simcord_env)
    assert "Bene Gesserit does not ship" not in "\n".join(texts(t.table))
    await advance(t, bots, 600)  # the delivery tries again, pausing longer each time
    assert "Bene Gesserit does not ship" in "\n".join(texts(t.table))
    assert "Waiting for Bene Gesserit to move" in t.private(BG).last_message.content


async def test_without_attach_files_the_table_gets_the_text(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await make_table(simcord_env, maps="action")
    await t.players[GUILD].click(t.private(GUILD).last_message, label="Decline")
    deny(t, t.table, "attach_files")
    await t.players[BG].slash(t.table, "pass")
    last = t.table.last_message
    assert "Bene Gesserit does not ship" in last.content and not last.attachments
    assert "map could not be attached" in last.content
    assert any("may not attach maps in the table channel" in m for m in moderators(t))
    restore(t, t.table)
    await t.players[BG].slash(t.table, "pass", step="movement")
    assert t.table.last_message.attachments
    record = t.spectators.last_message  # the turn's record, with its map
    assert "Bene Gesserit does not ship" in record.content and record.attachments


async def test_a_deleted_moderators_channel_tells_the_table(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await make_table(simcord_env)
    delete(t, t.channel("dune-moderators"))
    result = await t.moderator.slash(t.table, "mod pause")
    assert SORRY not in text_of(result)
    table = "\n".join(texts(t.table))
    assert "Paused by" in table
    assert "For the moderators: Mentat cannot post in the moderators channel" in table


KARAMAS: dict[str, Any] = {
    "advanced": True,
    "seats": ["fremen", "atreides", "bene_gesserit", None, None, None],
    "alliances": [],
    "factions": {
        "fremen": {"spice": 3, "reserves": 5},
        "atreides": {"spice": 10, "reserves": 10, "cards": ["Karama"]},
        "bene_gesserit": {"spice": 5, "reserves": 10, "cards": ["Karama"]},
    },
    "board": [{"faction": "fremen", "territory": "Sietch Tabr", "forces": 5}],
}


async def test_one_missing_private_channel_hides_the_window_from_nobody_else(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env, start=False)
    await t.moderator.slash(t.table, "game start", position=position(**KARAMAS))
    delete(t, t.private(ATREIDES))
    fremen = t.players[FREMEN]
    await fremen.slash(t.table, "pass")
    preview = await fremen.slash(
        t.table, "move", to="Funeral Plain", sector=14, forces=2, **{"from": "Sietch Tabr"}
    )
    await fremen.click(preview.response.message, label="Confirm")
    assert "Karama window" in t.table.last_message.content
    assert "Karama window" in t.private(BG).last_message.content  # asked after Atreides
    assert any("Atreides private channel" in m for m in moderators(t))


async def test_a_new_position_with_a_private_channel_gone_is_the_same_everywhere(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await make_table(simcord_env)
    delete(t, t.private(ATREIDES))  # the first to ship in the new position
    result = await t.moderator.slash(t.table, "game start", position=position())
    assert SORRY not in text_of(result)
    live = t.state().to_dict()
    assert sorted(live["factions"]) == ["atreides", "emperor", "harkonnen"]
    await t.bot.app.stop()
    await t.bot.app.store.close()
    await t.env.restart_bot(await bots.new())
    assert t.state().to_dict() == live


async def test_a_removed_guild_pauses_the_game_and_shutdown_closes_the_store(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await make_table(simcord_env)
    await t.players[GUILD].click(t.private(GUILD).last_message, label="Decline")
    simcord_env.backend.remove_guild(t.guild.id)
    await simcord_env.settle()
    assert t.session.deadline.paused_left is not None  # at once: Discord said the bot left
    await advance(t, bots, 3 * STEP)
    assert step(t) == ("bene_gesserit", "ship")
    store = t.bot.app.store
    await t.bot.app.stop()
    await store.close()
    bots.made.remove(t.bot)


async def test_mod_channels_recreates_the_table_and_delivers_what_it_missed(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await make_table(simcord_env)
    await t.players[GUILD].click(t.private(GUILD).last_message, label="Decline")
    delete(t, t.table)
    await simcord_env.settle()
    assert t.session.deadline.paused_left is not None  # at once: Discord said it was deleted
    assert any("The game is paused" in m for m in moderators(t))
    refused = await t.players[BG].slash(t.private(BG), "pass")  # (the spectators are hidden)
    assert "paused" in text_of(refused) and step(t) == ("bene_gesserit", "ship")
    assert refusals(simcord_env)
    result = await t.moderator.slash(t.channel("dune-moderators"), "mod channels")
    assert "created again: #dune-table" in text_of(result), text_of(result)
    table = t.channel("dune-table")
    await t.moderator.slash(table, "mod resume")
    await t.players[BG].slash(table, "pass")
    assert "Bene Gesserit does not ship" in table.last_message.content
    await t.players[BG].slash(table, "pass", step="movement")
    assert step(t)[0] != "bene_gesserit"


async def test_a_permission_denied_then_restored_gets_the_missed_prompt(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await make_table(simcord_env)
    deny(t, t.private(BG), "send_messages")
    await t.players[GUILD].click(t.private(GUILD).last_message, label="Decline")
    assert "Waiting for Bene Gesserit to ship" not in "\n".join(texts(t.private(BG)))
    assert any("Bene Gesserit private channel" in m for m in moderators(t))
    result = await t.moderator.slash(t.table, "mod channels")  # the bot may not manage it
    assert "could not repair: #dune-bene-gesserit" in text_of(result)
    assert "give the bot View Channel, Send Messages and Attach Files" in text_of(result)
    restore(t, t.private(BG))  # an admin gives the permission back
    result = await t.moderator.slash(t.table, "mod channels")
    assert text_of(result).startswith("Channels: every channel of the game is in place")
    prompt = t.private(BG).last_message
    assert "Waiting for Bene Gesserit to ship" in prompt.content
    await t.players[BG].click(prompt, label="Pass")  # the late prompt works
    assert step(t) == ("bene_gesserit", "move")


# -- answers to players: always one, and never an apology for an action taken ----------------


async def test_game_seat_defers_first_and_says_when_the_channel_is_gone(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env)
    delete(t, t.private(BG))
    newcomer = t.guild.add_member(simcord_env.create_user("newcomer"))
    result = await t.moderator.slash(t.table, "game seat", player=newcomer, faction="bene_gesserit")
    assert "plays Bene Gesserit. Their private channel is gone" in text_of(result)
    assert (await t.bot.app.seats(t.game_id))[BG] == newcomer.id


async def _ship_preview(t: Table) -> Any:
    await t.players[GUILD].click(t.private(GUILD).last_message, label="Decline")
    preview = await t.players[BG].slash(t.table, "ship", to="Arrakeen", forces=1)
    assert preview.response.content.startswith("**Preview**")
    return preview


async def test_a_confirm_whose_done_edit_fails_still_answers_and_closes(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env)
    preview = await _ship_preview(t)
    simcord_env.inject_error("PATCH", "/webhooks/*/messages/@original", status=503, times=1)
    confirmed = await t.players[BG].click(preview.response.message, label="Confirm")
    assert text_of(confirmed) == "Done: submitted."
    assert step(t) == ("bene_gesserit", "move")
    again = await t.players[BG].click(preview.response.message, label="Confirm")
    assert "This preview has closed" in text_of(again)
    assert step(t) == ("bene_gesserit", "move")  # shipped once


async def test_an_old_preview_after_a_restart_is_answered(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await make_table(simcord_env)
    preview = await _ship_preview(t)
    await t.bot.app.stop()
    await t.bot.app.store.close()
    await t.env.restart_bot(await bots.new())
    late = await t.players[BG].click(preview.response.message, label="Confirm")
    assert "This preview has closed" in text_of(late) and late.ephemeral
    assert step(t) == ("bene_gesserit", "ship")  # nothing was done


async def test_a_failed_answer_is_no_apology_for_an_action_taken(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env)
    await t.players[GUILD].click(t.private(GUILD).last_message, label="Decline")
    simcord_env.inject_error("POST", "/webhooks/*", status=503, times=2)
    result = await t.players[BG].slash(t.table, "pass")
    assert not result.followups  # the answer was lost ...
    assert step(t) == ("bene_gesserit", "move")  # ... not the action
    assert "Bene Gesserit does not ship" in t.table.last_message.content
    assert not refusals(simcord_env)  # nothing reached the error handler


async def test_what_was_not_delivered_is_delivered_after_a_restart(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await make_table(simcord_env)
    await t.players[GUILD].click(t.private(GUILD).last_message, label="Decline")
    deny(t, t.spectators, "send_messages")
    await t.players[BG].slash(t.table, "pass")
    await t.players[BG].slash(t.table, "pass", step="movement")  # the turn's record is due
    assert "Bene Gesserit does not ship" not in "\n".join(texts(t.spectators))
    await t.bot.app.stop()  # the spectators' message is kept in the store
    await t.bot.app.store.close()
    restore(t, t.spectators)
    await t.env.restart_bot(await bots.new())
    await advance(t, bots, 5)  # (its first try may come before the bot is connected)
    assert "Bene Gesserit does not ship" in "\n".join(texts(t.spectators))


async def test_mod_channels_recreates_the_moderators_channel_for_the_moderator_role(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env, moderator_role="Dune mods")
    assert t.role_holder is not None
    delete(t, t.channel("dune-moderators"))
    result = await t.role_holder.slash(t.table, "mod channels")
    assert "created again: #dune-moderators" in text_of(result), text_of(result)
    made = t.channel("dune-moderators").id
    for member, sees in [(t.role_holder, True), (t.moderator, True), (t.outsider, False)]:
        bits = simcord_env.backend.compute_permissions(t.guild.id, member.id, made)
        assert discord.Permissions(bits).view_channel is sees, member
    await t.role_holder.send(t.channel("dune-moderators"), "the role holder reads and writes here")


async def test_a_map_not_delivered_is_delivered_as_a_file_after_a_restart(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await make_table(simcord_env, maps="action")
    await t.players[GUILD].click(t.private(GUILD).last_message, label="Decline")
    forbidden = {"status": 403, "code": 50013, "message": "Missing Permissions"}
    simcord_env.inject_error("POST", f"/channels/{t.spectators.id}/messages", **forbidden)
    await t.players[BG].slash(t.table, "pass")
    await t.players[BG].slash(t.table, "pass", step="movement")  # the turn's record is due
    assert t.table.last_message.attachments  # the table saw the map at once
    await t.bot.app.stop()  # the spectators' message, and its map, are kept in the store
    await t.bot.app.store.close()
    await t.env.restart_bot(await bots.new())
    await advance(t, bots, 5)
    late = next(m for m in t.spectators.history() if "Bene Gesserit does not ship" in m.content)
    assert [a.filename for a in late.attachments][:1] == ["map.png"]
    assert "map could not be attached" not in late.content
