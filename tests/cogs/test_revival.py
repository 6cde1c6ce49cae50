"""The Revival phase through Discord (simcord): everyone with a choice asked at once,
``/revive`` offering the caller's own legal choices and their price, the free-revival
button, the revival told at the table with its price (public), a faction's spice left told
to it alone; and hostile use."""

from __future__ import annotations

import re

import discord
import simcord

from rules.actions import RemoveForces
from rules.factions import Faction
from rules.game_model import GamePhase
from tests.bot.auction_helpers import new_game, to_phase
from tests.cogs.conftest import Table, is_ephemeral, refusals, text_of
from tests.cogs.test_words import ids_in
from tests.cogs.turn_helpers import (
    private_words,
    public_messages,
    public_since,
    start_at,
    whole_table,
)

F = Faction


def labels(message: discord.Message) -> list[str]:
    return [c["label"] for row in message.components for c in row.to_dict()["components"]]


async def at_revival(t: Table) -> None:
    """Turn 1's Revival: the Atreides and the Harkonnen have forces in the tanks."""
    state = to_phase(new_game(), GamePhase.BIDDING)
    for stack in state.public_view().stacks:
        if stack.faction in (F.ATREIDES, F.HARKONNEN) and stack.forces:
            where = (stack.territory, stack.sector)
            state.apply(RemoveForces(stack.faction, *where, stack.forces, to_tanks=True))
    await start_at(t, to_phase(state, GamePhase.REVIVAL))


async def test_revival_asks_everyone_with_a_choice_at_once_and_prices_their_choices(
    simcord_env: simcord.Env,
) -> None:
    t = await whole_table(simcord_env)
    before = public_messages(t)
    await at_revival(t)
    waiting = set(t.state().whole.waiting)
    assert waiting == {F.ATREIDES, F.HARKONNEN}
    for faction in F:
        last = t.private(faction).history()
        asked = bool(last) and bool(last[-1].components) and "Revival" in last[-1].content
        assert asked == (faction in waiting), faction
    prompt = t.private(F.ATREIDES).history()[-1]
    assert labels(prompt) == ["Free revival only"] and "<t:" in prompt.content
    atreides = t.players[F.ATREIDES]
    offered = await atreides.autocomplete(t.table, "revive", "forces", "")
    names = [c["name"] for c in offered]
    assert "3 forces for 2 spice" in names and "2 forces, free" in names, names
    # another faction naming the Atreides is offered its own choices, never theirs
    spying = await t.players[F.EMPEROR].autocomplete(
        t.table, "revive", "forces", "", faction="atreides"
    )
    assert spying == []
    spice = t.state().factions[F.ATREIDES].spice
    done = await atreides.slash(t.table, "revive", forces=3)
    assert is_ephemeral(done) and text_of(done) == "Done: you revive 3 forces for 2 spice."
    assert f"You pay 2 spice; you now hold {spice - 2}." in private_words(t, F.ATREIDES)
    harkonnen_prompt = t.private(F.HARKONNEN).history()[-1]
    clicked = await t.players[F.HARKONNEN].click(harkonnen_prompt, label="Free revival only")
    assert is_ephemeral(clicked)
    public = public_since(t, before)
    assert "Atreides revives 3 forces for 2 spice." in public
    assert "Harkonnen revives 2 forces for free." in public  # its 2 free (1.05.01.01)
    assert t.state().game_phase is not GamePhase.REVIVAL
    assert not re.search(r"\b(hold|holds|has) \d+ spice\b", public)
    everything = [m.content or "" for ch in t.guild.channels.values() for m in ch.history()]
    assert ids_in(everything) == []  # no internal id reached anyone
    assert not refusals(simcord_env)


async def test_hostile_revivals_change_nothing(simcord_env: simcord.Env) -> None:
    t = await whole_table(simcord_env, moderator_role="Mentats")
    await at_revival(t)
    before, seen = t.state().to_dict(), public_messages(t)
    emperor = t.players[F.EMPEROR]
    for result in (
        await emperor.slash(t.table, "revive", forces=1),  # nothing in its tanks
        await emperor.slash(t.table, "revive", forces=1, faction="atreides"),
        await t.outsider.slash(t.table, "revive", forces=1),
        await t.players[F.ATREIDES].slash(t.table, "revive", forces=9),  # too many
        await t.players[F.ATREIDES].slash(t.table, "revive", forces=1, leader="Xyzzy" * 20),
        await t.players[F.ATREIDES].slash(t.table, "karama revive", forces=3),  # not Emperor
        await t.players[F.ATREIDES].slash(t.table, "bid", amount=1),  # not the Bidding phase
        await t.players[F.ATREIDES].slash(
            t.table, "orders revival", order="free", faction="fremen"
        ),
    ):
        text = text_of(result)
        assert is_ephemeral(result) and text.startswith("Refused: "), text
        assert len(text) <= 2000 and "XyzzyXyzzyXyzzy" not in text, text
    holder = t.role_holder
    assert holder is not None and t.role is not None
    simcord_env.backend.remove_member_role(t.guild.id, holder.id, t.role.id)
    late = await holder.slash(t.table, "revive", forces=2, faction="atreides")
    assert text_of(late).startswith("Refused: ")
    assert await holder.autocomplete(t.table, "revive", "forces", "", faction="atreides") == []
    assert t.state().to_dict() == before and public_messages(t) == seen
    done = await t.players[F.ATREIDES].slash(t.table, "revive", forces=2)
    assert text_of(done) == "Done: you revive 2 forces, free."
    again = await t.players[F.ATREIDES].slash(t.table, "revive", forces=2)
    assert text_of(again).startswith("Refused: ")  # twice: its revival is done
    refusals(simcord_env)
