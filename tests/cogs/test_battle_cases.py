"""Battles at the table (simcord) beyond the plain duel: the Harkonnen kill the leader they
drew, a territory split by the storm, the Harkonnen calling a traitor in their ally's
battle; each through the players' commands, buttons and builders."""

from __future__ import annotations

from typing import Any

import pytest
import simcord
from simcord.backend.errors import SetupError

from rules.battle.model import BATTLE
from rules.factions import Faction
from tests.cogs.conftest import Table, refusals, text_of
from tests.cogs.test_battle_table import SIX, done, message_of, refused, select_id
from tests.cogs.turn_helpers import public_messages, public_since, start_at, whole_table
from tests.rules.battle_helpers import at_battle, duel, fight
from tests.rules.helpers import act

F = Faction
HK, EM, FR, AT = F.HARKONNEN, F.EMPEROR, F.FREMEN, F.ATREIDES


def prompt_of(t: Table, faction: Faction) -> Any:
    """The last message with buttons in ``faction``'s private channel."""
    return next(m for m in reversed(t.private(faction).history()) if m.components)


async def lock(t: Table, faction: Faction, **chosen: str) -> str:
    """``faction`` opens its builder, chooses ``chosen`` (menu: value) and locks."""
    builder = message_of(await t.players[faction].slash(t.table, "battle-plan"))
    for field, value in chosen.items():
        custom_id = select_id(builder, field)
        await t.players[faction].select(builder, [value], custom_id=custom_id)
    return done(await t.players[faction].click(builder, label="Lock"))


async def nobody_calls(t: Table) -> None:
    """Every side asked the traitor question passes, by its button."""
    while t.state().whole.step == "traitor_calls":
        faction = t.state().whole.waiting[0]
        await t.players[faction].click(prompt_of(t, faction), label="Pass")


async def test_the_harkonnen_kill_the_leader_they_drew(simcord_env: simcord.Env) -> None:
    state = duel(advanced=True, seed=3, seats=SIX)
    fight(state, ("harkonnen", "Feyd Rautha", 2, {}), ("emperor", "Bashar", 0, {}))
    fought = BATTLE.of(state.whole)
    assert state.whole.step == "capture" and fought is not None and fought.captive
    drawn = fought.captive
    t = await whole_table(simcord_env)
    await start_at(t, state)
    seen = public_messages(t)
    spice = t.state().factions[HK].spice
    hk = t.players[HK]
    for other in (t.players[EM], t.players[FR], t.outsider):  # only the Harkonnen decide
        refused(await other.slash(t.table, "capture", leader=drawn, kill=True))
    refused(await hk.slash(t.table, "capture", leader="x" * 100, kill=True))  # junk
    assert public_messages(t) == seen
    assert drawn not in "\n".join(seen.values())  # the draw is nobody else's before
    said = done(await hk.slash(t.table, "capture", leader=drawn, kill=True))
    assert f"you kill {drawn}" in said
    public = public_since(t, seen)
    assert "Harkonnen kills one of Emperor's leaders, face down, for 2 spice." in public
    assert drawn not in public
    game = t.state().whole
    assert drawn in game.held(game.leaders_tanks, EM) and drawn not in game.held(game.leaders, EM)
    assert drawn not in game.held(game.leaders, HK) and drawn not in game.captives
    assert t.state().factions[HK].spice == spice + 2
    refused(await hk.slash(t.table, "capture", leader=drawn, kill=True))  # twice
    assert t.state().factions[HK].spice == spice + 2
    refusals(simcord_env)


async def test_a_territory_split_by_the_storm_holds_a_battle_in_each_part(
    simcord_env: simcord.Env,
) -> None:
    """The storm in sector 14 of Wind Pass (13-16): the Harkonnen meet the Fremen in 13 and
    the Emperor in 15-16; the Fremen and the Emperor, across the storm, never fight."""
    state = at_battle(
        storm=14,
        seats=SIX,
        board=[
            ("harkonnen", "Wind Pass", 13, 2),
            ("harkonnen", "Wind Pass", 16, 3),
            ("fremen", "Wind Pass", 13, 2),
            ("emperor", "Wind Pass", 16, 2),
        ],
    )
    t = await whole_table(simcord_env)
    await start_at(t, state)
    assert t.state().whole.step == "choose" and t.state().waiting_on() == (HK,)
    seen = public_messages(t)
    hk = t.players[HK]
    where = await hk.autocomplete(t.table, "battle", "territory", "")
    assert [o["value"] for o in where] == ["Wind Pass"]
    parts = await hk.autocomplete(t.table, "battle", "sector", "", territory="Wind Pass")
    assert [(o["name"], o["value"]) for o in parts] == [
        ("Wind Pass, sector 13 (the storm is in sector 14)", 13),
        ("Wind Pass, sectors 15-16 (the storm is in sector 14)", 15),
    ]
    whom = await hk.autocomplete(t.table, "battle", "opponent", "", territory="Wind Pass")
    assert [o["name"] for o in whom] == [
        "Fremen in Wind Pass, sector 13 (the storm is in sector 14)",
        "Emperor in Wind Pass, sectors 15-16 (the storm is in sector 14)",
    ]
    for other in (t.players[FR], t.players[EM]):  # across the storm: no battle of theirs
        assert await other.autocomplete(t.table, "battle", "territory", "") == []
        refused(await other.slash(t.table, "battle", territory="Wind Pass", opponent="harkonnen"))
    # the opponent must be in the part named; the Emperor fight in one part only, so the
    # engine needs no sector for them
    refused(await hk.slash(t.table, "battle", territory="Wind Pass", opponent="emperor", sector=13))
    assert public_messages(t) == seen
    said = done(await hk.slash(t.table, "battle", territory="Wind Pass", opponent="emperor"))
    assert "Emperor" in said
    assert "Battle in Wind Pass (the part of sector 15): Harkonnen attacks Emperor." in (
        public_since(t, seen)
    )
    fought = BATTLE.of(t.state().whole)
    assert fought is not None and fought.sectors == (15, 16)
    await lock(t, HK, number="3")
    await lock(t, EM)
    await nobody_calls(t)
    # the Emperor lost in 15-16; the other part is untouched, and its battle comes next
    assert t.state().stack(EM, "Wind Pass", 16).forces == 0
    assert t.state().stack(HK, "Wind Pass", 13).forces == 2
    assert t.state().stack(FR, "Wind Pass", 13).forces == 2
    fought = BATTLE.of(t.state().whole)
    assert fought is not None and fought.sectors == (13,)
    # (the other part alone holds a battle now: the territory is no longer split)
    assert "Battle in Wind Pass: Harkonnen attacks Fremen." in public_since(t, seen)
    await lock(t, FR, number="2")
    await lock(t, HK)
    await nobody_calls(t)
    assert BATTLE.of(t.state().whole) is None  # the Fremen and the Emperor never met
    public = public_since(t, seen)
    assert "attacks Emperor" in public and "Fremen attacks" not in public
    assert "Emperor attack" not in public
    refusals(simcord_env)


async def test_the_harkonnen_call_a_traitor_in_their_allys_battle(
    simcord_env: simcord.Env,
) -> None:
    """The Emperor (allied to the Harkonnen) fight the Atreides, whose Duncan Idaho is a
    Harkonnen traitor: the Harkonnen are asked privately and call by the button; the table
    hears the call, never the card before it."""
    state = at_battle(
        seats=SIX,
        alliances=[["harkonnen", "emperor"]],
        board=[("atreides", "Carthag", 10, 4), ("emperor", "Carthag", 10, 3)],
        traitors={HK: ("Duncan Idaho",)},
    )
    act(state, "atreides", "pass")  # no Prescience
    t = await whole_table(simcord_env)
    await start_at(t, state)
    seen = public_messages(t)
    await lock(t, AT, leader="Duncan Idaho", number="4")
    await lock(t, EM)
    assert t.state().whole.step == "traitor_calls"
    assert set(t.state().whole.waiting) == {AT, EM, HK}  # the ally's traitors count too
    public = public_since(t, seen)
    assert "Atreides' plan: Duncan Idaho" in public
    assert "Traitor" not in public and "traitor to" not in public
    asked = prompt_of(t, HK)
    assert "call a traitor" in asked.content
    # the Fremen are not asked; a player naming the Harkonnen is refused; an outsider too
    refused(await t.players[FR].slash(t.table, "traitor call"))
    refused(await t.players[AT].slash(t.table, "traitor call", faction="harkonnen"))
    refused(await t.outsider.slash(t.table, "traitor call"))
    refused(await t.players[AT].slash(t.table, "traitor call"))  # holds no such card
    assert "Traitor" not in public_since(t, seen)
    said = text_of(await t.players[HK].click(asked, label="Call a traitor"))
    assert said.startswith("Traitor called"), said
    await nobody_calls(t)
    public = public_since(t, seen)
    assert "Traitor! Harkonnen reveals Duncan Idaho as a traitor to Atreides." in public
    assert "Emperor wins the battle by treachery; Atreides loses." in public
    assert t.state().factions[AT].tanks == 4
    with pytest.raises(SetupError):  # the answered prompt lost its buttons: no twice
        await t.players[HK].click(asked, label="Call a traitor")
    refusals(simcord_env)


async def test_status_says_where_a_captured_leader_went(simcord_env: simcord.Env) -> None:
    state = duel(advanced=True, seed=3, seats=SIX)
    fight(state, ("harkonnen", "Feyd Rautha", 2, {}), ("emperor", "Bashar", 0, {}))
    fought = BATTLE.of(state.whole)
    assert fought is not None and fought.captive
    drawn = fought.captive
    t = await whole_table(simcord_env)
    await start_at(t, state)
    for faction in (HK, FR):  # the draw: named in no status before the Harkonnen decide
        assert drawn not in text_of(await t.players[faction].slash(t.table, "status"))
    done(await t.players[HK].slash(t.table, "capture", leader=drawn))
    emperor = await t.players[EM].slash(t.table, "status")
    assert f"{drawn}, held by the Harkonnen." in text_of(emperor)
    fremen = text_of(await t.players[FR].slash(t.table, "status"))
    assert f"Held by the Harkonnen: {drawn} (Emperor)." in fremen
    harkonnen = text_of(await t.players[HK].slash(t.table, "status"))
    assert f"{drawn} (captured from the Emperor)" in harkonnen
    assert all(len(x) <= 2000 for x in (fremen, harkonnen))
    refusals(simcord_env)
