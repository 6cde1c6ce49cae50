"""Issue 25, substitutes (the hand-over part): a moderator seats a new player in a running
game's faction; the private channel passes at once (the leaving player no longer reads
it), the newcomer is briefed there in words from that faction's own view only, the open
prompt still takes their answer, and the seat's tenures are kept and told."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
import simcord
from simcord.backend.access import can_access_channel

from rules.battle.view import traitor_secrets
from rules.bidding.model import AUCTION
from rules.factions import Faction
from rules.game_model import GamePhase
from tests.bot.auction_helpers import new_game, to_phase
from tests.cogs.conftest import Table, make_table, refusals, text_of
from tests.cogs.faults import step
from tests.cogs.test_clicks import demo
from tests.cogs.test_windows import latest
from tests.cogs.turn_helpers import start_at, whole_table

BG, GUILD = Faction.BENE_GESSERIT, Faction.SPACING_GUILD


def reads(t: Table, who: simcord.MemberActor, channel: simcord.ChannelHandle) -> bool:
    return can_access_channel(t.env, channel.id, who, history=True)


async def substitute(t: Table, faction: Faction) -> tuple[str, str]:
    """The moderator seats the outsider for ``faction``: their answer and the briefing."""
    result = await t.moderator.slash(t.table, "game seat", player=t.outsider, faction=faction.value)
    briefing = next(
        m.content for m in reversed(t.private(faction).history()) if "ou now play" in m.content
    )
    return text_of(result), briefing


async def test_a_substitute_mid_turn_is_briefed_and_answers_the_open_prompt(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env)
    await t.players[GUILD].click(t.private(GUILD).last_message, label="Decline")
    prompt = t.private(BG).last_message
    leaving = t.players[BG]
    table_before = len(t.table.history())
    answer, briefing = await substitute(t, BG)
    assert (
        answer
        == f"{t.outsider.mention} plays Bene Gesserit. They were briefed in their private channel."
    )
    assert not reads(t, leaving, t.private(BG)) and reads(t, t.outsider, t.private(BG))
    assert briefing.startswith(
        f"You now play Bene Gesserit in game #{t.game_id}, taking over "  # the prompt pings
        f"from <@{leaving.id}>. The messages above are this faction's private history so far"
    )
    spice = t.state().view_for(BG).spice
    assert f"Spice: {spice}." in briefing and "You have no ally." in briefing
    assert "Now: it is your turn (deadline <t:" in briefing
    held = briefing.split("This seat was held by: ")[1]
    assert held.startswith(f"<@{leaving.id}> from the start; <@{t.outsider.id}> from turn 1 (<t:")
    status = text_of(await t.outsider.slash(t.table, "status"))
    assert status.endswith(f"This seat was held by: {held}")
    assert len(t.table.history()) == table_before  # nothing of it at the table
    again = t.private(BG).last_message  # the open prompt, posted again below the briefing
    assert again.content.startswith(f"<@{t.outsider.id}> ") and again.id != prompt.id
    await t.outsider.click(again, label="Pass")  # it takes the newcomer's answer
    assert step(t) == ("bene_gesserit", "move")
    refused = await leaving.slash(t.table, "pass", step="movement")  # no longer theirs
    assert (
        text_of(refused)
        == "Refused: you hold no seat in this game (a moderator names the faction with `faction:`)."
    )
    assert step(t) == ("bene_gesserit", "move")
    assert len(refusals(t.env)) == 1  # (answered by the central handler)


async def test_a_whole_game_briefing_holds_the_faction_s_own_secrets_only(
    simcord_env: simcord.Env,
) -> None:
    t = await whole_table(simcord_env)
    secrets = {f: traitor_secrets(t.state().view_for(f).secrets) for f in t.state().factions}
    _, briefing = await substitute(t, Faction.HARKONNEN)
    own = secrets[Faction.HARKONNEN]
    assert own.traitors  # the Harkonnen keep all four (2.05.07)
    assert f"Your traitors: {', '.join(own.traitors)}." in briefing
    leaders = ("Your leaders:", "Held by the")  # its own leaders, named by right
    secret = "\n".join(x for x in briefing.split("\n") if not x.startswith(leaders))
    for faction, theirs in secrets.items():
        if faction is not Faction.HARKONNEN:
            for name in set(theirs.traitors_offered) - set(own.traitors):
                assert name not in secret, (faction, name)


# -- the open seat: Join, Accept, and the hostile round -----------------------------------


def posted(channel: simcord.ChannelHandle, start: str) -> Any:
    return next(m for m in reversed(channel.history()) if m.content.startswith(start))


async def test_an_open_seat_is_joined_accepted_and_handed_over(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    volunteer = t.guild.add_member(simcord_env.create_user("volunteer"))
    leaving = t.players[BG]
    opened = await t.moderator.slash(
        t.table, "substitute open", faction="bene_gesserit", channel=t.lobby
    )
    assert (
        text_of(opened)
        == f"The Bene Gesserit seat is open in {t.table.mention}, {t.lobby.mention}."
    )
    head = f"**Seat open in game #{t.game_id}: Bene Gesserit.**"
    post = posted(t.lobby, head)
    assert post.content == posted(t.table, head).content
    assert "12 hours for a turn's step, 2 hours for a question" in post.content
    assert "Spice" not in post.content and "<@" not in post.content  # nothing private, no one
    joined = await volunteer.click(post, label="Join")
    assert text_of(joined) == "You volunteered: the moderators will answer here and ping you."
    mods = t.channel("dune-moderators")
    request = posted(mods, f"<@{volunteer.id}> volunteers for the Bene Gesserit seat")
    again = await volunteer.click(post, label="Join")  # pressed twice: told, not posted again
    assert text_of(again) == "Refused: you volunteered already; a moderator will answer."
    assert len([m for m in mods.history() if "volunteers for" in m.content]) == 1
    other = await t.players[Faction.ATREIDES].click(post, label="Join")
    assert (
        text_of(other) == f"Refused: you play Atreides in game #{t.game_id}: one player, one seat."
    )
    await t.outsider.click(post, label="Join")  # a second volunteer, never accepted
    second = posted(mods, f"<@{t.outsider.id}> volunteers for the Bene Gesserit seat")
    await t.bot.app.store.remove_moderator(t.game_id, t.moderator.id)  # an ex-moderator
    stale_mod = await t.moderator.click(request, label="Accept")
    assert text_of(stale_mod) == "Refused: only this game's moderators may do that."
    assert (await t.bot.app.seats(t.game_id))[BG] == leaving.id
    await t.bot.app.store.add_moderator(t.game_id, t.moderator.id)
    accepted = await t.moderator.click(request, label="Accept")
    assert text_of(accepted) == (
        f"<@{volunteer.id}> plays Bene Gesserit. They were briefed in their private channel."
    )
    assert (await t.bot.app.seats(t.game_id))[BG] == volunteer.id
    assert reads(t, volunteer, t.private(BG)) and not reads(t, leaving, t.private(BG))
    pinged = f"<@{volunteer.id}> "  # once: by the briefing, or by the open prompt below it
    assert [m.content.startswith(pinged) for m in t.private(BG).history()].count(True) == 1
    assert "ou now play" in t.private(BG).last_message.content  # the game waits on nobody
    closed = posted(mods, f"<@{volunteer.id}> volunteers for")
    assert closed.content.endswith(f"Accepted by {t.moderator.mention}.") and not closed.components
    stale = await t.moderator.click(second, label="Accept")  # the seat is filled now
    assert (
        text_of(stale)
        == f"Refused: the Bene Gesserit seat of game #{t.game_id} was filled already."
    )
    assert (await t.bot.app.seats(t.game_id))[BG] == volunteer.id
    late = await t.outsider.click(posted(t.table, head), label="Join")  # a stale Join
    assert (
        text_of(late) == f"Refused: the Bene Gesserit seat of game #{t.game_id} was filled already."
    )


async def test_mid_auction_a_standing_order_survives_the_hand_over(
    simcord_env: simcord.Env,
) -> None:
    t = await whole_table(simcord_env)
    await start_at(t, to_phase(new_game(), GamePhase.BIDDING))
    bidder = AUCTION.of(t.state().whole).bidder
    other = next(f for f in t.state().factions if f is not bidder)
    await t.players[other].slash(t.table, "orders bidding", order="pass")
    orders = t.session.orders[other]
    _, briefing = await substitute(t, other)
    assert "Your standing orders:\n- Bidding: pass on every card" in briefing
    assert t.session.orders[other] == orders  # kept: it still answers for the faction
    assert "Now:" not in briefing and "The game does not wait on you now." in briefing
    shown = await t.outsider.slash(t.table, "orders show")
    assert "Bidding: pass on every card" in text_of(shown)


async def test_with_an_open_karama_window_the_newcomer_answers_it(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env, start=False)
    position = json.dumps({k: v for k, v in demo().items() if k != "actions"})
    await t.moderator.slash(t.table, "game start", position=("demo.json", position.encode()))
    await t.players[GUILD].click(latest(t, GUILD), label="Decline")
    harkonnen = t.players[Faction.HARKONNEN]
    preview = await harkonnen.slash(t.table, "ship", to="Carthag", sector=10, forces=2)
    await harkonnen.click(preview.response.message, label="Confirm")
    window = latest(t, BG)  # the Bene Gesserit's Karama window and advisor, one message
    _, briefing = await substitute(t, BG)
    assert "Now: a question waits for you (deadline <t:" in briefing
    window = latest(t, BG)  # posted again below the briefing, pinging the newcomer
    answered = await t.outsider.click(window, label="Advise to Carthag (sector 10)")
    assert text_of(answered).startswith("Noted: ")
    assert t.state().open_prompts()[0].kind.value == "karama"  # the window still runs


async def test_join_and_accept_act_when_their_acknowledgement_fails(
    simcord_env: simcord.Env, caplog: pytest.LogCaptureFixture
) -> None:
    """A 503 on the click's acknowledgement loses no volunteer and no hand-over (issue 23
    §3: every button of the bot acknowledges through one function)."""
    t = await make_table(simcord_env)
    volunteer = t.guild.add_member(simcord_env.create_user("volunteer"))
    await t.moderator.slash(t.table, "substitute open", faction="bene_gesserit", channel=t.lobby)
    post = posted(t.lobby, f"**Seat open in game #{t.game_id}: Bene Gesserit.**")
    simcord_env.inject_error("POST", "/interactions/*", status=503, times=1)
    joined = await volunteer.click(post, label="Join")
    assert text_of(joined) == "You volunteered: the moderators will answer here and ping you."
    request = posted(t.channel("dune-moderators"), f"<@{volunteer.id}> volunteers for")
    simcord_env.inject_error("POST", "/interactions/*", status=503, times=1)
    await t.moderator.click(request, label="Accept")
    assert (await t.bot.app.seats(t.game_id))[BG] == volunteer.id
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
