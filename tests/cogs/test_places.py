"""Issue 11, the board's own words: autocomplete offers territory and sector pairs with
their cost (starred forces counted), cheapest first and strongholds first at one price,
only on the caller's own step; a misspelt territory gets "did you mean", "the Polar
Sink" is accepted, a refusal that needs a sector names the sector: option."""

from __future__ import annotations

import simcord

from bot.words.common import split_place
from rules.errors import MentatError
from rules.factions import Faction
from tests.cogs.conftest import Table, is_ephemeral, make_table, position, refusals, text_of

ATREIDES, BG, EMPEROR, GUILD = (
    Faction.ATREIDES,
    Faction.BENE_GESSERIT,
    Faction.EMPEROR,
    Faction.SPACING_GUILD,
)
STRONGHOLDS = {"Arrakeen", "Carthag", "Habbanya Sietch", "Sietch Tabr", "Tuek's Sietch"}


async def bg_to_ship(env: simcord.Env) -> Table:
    t = await make_table(env)
    await t.players[GUILD].click(t.private(GUILD).last_message, label="Decline")
    assert t.state().to_act() is BG
    return t


def cost_of(name: str) -> int:
    return int(name.rsplit(": ", 1)[1].removesuffix(" spice"))


async def test_ship_choices_pair_territory_and_sector_with_their_cost(
    simcord_env: simcord.Env,
) -> None:
    t = await bg_to_ship(simcord_env)
    choices = await t.players[BG].autocomplete(t.table, "ship", "to", "", forces=2)
    assert len(choices) == 25
    names = [c["name"] for c in choices]
    costs = [cost_of(n) for n in names]
    assert costs == sorted(costs)  # cheapest first
    assert {split_place(c["value"])[0] for c in choices[:5]} == STRONGHOLDS
    legal = {d.territory: d for d in t.state().legal_ship_destinations(BG, 2)}
    for choice in choices:
        territory, sector = split_place(choice["value"])
        assert cost_of(choice["name"]) == legal[territory].cost
        assert sector is None or sector in legal[territory].sectors
        assert choice["name"].startswith(choice["value"] + ": ")
    pairs = [c for c in choices if split_place(c["value"])[1] is not None]
    assert pairs and all(", sector " in c["name"] for c in pairs)
    sietches = await t.players[BG].autocomplete(t.table, "ship", "to", "sietch", forces=2)
    assert {c["value"] for c in sietches} == {"Habbanya Sietch", "Sietch Tabr", "Tuek's Sietch"}
    hagga = await t.players[BG].autocomplete(t.table, "ship", "to", "hagga", forces=2)
    assert [c["name"] for c in hagga] == [
        f"Hagga Basin, sector {s}: 4 spice" for s in legal["Hagga Basin"].sectors
    ]
    # the chosen pair is a whole answer: no sector: needed
    preview = await t.players[BG].slash(t.table, "ship", to=hagga[-1]["value"], forces=2)
    assert "Preview" in text_of(preview), text_of(preview)
    assert f"Hagga Basin (sector {legal['Hagga Basin'].sectors[-1]})" in text_of(preview)


async def test_the_cost_counts_starred_forces(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env, start=False)
    factions = {
        "emperor": {"spice": 20, "reserves": 10, "special_reserves": 5},
        "atreides": {"spice": 10, "reserves": 10},
    }
    seats = ["emperor", "atreides", None, None, None, None]
    scenario = position(seats=seats, alliances=[], factions=factions)
    started = await t.moderator.slash(t.table, "game start", position=scenario)
    assert "is running" in text_of(started)
    if t.state().to_act() is not EMPEROR:
        await t.players[ATREIDES].slash(t.table, "pass")
        await t.players[ATREIDES].slash(t.table, "pass")
    assert t.state().to_act() is EMPEROR
    emperor = t.players[EMPEROR]
    plain = await emperor.autocomplete(t.table, "ship", "to", "arrakeen", forces=1)
    starred = await emperor.autocomplete(t.table, "ship", "to", "arrakeen", forces=1, special=2)
    assert [c["name"] for c in plain] == ["Arrakeen: 1 spice"]
    assert [c["name"] for c in starred] == ["Arrakeen: 3 spice"]
    preview = await emperor.slash(t.table, "ship", to="Arrakeen", forces=1, special=2)
    await emperor.click(preview.response.message, label="Confirm")
    assert "Emperor ships 1 force and 2 Sardaukar to Arrakeen" in t.table.last_message.content


async def test_nothing_is_offered_off_turn_or_for_another_faction(
    simcord_env: simcord.Env,
) -> None:
    t = await bg_to_ship(simcord_env)
    atreides = t.players[ATREIDES]
    assert await atreides.autocomplete(t.table, "ship", "to", "", forces=1) == []
    assert await atreides.autocomplete(t.table, "ship", "sector", "", to="Hagga Basin") == []
    for_bg = await atreides.autocomplete(
        t.table, "ship", "to", "", forces=1, faction="bene_gesserit"
    )
    assert for_bg == []  # a player naming another faction gets its own (none: not its step)
    assert await t.outsider.autocomplete(t.table, "ship", "to", "", forces=1) == []
    moves = await atreides.autocomplete(t.table, "move", "to", "", **{"from": "Arrakeen"})
    assert moves == []  # Atreides has forces in Arrakeen but it is not its movement
    assert await t.players[BG].autocomplete(t.table, "move", "to", "", **{"from": "x"}) == []
    mine = await t.moderator.autocomplete(
        t.table, "ship", "to", "tuek", forces=1, faction="bene_gesserit"
    )
    assert [c["value"] for c in mine] == ["Tuek's Sietch"]  # a moderator acting for BG


async def test_move_choices_pair_territory_and_sector_nearest_first(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env, start=False)
    board = [{"faction": "atreides", "territory": "Arrakeen", "sector": 9, "forces": 10}]
    await t.moderator.slash(t.table, "game start", position=position(board=board))
    atreides = t.players[ATREIDES]
    assert await atreides.autocomplete(t.table, "move", "to", "", **{"from": "Arrakeen"}) == []
    await atreides.slash(t.table, "pass")  # its shipment: now its movement
    found = await atreides.autocomplete(t.table, "move", "to", "", **{"from": "Arrakeen"})
    paths = [c["name"].split(" (", 1)[1].count("→") for c in found]
    assert found and paths == sorted(paths)  # nearest first
    basin = [c for c in found if c["value"].startswith("Imperial Basin, sector ")]
    assert basin and all(c["name"].endswith("(Arrakeen → Imperial Basin)") for c in basin)
    moved = await atreides.slash(
        t.table, "move", to=basin[0]["value"], forces=1, **{"from": "Arrakeen"}
    )
    await atreides.click(moved.response.message, label="Confirm")
    sector = split_place(basin[0]["value"])[1]
    assert f"to Imperial Basin (sector {sector})" in t.table.last_message.content


async def test_refusals_name_the_place_meant_and_the_sector_option(
    simcord_env: simcord.Env,
) -> None:
    t = await bg_to_ship(simcord_env)
    bg = t.players[BG]
    before = t.state().to_dict()
    typo = await bg.slash(t.table, "ship", to="Arakeen", forces=1)
    assert is_ephemeral(typo)
    assert "there is no territory called 'Arakeen' on the board; did you mean Arrakeen?" in (
        text_of(typo)
    )
    tuek = await bg.slash(t.table, "ship", to="tueks sitch", forces=1)
    assert "did you mean Tuek's Sietch?" in text_of(tuek)
    nothing = await bg.slash(t.table, "ship", to="x" * 3000, forces=1)
    assert "did you mean" not in text_of(nothing) and len(text_of(nothing)) < 300
    sectorless = await bg.slash(t.table, "ship", to="Hagga Basin", forces=1)
    assert "Hagga Basin lies in sectors 11, 12: name the sector the forces end in with the " in (
        text_of(sectorless)
    )
    assert "sector: option (sector: 11 or sector: 12)" in text_of(sectorless)
    wrong = await bg.slash(t.table, "ship", to="Hagga Basin", sector=3, forces=1)
    assert "(sector: 11 or sector: 12)" in text_of(wrong)
    twice = await bg.slash(t.table, "ship", to="Hagga Basin, sector 12", sector=11, forces=1)
    assert "names sector 12 but the sector option says 11" in text_of(twice)
    assert t.state().to_dict() == before
    assert len(refusals(simcord_env)) == 6
    assert all(isinstance(e, MentatError) for e in refusals(simcord_env))
    sink = await bg.slash(t.table, "ship", to="the Polar Sink", forces=1)  # as the bot writes it
    assert "Preview" in text_of(sink) and "Polar Sink" in text_of(sink)
