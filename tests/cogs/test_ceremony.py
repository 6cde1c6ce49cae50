"""The table's ceremony (issue 11): the phase's opening, whom a message pings, and the
spectators' record (a message per faction's turn, a summary, no "Waiting for" lines).

Pings are read where Discord reads them: the ``allowed_mentions`` of the payload the bot
posted, and the users simcord's Discord actually pinged with it."""

from __future__ import annotations

import re
from typing import Any

import discord
import simcord

from rules.factions import Faction
from tests.cogs.conftest import Bots, Table, make_table
from tests.cogs.test_restart import PRIVATE_MARKS, _answer_prompts, _take_turn

OPENING = "**The Shipment & Movement phase begins.**"
STAMPS = re.compile(r"<t:\d+:f> \(<t:\d+:R>\)")


def payload_of(env: simcord.Env, channel: simcord.ChannelHandle, content: str) -> dict[str, Any]:
    """The JSON the bot posted to ``channel`` with ``content`` in it (the last such)."""
    posts = [
        r.json
        for r in env.http_requests
        if r.method == "POST" and r.path == f"/channels/{channel.id}/messages" and r.json
    ]
    found = [p for p in posts if content in str(p.get("content", ""))]
    assert found, content
    payload: dict[str, Any] = found[-1]
    return payload


def pinged(env: simcord.Env, message: discord.Message) -> list[int]:
    """The users Discord notified of ``message``."""
    stored = env.backend.messages[message.channel.id][message.id]
    return list(stored.ping_user_ids)


def message_with(channel: simcord.ChannelHandle, content: str) -> discord.Message:
    return next(m for m in reversed(channel.history()) if content in m.content)


async def play_turns(t: Table, turns: int, bots: Bots) -> None:
    """The players answer their windows and take their turns, ``turns`` of them."""
    for _ in range(400):
        view = t.state().public_view()
        if view.phase_complete or len(view.done) >= turns:
            return
        if view.prompts:
            await _answer_prompts(t, bots)
        else:
            assert view.to_act is not None
            await _take_turn(t, view.to_act)
    raise AssertionError("the turns never ended")


async def test_the_opening_lists_seats_storm_and_order_and_pings_the_first_player_only(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env, storm=7)
    view = t.state().public_view()
    first = view.storm_order[0]
    opening = message_with(t.table, OPENING)
    text = opening.content
    for faction in t.state().factions:
        assert f"{faction.label} <@{t.players[faction].id}> (sector " in text
    assert "The storm is in sector 7." in text
    assert f"Storm order: {', '.join(f.label for f in view.storm_order)}." in text
    assert f"First: **{first.label}** <@{t.players[first].id}>." in text
    assert STAMPS.search(text), text  # the deadline in each reader's own time
    sent = payload_of(simcord_env, t.table, OPENING)["allowed_mentions"]
    assert [int(u) for u in sent.get("users", [])] == [t.players[first].id] and sent.get(
        "parse"
    ) == []
    assert not sent.get("replied_user") and "roles" not in sent.get("parse", [])
    assert pinged(simcord_env, opening) == [t.players[first].id]  # six named, one pinged
    assert len({u.id for u in opening.mentions}) == len(t.state().factions)
    watched = message_with(t.spectators, OPENING)  # the spectators read it, nobody is pinged
    assert watched.content == text and pinged(simcord_env, watched) == []
    assert "users" not in payload_of(simcord_env, t.spectators, OPENING)["allowed_mentions"]


async def test_whose_turn_it_is_pings_that_player_alone(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await make_table(simcord_env)
    await play_turns(t, 1, bots)
    view = t.state().public_view()
    up = view.to_act
    assert up is not None and len(view.done) == 1
    line = f"**{up.label}** is up: <@{t.players[up].id}>."
    announced = message_with(t.table, line)
    assert pinged(simcord_env, announced) == [t.players[up].id]
    sent = payload_of(simcord_env, t.table, line)["allowed_mentions"]
    assert [int(u) for u in sent.get("users", [])] == [t.players[up].id] and sent.get("parse") == []
    turns = [m for m in t.table.history() if " is up: " in m.content]
    assert turns == [announced]  # one turn has begun since the opening
    others = [m for m in t.table.history() if m.id != announced.id and OPENING not in m.content]
    assert others and all(pinged(simcord_env, m) == [] for m in others)


async def test_a_moderators_correction_pings_nobody(simcord_env: simcord.Env, bots: Bots) -> None:
    t = await make_table(simcord_env)
    await play_turns(t, 1, bots)
    moderator = t.moderator
    await moderator.slash(t.table, "mod set-storm", sector=5)
    corrected = message_with(t.table, "Correction by")
    assert f"<@{moderator.id}>" in corrected.content
    assert pinged(simcord_env, corrected) == []
    sent = payload_of(simcord_env, t.table, "Correction by")
    assert "users" not in sent.get("allowed_mentions", {})
    await moderator.slash(t.table, "mod undo")  # undo the turn's last pass: nobody pinged
    await moderator.slash(t.table, "mod undo")
    taken_back = [m for m in t.table.history() if "was taken back" in m.content]
    assert taken_back and all(pinged(simcord_env, m) == [] for m in taken_back)
    await moderator.slash(t.table, "mod redo")  # the redo begins a turn again: no ping
    redone = message_with(t.table, "made again")
    assert " is up: <@" in redone.content and pinged(simcord_env, redone) == []


async def test_spectators_read_one_message_per_turn_and_a_summary(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await make_table(simcord_env, maps="turn")
    order = t.state().public_view().storm_order
    await play_turns(t, len(order) + 1, bots)  # the whole phase
    assert t.state().public_view().phase_complete
    texts = [m.content for m in t.spectators.history()]
    assert texts[0].startswith(OPENING)
    heads = [text.splitlines()[0] for text in texts if "turn**" in text.splitlines()[0]]
    assert heads == [f"**{possessive(f)} turn**" for f in order]  # one message per turn
    for message in t.spectators.history():
        assert "Waiting for" not in message.content and " is up" not in message.content
        if "turn**" in message.content:  # with the map of the end of that turn
            assert [a.filename for a in message.attachments][:1] == ["map.png"]
    summary = texts[-2]  # then "The game is finished."
    assert summary.startswith("The Shipment & Movement phase is over.\n**The Shipment & ")
    for faction in order:
        assert f"- {faction.label}: " in summary
    shippers = [f for f in order if f"{f.label} ships 1 force" in "\n".join(texts)]
    assert shippers and all(f"- {f.label}: shipped 1 force to " in summary for f in shippers)
    assert re.search(r"Spice paid for shipments: \d+ in all \(", summary)
    assert texts[-1].startswith("The game is finished.")


def possessive(faction: Faction) -> str:
    return f"{faction.label}'" if faction.label.endswith("s") else f"{faction.label}'s"


async def test_the_spectators_record_holds_nothing_private(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await make_table(simcord_env)
    await t.moderator.slash(t.table, "mod card", faction="atreides", card="Karama")
    await play_turns(t, 7, bots)
    record = "\n".join(m.content for m in t.spectators.history())
    assert "phase in short" in record
    for mark in (*PRIVATE_MARKS, "Karama", "spice (", "left)"):
        assert mark not in record, mark
    for faction in t.state().factions:
        spice = t.state().factions[faction].spice
        assert f"{faction.label} holds {spice}" not in record
        for message in t.private(faction).history():  # no line of a private channel
            for line in message.content.splitlines():
                if re.search(r"\d", line) and ("spice" in line or "You" in line):
                    assert line not in record
