"""Subcommands a phase's cog adds to another cog's group (cogs.groups): ``/mod record
battle`` from the battle cog, ``/karama buy`` and ``take-hand`` and ``/orders bidding`` from
the auction cog (``revive`` from the revival cog: tests/cogs/test_revival_guests.py). The
owners never name the phase; the commands read as before."""

from __future__ import annotations

import logging

import pytest
import simcord
from discord import app_commands

from cogs.groups import group_at
from rules.errors import MentatError
from rules.factions import Faction
from tests.cogs.conftest import is_ephemeral, make_table, refusals, text_of
from tests.cogs.test_whole_game import SEATS, to_bidding


def names(group: app_commands.Group) -> set[str]:
    return {command.name for command in group.commands}


async def test_the_guests_are_in_their_hosts_groups(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env, kind="whole_game", seats=SEATS)
    tree = t.bot.tree
    record = group_at(tree, ("mod", "record"))
    assert {"battle", "card", "revival", "done"} <= names(record)
    battle = record.get_command("battle")
    assert isinstance(battle, app_commands.Command)
    assert battle.qualified_name == "mod record battle"
    assert [p.name for p in battle.parameters] == ["faction", "opponent"]
    assert {"buy", "take-hand", "revive", "cancel", "standing-order"} <= names(
        group_at(tree, ("karama",))
    )


async def test_a_guest_leaves_with_its_cog_and_comes_back_with_it(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env, kind="whole_game", seats=SEATS)
    tree = t.bot.tree
    battles = t.bot.get_cog("Battles")
    assert battles is not None
    await t.bot.remove_cog("Battles")
    assert "battle" not in names(group_at(tree, ("mod", "record")))
    assert "card" in names(group_at(tree, ("mod", "record")))  # the host's own stay
    await t.bot.add_cog(type(battles)(t.bot))
    assert "battle" in names(group_at(tree, ("mod", "record")))


async def test_the_orders_group_is_its_own_cog_s_the_auction_adds_bidding(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env, kind="whole_game", seats=SEATS)
    tree = t.bot.tree
    orders = group_at(tree, ("orders",))
    assert {"bidding", "storm", "only-pass", "show", "charity", "revival"} == names(orders)
    bidding = orders.get_command("bidding")
    assert isinstance(bidding, app_commands.Command)
    assert [p.name for p in bidding.parameters] == ["order", "up_to", "faction"]
    auction = t.bot.get_cog("Auction")
    assert auction is not None and t.bot.get_cog("Orders") is not None
    await t.bot.remove_cog("Auction")
    assert names(group_at(tree, ("orders",))) == {
        "storm",
        "only-pass",
        "show",
        "charity",
        "revival",
    }
    await t.bot.add_cog(type(auction)(t.bot))
    assert "bidding" in names(group_at(tree, ("orders",)))
    player = t.players[Faction.ATREIDES]
    saved = await player.slash(t.table, "orders storm", order="pass")
    assert is_ephemeral(saved) and text_of(saved).startswith("Standing order saved")
    shown = await player.slash(t.table, "orders show")
    assert "storm card" in text_of(shown)


async def test_the_storm_cog_adds_its_guests_and_takes_them_back(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env, kind="whole_game", seats=SEATS)
    tree = t.bot.tree
    storm = t.bot.get_cog("Storm")
    assert storm is not None
    assert "storm-losses" in names(group_at(tree, ("fremen",)))
    await t.bot.remove_cog("Storm")
    assert "storm" not in names(group_at(tree, ("orders",)))
    assert {"only-pass", "show"} <= names(group_at(tree, ("orders",)))  # the host's own stay
    assert names(group_at(tree, ("fremen",))) == {
        "place",
        "worm",
        "ride",
        "karama-worm",
        "ally-worm",
    }
    assert tree.get_command("dial") is None
    await t.bot.add_cog(type(storm)(t.bot))
    assert "storm-losses" in names(group_at(tree, ("fremen",)))
    assert tree.get_command("dial") is not None
    command = group_at(tree, ("orders",)).get_command("storm")
    assert isinstance(command, app_commands.Command)
    assert command.description == "Storm cards in advance (only you see it)."
    assert [p.name for p in command.parameters] == ["order", "faction"]
    player = t.players[Faction.HARKONNEN]
    saved = await player.slash(t.table, "orders storm", order="pass")
    assert text_of(saved) == (
        "Standing order saved (only you see it): Storm: never play a storm card "
        "(pass at once when asked)."
    )
    withdrawn = await player.slash(t.table, "orders storm", order="ask")
    assert text_of(withdrawn) == "Standing order withdrawn: Storm: ask me each time."


async def test_mod_record_battle_is_the_moderators_and_reaches_the_engine(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env, kind="whole_game", seats=SEATS)
    await to_bidding(t)
    before = t.state().to_dict()
    player = await t.players[Faction.ATREIDES].slash(
        t.table, "mod record battle", faction="atreides", opponent="harkonnen"
    )
    assert is_ephemeral(player) and "moderators" in text_of(player)
    moderator = await t.moderator.slash(
        t.table, "mod record battle", faction="atreides", opponent="harkonnen"
    )
    assert is_ephemeral(moderator)
    # the engine's own refusal: a battle is recorded in the Battle phase only
    assert text_of(moderator) == (
        "Refused: record battle is not an action of the bidding phase (turn 1) (rule 1.04)."
    )
    assert t.state().to_dict() == before  # nothing recorded without Confirm
    assert all(isinstance(e, MentatError) for e in refusals(simcord_env))


MOVED_ORDERS = [
    ("orders storm", {"order": "pass"}, "storm"),
    ("orders only-pass", {"order": "pass"}, "only_pass"),
    ("orders charity", {"order": "claim"}, "charity"),
    ("orders revival", {"order": "free"}, "revival"),
]
"""The /orders subcommands that changed cogs (the orders cog's own and the phases' guests)."""


async def test_the_moved_orders_refuse_others_and_keep_one_s_own(
    simcord_env: simcord.Env, caplog: pytest.LogCaptureFixture
) -> None:
    """Another faction, an outsider and an ex-moderator give nobody's order; the owner's
    given twice reads the same; a failed acknowledgement loses no order."""
    t = await make_table(simcord_env, kind="whole_game", seats=SEATS, moderator_role="Mentats")
    holder, role = t.role_holder, t.role
    assert holder is not None and role is not None
    owner, other = Faction.ATREIDES, Faction.FREMEN
    simcord_env.backend.remove_member_role(t.guild.id, holder.id, role.id)  # an ex-moderator
    for command, options, _ in MOVED_ORDERS:
        for who, named in (
            (t.players[other], {"faction": owner.value}),
            (t.outsider, {}),
            (t.outsider, {"faction": owner.value}),
            (holder, {"faction": owner.value}),
        ):
            refused = await who.slash(t.table, command, **options, **named)
            assert is_ephemeral(refused) and text_of(refused).startswith("Refused:"), command
    assert owner not in t.session.orders
    assert len(refusals(simcord_env)) == 4 * len(MOVED_ORDERS)
    for command, options, name in MOVED_ORDERS:
        first = await t.players[owner].slash(t.table, command, **options)
        again = await t.players[owner].slash(t.table, command, **options)
        assert text_of(first) == text_of(again)
        assert text_of(first).startswith("Standing order saved (only you see it):")
        assert t.session.orders[owner].get(name) == options["order"]
    shown = text_of(await t.players[owner].slash(t.table, "orders show"))
    assert shown.count("\n- ") == len(MOVED_ORDERS)
    simcord_env.inject_error("POST", "/interactions/*", status=503, times=1)
    await t.players[owner].slash(t.table, "orders storm", order="ask")
    assert t.session.orders[owner].get("storm") == "ask"  # withdrawn all the same
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
