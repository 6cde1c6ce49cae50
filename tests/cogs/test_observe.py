"""Issue 25, observers per game: ``/observe join`` opens one game's spectators' channel to
one user (a permission overwrite on that channel only), ``/observe leave`` closes it, and
every refusal says why and changes nothing."""

from __future__ import annotations

import simcord
from simcord.backend.access import can_access_channel

from bot.seats.observers import ObserverError
from rules.factions import Faction
from tests.cogs.conftest import Bots, Table, is_ephemeral, make_table, refusals, text_of
from tests.cogs.faults import delete

PERMISSIONS = "/channels/{}/permissions/*"


def only_refused(env: simcord.Env, count: int) -> None:
    """The refusals went through the central handler as the observers' refusals, no crash."""
    errors = refusals(env)
    assert len(errors) == count and all(isinstance(e, ObserverError) for e in errors), errors


def reads(t: Table, who: simcord.MemberActor, channel_id: int) -> bool:
    return can_access_channel(t.env, channel_id, who, history=True)


async def observe(t: Table, who: simcord.MemberActor, verb: str, **options: object) -> str:
    result = await who.slash(t.table, f"observe {verb}", **options)
    assert is_ephemeral(result), result
    return text_of(result)


async def test_an_outsider_observes_one_game_and_leaves_it(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    assert not reads(t, t.outsider, t.spectators.id)  # hidden until asked for
    answer = await observe(t, t.outsider, "join")
    assert answer.startswith(f"You now observe game #{t.game_id}: <#{t.spectators.id}>")
    assert reads(t, t.outsider, t.spectators.id)
    assert t.spectators.history(viewer=t.outsider)  # the record so far, readable
    assert await observe(t, t.outsider, "leave") == f"You no longer observe game #{t.game_id}."
    assert not reads(t, t.outsider, t.spectators.id)


async def test_observing_one_game_shows_no_other_game(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    first = t.spectators.id  # (the guild's channels by name are the newest game's after this)
    await t.moderator.slash(t.lobby, "game new", kind="one_phase")
    other = max(g.id for g in await t.bot.app.store.games(t.guild.id))
    assert other != t.game_id
    others = int((await t.bot.app.store.game(other)).channels["spectators"])
    await observe(t, t.outsider, "join", game=other)
    assert reads(t, t.outsider, others)
    assert not reads(t, t.outsider, first)


async def test_twice_and_leaving_without_observing_are_refused_in_words(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env)
    assert await observe(t, t.outsider, "leave") == (
        f"Refused: you do not observe game #{t.game_id}, so there is nothing to leave."
    )
    await observe(t, t.outsider, "join")
    again = await observe(t, t.outsider, "join")
    assert again == f"Refused: you already observe game #{t.game_id} in <#{t.spectators.id}>."
    assert reads(t, t.outsider, t.spectators.id)
    only_refused(t.env, 2)


async def test_a_player_of_the_game_is_told_there_is_nothing_more_to_see(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env)
    player = t.players[Faction.ATREIDES]
    answer = await observe(t, player, "join")
    assert answer.startswith(f"Refused: you play Atreides in game #{t.game_id}: its table")
    assert not reads(t, player, t.spectators.id)
    only_refused(t.env, 1)


async def test_no_such_game_a_finished_game_and_a_deleted_channel(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env)
    missing = await observe(t, t.outsider, "join", game=t.game_id + 99)
    assert missing == f"Refused: there is no game #{t.game_id + 99} in this server."
    elsewhere = await make_table(simcord_env, start=False)  # another server's game
    foreign = await observe(t, t.outsider, "join", game=elsewhere.game_id)
    assert foreign == f"Refused: there is no game #{elsewhere.game_id} in this server."
    delete(t, t.spectators)
    gone = await observe(t, t.outsider, "join")
    assert gone.startswith(f"Refused: game #{t.game_id} has no spectators' channel any more")
    await t.bot.app.store.finish_game(t.game_id)
    over = await observe(t, t.outsider, "join")
    assert over == f"Refused: game #{t.game_id} is finished: there is nothing left to watch."
    only_refused(t.env, 4)


async def test_discord_refusing_the_overwrite_is_told_and_nothing_is_half_done(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env)
    path = PERMISSIONS.format(t.spectators.id)
    simcord_env.inject_error("PUT", path, status=403, code=50013, message="Missing Permissions")
    forbidden = await observe(t, t.outsider, "join")
    assert forbidden.startswith(f"Refused: Discord refused to open <#{t.spectators.id}> to you")
    assert "nothing changed" in forbidden and "Manage Permissions" in forbidden
    assert not reads(t, t.outsider, t.spectators.id)
    simcord_env.inject_error("PUT", path, status=503)
    failed = await observe(t, t.outsider, "join")
    assert "nothing changed. Try again in a moment" in failed
    assert not reads(t, t.outsider, t.spectators.id)
    await observe(t, t.outsider, "join")  # Discord is back
    simcord_env.inject_error("DELETE", path, status=503)
    stuck = await observe(t, t.outsider, "leave")
    assert stuck.startswith(f"Refused: Discord refused to close <#{t.spectators.id}>")
    assert reads(t, t.outsider, t.spectators.id)  # still observing, as they were told
    assert await observe(t, t.outsider, "leave") == f"You no longer observe game #{t.game_id}."
    only_refused(t.env, 3)


async def test_an_observer_is_still_one_after_a_restart_and_can_leave(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await make_table(simcord_env)
    await observe(t, t.outsider, "join")
    await t.bot.app.stop()
    await t.bot.app.store.close()
    await t.env.restart_bot(await bots.new())
    assert reads(t, t.outsider, t.spectators.id)
    again = await observe(t, t.outsider, "join")
    assert again.startswith("Refused: you already observe")
    assert await observe(t, t.outsider, "leave") == f"You no longer observe game #{t.game_id}."
    assert not reads(t, t.outsider, t.spectators.id)
    only_refused(t.env, 1)
