"""Issue 25, substitutes (who opens a seat, who seats a volunteer, where it is posted): the
server's channel for volunteers (`/substitute channel`), a player opening their own seat
(`/leave`, where the game allows it) and a game that seats its first volunteer."""

from __future__ import annotations

import pytest
import simcord
from simcord.backend.errors import SetupError

from rules.factions import Faction
from tests.cogs.conftest import Table, make_table, refusals, text_of
from tests.cogs.test_substitute import posted, reads

BG = Faction.BENE_GESSERIT
HEAD = "**Seat open in game #{}: Bene Gesserit.**"


async def volunteers(t: Table) -> simcord.ChannelHandle:
    """The server's channel for volunteers, chosen by the moderator."""
    channel = t.guild.create_text_channel("volunteers")
    chosen = await t.moderator.slash(t.table, "substitute channel", channel=channel)
    assert text_of(chosen) == f"Every game's open seats are posted in {channel.mention}."
    return channel


async def test_the_server_s_volunteers_channel_gets_every_open_seat(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env)
    channel = await volunteers(t)
    opened = await t.moderator.slash(t.table, "substitute open", faction="bene_gesserit")
    assert (
        text_of(opened)
        == f"The Bene Gesserit seat is open in {t.table.mention}, {channel.mention}."
    )
    assert posted(channel, HEAD.format(t.game_id)).content.endswith(
        "Press Join to volunteer; a moderator accepts one volunteer."
    )
    cleared = await t.moderator.slash(t.table, "substitute channel")
    assert text_of(cleared) == "Open seats are posted at their game's table only."
    again = await t.moderator.slash(t.table, "substitute open", faction="atreides")
    assert text_of(again) == f"The Atreides seat is open in {t.table.mention}."
    assert len([m for m in channel.history() if m.content.startswith("**Seat open")]) == 1


async def test_a_deleted_volunteers_channel_leaves_the_table_s_post(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env)
    channel = await volunteers(t)
    simcord_env.backend.delete_channel(channel.id)
    opened = await t.moderator.slash(t.table, "substitute open", faction="bene_gesserit")
    assert text_of(opened) == f"The Bene Gesserit seat is open in {t.table.mention}."


async def test_a_player_opens_their_own_seat_only_where_the_game_allows_it(
    simcord_env: simcord.Env,
) -> None:
    closed = await make_table(simcord_env)
    refused = await closed.players[BG].slash(closed.table, "leave")
    assert text_of(refused) == (
        f"Refused: in game #{closed.game_id} only a moderator opens a seat "
        "(`/substitute open`): ask them in the table's channel."
    )
    assert not [m for m in closed.table.history() if m.content.startswith("**Seat open")]
    assert len(refusals(simcord_env)) == 1  # answered by the central handler
    t = await make_table(simcord_env, players_may_leave=True)
    outsider = await t.outsider.slash(t.table, "leave")
    assert text_of(outsider) == f"Refused: you hold no seat in game #{t.game_id}."
    assert len(refusals(simcord_env)) == 2
    channel = await volunteers(t)
    leaving = t.players[BG]
    left = await leaving.slash(t.table, "leave")
    assert text_of(left) == (
        f"Your Bene Gesserit seat is open in {t.table.mention}, {channel.mention}. You play on "
        "until a volunteer takes it; then its private channel passes to them."
    )
    told = posted(t.channel("dune-moderators"), f"<@{leaving.id}> opened their Bene Gesserit")
    assert told.content.endswith("they play on until a volunteer takes it.")
    assert reads(t, leaving, t.private(BG))  # still theirs until someone takes it
    volunteer = t.guild.add_member(simcord_env.create_user("volunteer"))
    await volunteer.click(posted(channel, HEAD.format(t.game_id)), label="Join")
    request = posted(t.channel("dune-moderators"), f"<@{volunteer.id}> volunteers for")
    await t.moderator.click(request, label="Accept")
    assert (await t.bot.app.seats(t.game_id))[BG] == volunteer.id
    assert not reads(t, leaving, t.private(BG)) and reads(t, volunteer, t.private(BG))


async def test_the_first_volunteer_takes_the_seat_where_the_game_is_set_so(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env, first_volunteer=True)
    channel = await volunteers(t)
    leaving = t.players[BG]
    await t.moderator.slash(t.table, "substitute open", faction="bene_gesserit")
    post = posted(channel, HEAD.format(t.game_id))
    assert post.content.endswith("Press Join to volunteer; the first volunteer takes the seat.")
    other = await t.players[Faction.ATREIDES].click(post, label="Join")
    assert text_of(other) == (
        f"Refused: you play Atreides in game #{t.game_id}: one player, one seat."
    )
    first = t.guild.add_member(simcord_env.create_user("first"))
    taken = await first.click(post, label="Join")
    assert text_of(taken) == (
        "You play Bene Gesserit now. They were briefed in their private channel."
    ) or text_of(taken).startswith("You play Bene Gesserit now.")
    assert (await t.bot.app.seats(t.game_id))[BG] == first.id
    assert reads(t, first, t.private(BG)) and not reads(t, leaving, t.private(BG))
    assert "ou now play" in "\n".join(m.content for m in t.private(BG).history())
    mods = t.channel("dune-moderators")
    assert posted(mods, f"<@{first.id}> took the Bene Gesserit seat of game #{t.game_id}")
    assert posted(channel, HEAD.format(t.game_id)).content.endswith(f"Taken by <@{first.id}>.")
    late = await t.outsider.click(posted(t.table, HEAD.format(t.game_id)), label="Join")
    assert text_of(late) == (
        f"Refused: the Bene Gesserit seat of game #{t.game_id} was filled already."
    )
    again = await first.click(posted(t.table, HEAD.format(t.game_id)), label="Join")
    assert text_of(again).startswith("Refused: ")
    assert (await t.bot.app.seats(t.game_id))[BG] == first.id


async def test_a_player_cannot_choose_the_volunteers_channel(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    with pytest.raises(SetupError, match="not visible to this user"):  # Discord hides it
        await t.players[BG].slash(t.table, "substitute channel", channel=t.lobby)
    assert await t.bot.app.store.volunteers_channel(t.guild.id) is None
