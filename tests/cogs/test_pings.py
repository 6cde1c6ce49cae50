"""Issue 25, pings that follow the person: /pings (the caller's own settings, private;
junk and oversized input refused with nothing saved), a ping hushed in quiet hours and
made once they end (the deadline unchanged), reminders and the heads-up, and a digest by
direct message that fails (DMs closed: Discord's 403, code 50007) and falls back once to
the player's private channel."""

from __future__ import annotations

import simcord

from bot.pings import PingPrefs, PingsError
from bot.seats.pinger import DMS_CLOSED
from rules.factions import Faction
from tests.cogs.conftest import Bots, Table, is_ephemeral, make_table, refusals, text_of
from tests.cogs.faults import advance
from tests.cogs.test_ceremony import play_turns
from tests.cogs.test_prompts_in_time import newest, pings_to
from tests.cogs.test_restart import _answer_prompts

BG, GUILD = Faction.BENE_GESSERIT, Faction.SPACING_GUILD
HOUR = 3600.0


async def pings(t: Table, who: simcord.MemberActor, command: str, **options: object) -> str:
    result = await who.slash(t.lobby, f"pings {command}", **options)
    assert is_ephemeral(result), result
    return text_of(result)


async def prefs_of(t: Table, who: simcord.MemberActor) -> PingPrefs:
    return await t.bot.app.pinger.prefs(t.guild.id, who.id)


def only_refused(env: simcord.Env, count: int) -> None:
    errors = refusals(env)
    assert len(errors) == count and all(isinstance(e, PingsError) for e in errors), errors


async def test_pings_are_the_callers_own_and_bad_input_changes_nothing(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env, start=False)
    anna, other = t.players[BG], t.outsider
    shown = await pings(t, anna, "show")
    assert shown.startswith("**Your pings in this server**") and "Quiet hours: none." in shown
    saved = await pings(t, anna, "quiet", start="23:00", end="7:00", zone="Europe/Paris")
    assert saved.startswith("Saved.") and "Quiet hours: 23:00 to 07:00 (Europe/Paris)" in saved
    assert "Deadlines do not move." in saved
    assert "every 4 hours" in await pings(t, anna, "interval", every="4h")
    assert "player before you in storm order starts: on" in await pings(
        t, anna, "before-me", on=True
    )
    mine = await prefs_of(t, anna)
    refused = [
        await pings(t, anna, "quiet", start="25:00", end="07:00", zone="UTC"),
        await pings(t, anna, "quiet", start="23:00", end="07:00", zone="Europe/Pari"),
        await pings(t, anna, "quiet", start="23:00"),
        await pings(t, anna, "quiet", start="23:00", end="7:00", zone="x" * 3000),
        await pings(t, anna, "quiet", start="9" * 3000, end="7:00", zone="UTC"),
        await pings(t, anna, "interval", every="soon"),
        await pings(t, anna, "interval", every="1m"),
    ]
    assert refused[0] == "Refused: '25:00' is not a time of day: write it like 23:00 or 7:30."
    assert refused[1] == "Refused: 'Europe/Pari' is not a time zone (did you mean Europe/Paris?)."
    assert refused[2].startswith("Refused: give start, end and zone together")
    assert all(r.startswith("Refused: ") and len(r) < 300 for r in refused[3:5])
    assert refused[5].startswith("Refused: 'soon' is not an interval")
    assert refused[6].startswith("Refused: reminders come every 1 hour at most")
    only_refused(t.env, len(refused))
    assert await prefs_of(t, anna) == mine  # nothing saved
    # the outsider sees and changes their own, never anna's
    theirs = await pings(t, other, "show")
    assert "Quiet hours: none." in theirs and "Europe/Paris" not in theirs
    await pings(t, other, "interval", every="off")
    digest = await pings(t, other, "digest", on=True)  # no interval: refused
    assert digest.startswith("Refused: a digest comes at your reminder interval")
    only_refused(t.env, len(refused) + 1)
    assert await prefs_of(t, anna) == mine
    assert await prefs_of(t, other) == PingPrefs()
    removed = await pings(t, anna, "quiet")
    assert "Quiet hours: none." in removed and (await prefs_of(t, anna)).interval is not None


async def test_a_ping_in_quiet_hours_is_hushed_then_made_once_they_end(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await make_table(simcord_env)
    newcomer = t.outsider  # takes the Guild's seat, whose prompt is open
    # the clock reads 00:00 UTC: quiet until 01:00 for them
    await pings(t, newcomer, "quiet", start="23:00", end="1:00", zone="UTC")
    assert t.bot.app.clock.now().hour == 0
    deadline = t.session.settings.timers.deadline
    before = newest(t)
    await t.moderator.slash(t.table, "game seat", player=newcomer, faction=GUILD.value)
    await t.env.settle()
    prompt = t.private(GUILD).last_message
    assert prompt is not None and "Guild timing" in prompt.content
    assert prompt.content.startswith(f"<@{newcomer.id}> ")  # it names them, pings nobody
    assert pings_to(t, newcomer.id, before) == []
    assert await t.bot.app.pinger.tick() == []  # still quiet
    await advance(t, bots, HOUR - 60)
    assert await t.bot.app.pinger.tick() == []
    await advance(t, bots, 60)  # 01:00: quiet hours over, the game still waits on them
    assert [p.kind for p in await t.bot.app.pinger.tick()] == ["quiet_over"]
    await t.env.settle()
    pinged = pings_to(t, newcomer.id, before)
    assert len(pinged) == 1 and pinged[0].channel == t.private(GUILD).id
    assert f"Your quiet hours are over: game #{t.game_id} waits on you" in pinged[0].content
    assert t.session.settings.timers.deadline == deadline  # never shortened nor moved
    assert await t.bot.app.pinger.tick() == []  # said once
    await advance(t, bots, HOUR - 60)
    assert await t.bot.app.pinger.tick() == [] and len(pings_to(t, newcomer.id, before)) == 1


async def test_the_table_s_turn_ping_is_hushed_too(simcord_env: simcord.Env, bots: Bots) -> None:
    t = await make_table(simcord_env, start=False)
    first = t.state().public_view().storm_order[0]
    player = t.players[first]
    await pings(t, player, "quiet", start="0:00", end="2:00", zone="UTC")
    before = newest(t)
    await t.moderator.slash(t.table, "game start")
    await t.env.settle()
    opening = [
        m for m in t.table.history() if f"First: **{first.label}** <@{player.id}>" in m.content
    ]
    assert opening and pings_to(t, player.id, before) == []  # named at the table, not pinged
    await t.players[GUILD].click(t.private(GUILD).last_message, label="Decline")
    await advance(t, bots, 2 * HOUR)
    assert t.state().public_view().to_act is first
    assert [p.kind for p in await t.bot.app.pinger.tick()] == ["quiet_over"]
    await t.env.settle()
    assert [p.channel for p in pings_to(t, player.id, before)] == [t.private(first).id]


async def test_reminders_every_interval_and_the_heads_up(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await make_table(simcord_env)
    bg, guild = t.players[BG], t.players[GUILD]
    await pings(t, bg, "interval", every="3h")
    order = t.state().public_view().storm_order
    after_bg = order[order.index(BG) + 1]
    nxt = t.players[after_bg]
    await pings(t, nxt, "before-me", on=True)
    await pings(t, guild, "interval", every="1h")
    await t.players[GUILD].click(t.private(GUILD).last_message, label="Decline")
    await t.env.settle()
    before = newest(t)
    first = await t.bot.app.pinger.tick()  # BG's turn began: its player is next-but-one
    assert [(p.kind, p.user_id) for p in first] == [("heads_up", nxt.id)]
    await t.env.settle()
    heads_up = pings_to(t, nxt.id, before)
    assert len(heads_up) == 1 and heads_up[0].channel == t.private(after_bg).id
    assert "Bene Gesserit, the player before you in storm order, has started" in (
        heads_up[0].content
    )
    await advance(t, bots, 3 * HOUR)
    assert [(p.kind, p.user_id) for p in await t.bot.app.pinger.tick()] == [("reminder", bg.id)]
    await t.env.settle()
    reminded = pings_to(t, bg.id, before)
    assert len(reminded) == 1 and f"Game #{t.game_id} still waits on you" in reminded[0].content
    assert await t.bot.app.pinger.tick() == []  # the Guild is not awaited: no reminder
    assert pings_to(t, guild.id, before) == [] and len(pings_to(t, nxt.id, before)) == 1


async def test_a_digest_to_closed_dms_falls_back_once_to_the_private_channel(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await make_table(simcord_env)
    await play_turns(t, 1, bots)  # the first faction's turn is over: the second's begins
    if t.state().public_view().prompts:
        await _answer_prompts(t, bots)  # the Guild's timing: declined
    assert t.session.current_wait().kind == "step"
    up = t.state().public_view().to_act
    assert up is not None
    bg = t.players[up]
    await pings(t, bg, "interval", every="1h")
    on = await pings(t, bg, "digest", on=True)
    assert "Digest by direct message: on, at your reminder interval." in on
    dm = t.env.backend.get_dm_channel(bg.id).id
    assert await t.bot.app.pinger.tick() == []  # their turn: counted from now
    await advance(t, bots, HOUR)
    simcord_env.inject_error(
        "POST",
        f"/channels/{dm}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
    )
    before = newest(t)
    assert [p.kind for p in await t.bot.app.pinger.tick()] == ["reminder"]
    await t.env.settle()
    fallback = pings_to(t, bg.id, before)
    assert len(fallback) == 1 and fallback[0].channel == t.private(up).id
    assert DMS_CLOSED in fallback[0].content
    assert f"**Game #{t.game_id}, {up.label}: since your last action**" in fallback[0].content
    assert (await prefs_of(t, bg)).dm_closed
    assert "paused, your direct messages were closed" in await pings(t, bg, "show")

    def dm_posts() -> int:
        return sum(
            1
            for r in t.env.http_requests
            if r.method == "POST" and r.path == f"/channels/{dm}/messages"
        )

    tried = dm_posts()
    await advance(t, bots, HOUR)
    assert [p.kind for p in await t.bot.app.pinger.tick()] == ["reminder"]
    await t.env.settle()
    assert dm_posts() == tried  # the DM is not tried again
    again = pings_to(t, bg.id, before)
    assert len(again) == 2 and DMS_CLOSED not in again[1].content
    assert again[1].content.endswith(
        f"Game #{t.game_id} still waits on you (your turn); deadline "
        + again[1].content.rsplit("deadline ", 1)[1]
    )
    await pings(t, bg, "digest", on=True)  # set again: DMs are tried again
    assert not (await prefs_of(t, bg)).dm_closed
    await advance(t, bots, HOUR)
    assert [p.kind for p in await t.bot.app.pinger.tick()] == ["reminder"]
    await t.env.settle()
    assert dm_posts() == tried + 1
    sent = [m.content for m in t.env.backend.messages[dm].values()]
    assert len(sent) == 1 and sent[0].startswith(f"**Game #{t.game_id}, {up.label}: since")
    assert "The game waits on you (your turn); deadline <t:" in sent[0]
    assert "You hold" not in sent[0]  # no faction's private view, not even its own spice
    told = sent[0].split("\n")[1:-1]  # the public record's words since their last action
    table = "\n".join(m.content for m in t.table.history())
    assert told and all(line.startswith("- ") and line[2:] in table for line in told), told
    assert len(sent[0]) <= 2000
    deadline = t.session.settings.timers.deadline
    assert deadline is not None and t.bot.app.clock.now() < deadline  # their turn still
