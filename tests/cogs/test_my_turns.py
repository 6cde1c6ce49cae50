"""Issue 25, ``/my-turns``: privately, every game of the server waiting on the caller, with
its deadline as a Discord timestamp and a link to the open prompt; nothing about another
faction; within Discord's limit however many games."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import simcord

from bot.seats.my_turns import NOBODY_WAITS, MyTurn, my_turns_text
from rules.factions import Faction
from tests.cogs.conftest import is_ephemeral, make_table, text_of

BG, GUILD = Faction.BENE_GESSERIT, Faction.SPACING_GUILD
LINK = re.compile(r"https://discord\.com/channels/(\d+)/(\d+)/(\d+)")


async def my_turns(who: simcord.MemberActor, where: simcord.ChannelHandle) -> str:
    result = await who.slash(where, "my-turns")
    assert is_ephemeral(result), result
    return text_of(result)


async def test_the_player_awaited_gets_the_deadline_and_a_link_to_the_prompt(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env)
    await t.players[GUILD].click(t.private(GUILD).last_message, label="Decline")
    text = await my_turns(t.players[BG], t.lobby)
    head, line = text.split("\n")
    assert head == "1 game of this server waits on you:"
    deadline = int(t.session.settings.timers.deadline.timestamp())
    assert line.startswith(
        f"- Game #{t.game_id}, Bene Gesserit: your turn; deadline <t:{deadline}:f> "
        f"(<t:{deadline}:R>). https://discord.com/channels/{t.guild.id}/{t.private(BG).id}/"
    )
    found = LINK.search(line)
    assert found is not None
    prompt = next(m for m in t.private(BG).history() if m.id == int(found.group(3)))
    assert "Waiting for Bene Gesserit to ship" in prompt.content
    for other in Faction:  # no other faction is named
        assert other is BG or other.label not in text
    assert await my_turns(t.players[Faction.ATREIDES], t.table) == NOBODY_WAITS
    assert await my_turns(t.outsider, t.lobby) == NOBODY_WAITS


async def test_every_game_of_the_server_is_listed_paused_ones_last(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env)
    first = t.game_id
    await t.players[GUILD].click(t.private(GUILD).last_message, label="Decline")
    await t.moderator.slash(t.lobby, "game new", kind="one_phase", seats="bene_gesserit,emperor")
    second = max(g.id for g in await t.bot.app.store.games(t.guild.id))
    session = t.bot.app.session(second)
    awaited = session.current_wait().factions[0]
    await t.bot.app.seat(second, t.outsider.id, awaited)  # the game is paused until started
    await t.bot.app.seat(
        second,
        t.players[Faction.FREMEN].id,
        next(f for f in (BG, Faction.EMPEROR) if f is not awaited),
    )
    text = await my_turns(t.outsider, t.lobby)
    assert text.startswith("1 game of this server waits on you:\n")
    assert f"Game #{second}, {awaited.label}:" in text and "paused by a moderator" in text
    bg = await my_turns(t.players[BG], t.lobby)
    assert f"Game #{first}, Bene Gesserit: your turn" in bg and f"Game #{second}" not in bg


def test_many_games_fit_one_message_with_and_n_more() -> None:
    soon = datetime(2026, 5, 1, tzinfo=UTC)
    turns = [
        MyTurn(n, Faction.FREMEN, "choice", soon + timedelta(hours=n), None, (10**18, 10**18), 5)
        for n in range(1, 101)
    ]
    text = my_turns_text(turns, 10**18)
    assert len(text) <= 2000
    shown = text.count("\n- Game #")
    assert text.startswith("100 games of this server wait on you:\n- Game #1, Fremen: your choice")
    assert text.endswith(f"…and {100 - shown} more (the soonest deadlines are shown).")
    assert 0 < shown < 100
