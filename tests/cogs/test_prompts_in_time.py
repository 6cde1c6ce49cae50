"""Issue 23 §3: a prompt a player must answer reaches them in time, through simcord.

- whoever a new wait asks is pinged once, by the prompt message itself (its buttons are
  there), in their own private channel;
- a prompt that Discord refuses for a while (5xx) is tried again on its own timer, and
  the moderators hear that it waits;
- ``/mod channels`` after a private channel was deleted posts the faction's open prompt
  again in the new channel;
- a button whose acknowledgement fails (a 503 on ``defer``) still does what it says.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import discord
import pytest
import simcord

from cogs.errors import APOLOGY
from rules.battle.model import BATTLE
from rules.bidding.model import AUCTION
from rules.factions import Faction
from rules.game_model import GamePhase
from tests.bot.auction_helpers import new_game, to_phase
from tests.cogs.conftest import Bots, Table, make_table, text_of
from tests.cogs.faults import advance, delete, step, texts
from tests.cogs.test_battle_builder import kwisatz_haderach_battle
from tests.cogs.test_battle_table import message_of
from tests.cogs.turn_helpers import start_at, whole_table

F = Faction
SHIP = "Waiting for Bene Gesserit to ship"
CALLBACK = "/interactions/*"  # the acknowledgement (and first answer) of an interaction


def labels(message: discord.Message) -> list[str]:
    return [c["label"] for row in message.components for c in row.to_dict()["components"]]


def prompt_of(t: Table, faction: Faction) -> discord.Message:
    """The faction's newest message with buttons (its prompt)."""
    return next(m for m in reversed(t.private(faction).history()) if m.components)


def unexpected(caplog: pytest.LogCaptureFixture) -> list[str]:
    """What was logged as an unexpected error (the apology's log line)."""
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def at_bidding(env: simcord.Env) -> tuple[Table, Faction]:
    t = await whole_table(env)
    await start_at(t, to_phase(new_game(), GamePhase.BIDDING))
    return t, t.state().whole.waiting[0]


# -- whoever a new wait asks is pinged once, by the prompt itself ------------------------------


@dataclass(frozen=True)
class Ping:
    """A message that notified a player as it was posted (Discord's allowed mentions
    applied; a later edit notifies nobody)."""

    channel: int
    content: str
    at: int = field(default=0, compare=False)  # its place among the bot's REST calls


def pings_of(t: Table, faction: Faction, after: int = 0) -> list[Ping]:
    """The messages the bot posted (after its ``after`` first REST calls) that pinged
    ``faction``'s player, anywhere."""
    return pings_to(t, t.players[faction].id, after)


def pings_to(t: Table, user: int, after: int = 0) -> list[Ping]:
    found = []
    for at, request in enumerate(t.env.http_requests[after:], start=after):
        path, sent = request.path, request.json
        if request.method != "POST" or not path.endswith("/messages") or not sent:
            continue
        allowed = [int(u) for u in (sent.get("allowed_mentions") or {}).get("users", [])]
        if user in allowed and f"<@{user}>" in str(sent.get("content", "")):
            found.append(Ping(int(path.split("/")[2]), str(sent["content"]), at))
    return found


def opened_to(t: Table, channel: int, user: int) -> int:
    """The place among the bot's REST calls where ``channel`` was opened to ``user`` (a
    ping before it notifies nobody: Discord notifies only who may read the channel)."""
    for at, request in enumerate(t.env.http_requests):
        sent = request.json if isinstance(request.json, dict) else {}
        overwrites = sent.get("permission_overwrites") or []
        edited = request.method == "PATCH" and request.path == f"/channels/{channel}"
        if edited and any(int(o["id"]) == user for o in overwrites):
            return at
    raise AssertionError(f"channel {channel} was never opened to {user}")


def newest(t: Table) -> int:
    """How many REST calls the bot made so far."""
    return len(t.env.http_requests)


async def test_each_bidder_is_pinged_once_by_its_own_prompt(simcord_env: simcord.Env) -> None:
    t = await whole_table(simcord_env)
    before = newest(t)
    await start_at(t, to_phase(new_game(), GamePhase.BIDDING))
    first = t.state().whole.waiting[0]
    prompt = prompt_of(t, first)
    assert pings_of(t, first, before) == [Ping(t.private(first).id, prompt.content)]  # its prompt
    assert prompt.content.startswith(f"<@{t.players[first].id}> ")
    assert "your turn to bid" in prompt.content
    await t.players[first].click(prompt, label="Pass")
    second = t.state().whole.waiting[0]
    assert second is not first
    (pinged,) = pings_of(t, second, before)
    assert pinged.channel == t.private(second).id and "your turn to bid" in pinged.content
    assert len(pings_of(t, first, before)) == 1  # not pinged again by what followed
    for other in F:  # nobody else was pinged by the auction
        if other not in (first, second):
            assert pings_of(t, other, before) == [], other


async def test_a_player_seated_while_the_game_waits_on_them_is_pinged_once(
    simcord_env: simcord.Env,
) -> None:
    t = await whole_table(simcord_env)  # the set-up's prompts went out before the seats
    wait = t.session.current_wait()
    assert wait is not None and len(wait.factions) > 1
    for faction in wait.factions:  # each player, once seated, pinged by its prompt again
        (ping,) = pings_of(t, faction)
        assert ping.channel == t.private(faction).id, faction
        assert "**Turn 1, Set-up**: your choice." in ping.content
        assert ping.at > opened_to(t, ping.channel, t.players[faction].id)
        first, again = [m for m in t.private(faction).history() if "your choice" in m.content]
        assert "Closed: asked again below" in first.content
        assert again.content.startswith(f"<@{t.players[faction].id}> ")  # after an edit too
        assert "Closed" not in again.content
    for faction in set(t.state().factions) - set(wait.factions):
        assert pings_of(t, faction) == [], faction  # not asked: not pinged
    before = newest(t)
    newcomer = t.guild.add_member(simcord_env.create_user("newcomer"))
    asked = wait.factions[0]
    await t.moderator.slash(t.table, "game seat", player=newcomer, faction=asked.value)
    (ping,) = pings_to(t, newcomer.id, before)  # a new player for an asked faction too
    assert ping.channel == t.private(asked).id
    assert ping.at > opened_to(t, ping.channel, newcomer.id)
    assert pings_of(t, asked, before) == []  # the player before is pinged no more


async def test_the_battle_plans_ping_both_sides_privately_and_a_reminder_does_not(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await whole_table(simcord_env)
    before = newest(t)
    await start_at(t, kwisatz_haderach_battle())
    wait = t.session.current_wait()
    assert wait is not None and set(wait.factions) == {F.ATREIDES, F.HARKONNEN}
    for faction in wait.factions:  # asked at once: each pinged in its own channel
        (ping,) = pings_of(t, faction, before)
        assert ping.channel == t.private(faction).id and "battle plan" in ping.content
    for other in set(F) - set(wait.factions):
        assert pings_of(t, other, before) == [], other
    before = newest(t)
    await advance(t, bots, t.session.timing.step.total_seconds() - 30 * 60)  # the reminders
    assert any("Reminder" in m for m in texts(t.private(F.ATREIDES)))
    assert all(pings_of(t, f, before) == [] for f in F)


async def test_a_turn_in_shipment_and_movement_is_pinged_once_at_the_table(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env)
    bg = F.BENE_GESSERIT
    (opening,) = pings_of(t, bg)  # the phase's opening names the first player
    assert opening.channel == t.table.id
    before = newest(t)
    await t.players[F.SPACING_GUILD].click(t.private(F.SPACING_GUILD).last_message, label="Decline")
    assert SHIP in prompt_of(t, bg).content  # its step's prompt ...
    assert pings_of(t, bg, before) == []  # ... pings nobody: the opening did already


# -- /mod channels posts the open prompt again in a private channel made again --------------


async def test_mod_channels_posts_the_open_prompt_again_where_it_was_deleted(
    simcord_env: simcord.Env,
) -> None:
    t, bidder = await at_bidding(simcord_env)
    lost = t.private(bidder)
    assert "your turn to bid" in prompt_of(t, bidder).content
    delete(t, lost)
    await simcord_env.settle()
    before = newest(t)
    result = await t.moderator.slash(t.channel("dune-moderators"), "mod channels")
    said = text_of(result)
    assert f"created again: #{lost.name}" in said, said
    assert "1 open prompt posted again" in said, said
    mine = t.private(bidder)
    assert mine.id != lost.id
    prompt = prompt_of(t, bidder)
    assert "your turn to bid" in prompt.content and "Pass" in labels(prompt)
    (ping,) = pings_of(t, bidder, before)  # it pings as the first one did
    assert ping.channel == mine.id
    passed = await t.players[bidder].click(prompt, label="Pass")  # its buttons are the turn's
    assert text_of(passed).startswith("Passed"), text_of(passed)
    assert t.state().whole.waiting[0] is not bidder


# -- a button whose acknowledgement fails still acts ------------------------------------------


async def test_a_bid_button_whose_acknowledgement_fails_still_bids(
    simcord_env: simcord.Env, caplog: pytest.LogCaptureFixture
) -> None:
    t, bidder = await at_bidding(simcord_env)
    prompt = prompt_of(t, bidder)
    raise_label = next(label for label in labels(prompt) if label.startswith("Bid "))
    high = AUCTION.of(t.state().whole).high_bid
    simcord_env.inject_error("POST", CALLBACK, status=503, times=1)
    result = await t.players[bidder].click(prompt, label=raise_label)
    assert AUCTION.of(t.state().whole).high_bid == high + 1  # the bid is in
    assert APOLOGY not in text_of(result), text_of(result)
    assert text_of(result).startswith("Done: you bid"), text_of(result)
    assert unexpected(caplog) == []


async def test_the_plan_builders_lock_whose_acknowledgement_fails_still_locks(
    simcord_env: simcord.Env, caplog: pytest.LogCaptureFixture
) -> None:
    t = await whole_table(simcord_env)
    await start_at(t, kwisatz_haderach_battle())
    atreides = t.players[F.ATREIDES]
    builder = message_of(await atreides.slash(t.table, "battle-plan"))
    simcord_env.inject_error("POST", CALLBACK, status=503, times=1)
    result = await atreides.click(builder, label="Lock")
    fight: Any = BATTLE.of(t.state().whole)
    assert fight is not None and F.ATREIDES in fight.plans  # the plan is in
    assert APOLOGY not in text_of(result) and text_of(result).startswith("Locked"), text_of(result)
    assert unexpected(caplog) == []


# -- a prompt Discord refuses for a while is tried again on its own timer ----------------------


async def test_a_prompt_refused_for_minutes_arrives_long_before_the_reminder(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await make_table(simcord_env)
    mine = t.private(F.BENE_GESSERIT)
    simcord_env.inject_error("POST", f"/channels/{mine.id}/messages", status=503, times=7)
    await t.players[F.SPACING_GUILD].click(t.private(F.SPACING_GUILD).last_message, label="Decline")
    await advance(t, bots, 40)  # five tries in about thirty seconds, all refused
    assert not any(SHIP in m for m in texts(mine))
    told = [m for m in texts(t.channel("dune-moderators")) if "Bene Gesserit private" in m]
    assert len(told) == 1 and "prompt" in told[0], told  # the moderators hear it waits
    await advance(t, bots, 10 * 60)  # Discord answers again: the prompt comes by itself
    prompt = prompt_of(t, F.BENE_GESSERIT)
    assert SHIP in prompt.content
    assert bots.clock.now() < t.session.deadline.at - timedelta(hours=1)  # before the reminder
    assert not any("Reminder" in m for m in texts(mine))
    await t.players[F.BENE_GESSERIT].click(prompt, label="Pass")  # and it works
    assert step(t) == ("bene_gesserit", "move")


async def test_a_prompt_button_and_a_previews_confirm_act_when_their_acknowledgement_fails(
    simcord_env: simcord.Env, caplog: pytest.LogCaptureFixture
) -> None:
    t = await make_table(simcord_env)
    guild, bg = F.SPACING_GUILD, F.BENE_GESSERIT
    simcord_env.inject_error("POST", CALLBACK, status=503, times=1)
    declined = await t.players[guild].click(t.private(guild).last_message, label="Decline")
    assert text_of(declined) == "Declined.", text_of(declined)
    assert not t.state().open_prompts()  # the Guild's window is answered
    preview = await t.players[bg].slash(t.table, "ship", to="Arrakeen", forces=1)
    assert preview.response is not None
    simcord_env.inject_error("POST", CALLBACK, status=503, times=1)
    confirmed = await t.players[bg].click(preview.response.message, label="Confirm")
    assert step(t) == ("bene_gesserit", "move")  # shipped
    assert text_of(confirmed) == "Done: submitted.", text_of(confirmed)
    assert unexpected(caplog) == []
