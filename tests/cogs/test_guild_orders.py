"""/guild standing-order: orders that cannot mean anything are refused, with the reason."""

from __future__ import annotations

import simcord

from bot.orders import OrderError
from rules.factions import Faction
from tests.cogs.conftest import is_ephemeral, make_table, refusals, text_of

GUILD = Faction.SPACING_GUILD


async def test_the_guild_cannot_act_before_itself(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    result = await t.players[GUILD].slash(
        t.table, "guild standing-order", order="before", before="spacing_guild"
    )
    assert is_ephemeral(result)
    assert text_of(result) == "Refused: the Guild cannot act before itself; name another faction."
    assert GUILD not in t.session.orders
    assert [type(e) for e in refusals(simcord_env)] == [OrderError]


async def test_an_order_and_a_different_before_are_refused(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env)
    mixed = await t.players[GUILD].slash(
        t.table, "guild standing-order", order="last", before="harkonnen"
    )
    assert is_ephemeral(mixed) and "order: and before: Harkonnen say different" in (text_of(mixed))
    bare = await t.players[GUILD].slash(t.table, "guild standing-order", order="before")
    assert "acting right before a faction needs that faction in before:" in text_of(bare)
    assert GUILD not in t.session.orders
    meant = await t.players[GUILD].slash(
        t.table, "guild standing-order", order="before", before="harkonnen"
    )
    assert text_of(meant) == (
        "Standing order saved (only you see it): Guild timing: act right before Harkonnen."
    )
    assert t.session.orders[GUILD].guild_timing == "before:harkonnen"
    assert [type(e) for e in refusals(simcord_env)] == [OrderError, OrderError]


async def test_before_a_faction_not_in_the_game_is_refused(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env, seats="atreides,spacing_guild,harkonnen")
    result = await t.players[GUILD].slash(
        t.table, "guild standing-order", order="before", before="fremen"
    )
    assert "Fremen is not in this game" in text_of(result)
    assert GUILD not in t.session.orders
    assert [type(e) for e in refusals(simcord_env)] == [OrderError]


async def test_no_order_after_the_phase_ended(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env, seats="spacing_guild,harkonnen")
    await t.moderator.slash(t.table, "mod end-phase")
    assert t.state().is_complete
    late = await t.players[GUILD].slash(t.table, "guild standing-order", order="last")
    assert is_ephemeral(late) and "game is over" in text_of(late)
    assert GUILD not in t.session.orders
    assert [type(e) for e in refusals(simcord_env)] == [OrderError]


async def test_withdrawing_with_a_faction_named_is_refused(simcord_env: simcord.Env) -> None:
    """“Ask me each time” withdraws the order: naming a faction with it says two things."""
    t = await make_table(simcord_env)
    await t.players[GUILD].slash(t.table, "guild standing-order", order="last")
    mixed = await t.players[GUILD].slash(
        t.table, "guild standing-order", order="ask", before="harkonnen"
    )
    assert is_ephemeral(mixed) and "say different things" in text_of(mixed)
    assert t.session.orders[GUILD].guild_timing == "last"
    assert [type(e) for e in refusals(simcord_env)] == [OrderError]
