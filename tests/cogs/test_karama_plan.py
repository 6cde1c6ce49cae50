"""Issue 23 §2: the Atreides' Karama power (1.14.01) shows them their opponent's whole
battle plan, privately: in their channel when the plan comes in, in ``/status`` and in their
plan builder; the table and every other channel read only that it was shown to them."""

from __future__ import annotations

import simcord

from rules.factions import Faction
from rules.game import GameState
from tests.cogs.conftest import Table, refusals, text_of
from tests.cogs.test_battle_cases import lock
from tests.cogs.test_battle_table import SIX, done, message_of
from tests.cogs.turn_helpers import public_messages, public_since, start_at, whole_table
from tests.rules.battle_helpers import at_battle

F = Faction
HK, AT = F.HARKONNEN, F.ATREIDES
FORESEEN = "Your Karama shows you Harkonnen's whole battle plan: Feyd Rautha, dial 1, "
PLAN = "playing Chaumas and Shield"


def harkonnen_against_atreides() -> GameState:
    """Advanced game: the Harkonnen attack the Atreides, who hold a Karama, in Arrakeen."""
    return at_battle(
        advanced=True,
        seats=SIX,
        factions={
            "atreides": {"cards": ("Karama", "Crysknife")},
            "harkonnen": {"cards": ("Chaumas", "Shield")},
        },
        board=[("harkonnen", "Arrakeen", 9, 4), ("atreides", "Arrakeen", 9, 4)],
    )


async def status_of(t: Table, faction: Faction) -> str:
    return text_of(await t.players[faction].slash(t.table, "status"))


async def builder_of(t: Table, faction: Faction) -> str:
    return str(message_of(await t.players[faction].slash(t.table, "battle-plan")).content)


def others_read(t: Table) -> str:
    """Everything every channel but the Atreides' and the Harkonnen's own holds."""
    own = {t.private(AT).id, t.private(HK).id}
    return "\n".join(
        m.content or ""
        for ch in t.guild.channels.values()
        if ch.id not in own
        for m in ch.history()
    )


async def test_the_atreides_see_the_whole_plan_their_karama_bought(
    simcord_env: simcord.Env,
) -> None:
    t = await whole_table(simcord_env)
    await start_at(t, harkonnen_against_atreides())
    earlier = public_messages(t)
    assert (t.state().whole.step, t.state().whole.waiting) == ("prescience", (AT,))
    done(await t.players[AT].slash(t.table, "prescience", ask="plan"))
    public = public_since(t, earlier)
    assert "Atreides plays Karama to see their opponent's whole battle plan" in public
    assert "karama_power" not in public and "{" not in public
    # the opponent has not locked yet: the Atreides are told it is awaited
    assert "it is not in yet" in await status_of(t, AT)
    assert "it is not in yet" in await builder_of(t, AT)
    assert "Your Karama" not in await status_of(t, HK) + await builder_of(t, HK)
    # the Harkonnen lock: the plan reaches the Atreides' channel, and theirs alone
    await lock(t, HK, leader="Feyd Rautha", number="1", weapon="Chaumas", defense="Shield")
    said = "\n".join(m.content or "" for m in t.private(AT).history())
    assert FORESEEN in said and PLAN in said
    assert "Harkonnen shows their whole plan to the Atreides alone." in public_since(t, earlier)
    for where in (await status_of(t, AT), await builder_of(t, AT)):
        assert FORESEEN in where and PLAN in where, where
    assert "Chaumas" not in others_read(t) and "Feyd Rautha, dial" not in others_read(t)
    assert "whole battle plan: Feyd" not in await status_of(t, HK)
    refusals(simcord_env)
