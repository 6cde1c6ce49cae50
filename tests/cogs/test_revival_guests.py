"""Subcommands the Revival and CHOAM Charity cogs add to other cogs' groups (cogs.groups):
``/karama revive``, ``/mod record revival`` and ``/orders revival`` from the revival cog,
``/orders charity`` from the charity cog. They sit in their hosts' groups as before, leave
and come back with their cog, and are refused to a player where the host refuses."""

from __future__ import annotations

import simcord
from discord import app_commands

from cogs.groups import group_at
from rules.errors import MentatError
from rules.factions import Faction
from tests.cogs.conftest import is_ephemeral, make_table, refusals, text_of
from tests.cogs.test_whole_game import SEATS, to_bidding


def names(group: app_commands.Group) -> set[str]:
    return {command.name for command in group.commands}


def top_level(tree: app_commands.CommandTree) -> set[str]:  # type: ignore[type-arg]
    return {command.name for command in tree.get_commands()}


async def test_the_guests_sit_in_their_hosts_groups(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env, kind="whole_game", seats=SEATS)
    tree = t.bot.tree
    record = group_at(tree, ("mod", "record")).get_command("revival")
    assert isinstance(record, app_commands.Command)
    assert record.qualified_name == "mod record revival"
    assert [p.name for p in record.parameters] == [
        "faction",
        "forces",
        "special",
        "leader",
        "emperor_pays",
    ]
    karama = group_at(tree, ("karama",)).get_command("revive")
    assert isinstance(karama, app_commands.Command)
    assert [p.name for p in karama.parameters] == ["forces", "special", "leader", "faction"]
    orders = group_at(tree, ("orders",))
    assert {"bidding", "storm", "only-pass", "show", "revival", "charity"} == names(orders)
    for name, values in (("revival", ["free", "ask"]), ("charity", ["claim", "pass", "ask"])):
        order = orders.get_command(name)
        assert isinstance(order, app_commands.Command)
        assert [c.value for c in order.parameters[0].choices] == values
    assert {"revive", "revive-ally", "ghola", "charity"} <= top_level(tree)


async def test_the_guests_leave_with_their_cog_and_come_back_with_it(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env, kind="whole_game", seats=SEATS)
    tree = t.bot.tree
    revivals, charity = t.bot.get_cog("Revivals"), t.bot.get_cog("Charity")
    assert revivals is not None and charity is not None
    await t.bot.remove_cog("Revivals")
    await t.bot.remove_cog("Charity")
    assert "revival" not in names(group_at(tree, ("mod", "record")))
    assert "revive" not in names(group_at(tree, ("karama",)))
    assert names(group_at(tree, ("orders",))) == {"bidding", "storm", "only-pass", "show"}
    assert not {"revive", "revive-ally", "ghola", "charity"} & top_level(tree)
    assert {"card", "ghola", "done"} <= names(group_at(tree, ("mod", "record")))  # the host's
    assert {"buy", "cancel"} <= names(group_at(tree, ("karama",)))
    await t.bot.add_cog(type(revivals)(t.bot))
    await t.bot.add_cog(type(charity)(t.bot))
    assert "revival" in names(group_at(tree, ("mod", "record")))
    assert "revive" in names(group_at(tree, ("karama",)))
    assert {"revival", "charity"} <= names(group_at(tree, ("orders",)))
    assert {"revive", "revive-ally", "ghola", "charity"} <= top_level(tree)


async def test_mod_record_revival_is_the_moderators_and_reaches_the_engine(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env, kind="whole_game", seats=SEATS)
    await to_bidding(t)
    before = t.state().to_dict()
    player = await t.players[Faction.ATREIDES].slash(
        t.table, "mod record revival", faction="atreides", forces=1
    )
    assert is_ephemeral(player) and "moderators" in text_of(player)
    moderator = await t.moderator.slash(t.table, "mod record revival", faction="atreides", forces=1)
    assert is_ephemeral(moderator)
    # the engine's own refusal: a revival is recorded in the Revival phase only
    assert text_of(moderator) == (
        "Refused: record revival is not an action of the bidding phase (turn 1) (rule 1.04)."
    )
    assert t.state().to_dict() == before  # nothing recorded without Confirm
    assert all(isinstance(e, MentatError) for e in refusals(simcord_env))


async def test_the_standing_orders_given_through_the_guests(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env, kind="whole_game", seats=SEATS)
    player = t.players[Faction.ATREIDES]
    revival = await player.slash(t.table, "orders revival", order="free")
    assert is_ephemeral(revival)
    assert text_of(revival) == (
        "Standing order saved (only you see it): Revival: free revival only (you are not asked)."
    )
    charity = await player.slash(t.table, "orders charity", order="claim")
    assert text_of(charity) == (
        "Standing order saved (only you see it): Charity: always claim it when you may "
        "(else decline it)."
    )
    shown = text_of(await player.slash(t.table, "orders show"))
    assert "Charity: always claim it" in shown and "Revival: free revival only" in shown
    withdrawn = await player.slash(t.table, "orders charity", order="ask")
    assert text_of(withdrawn) == "Standing order withdrawn: Charity: ask me each time."
    assert not refusals(simcord_env)
