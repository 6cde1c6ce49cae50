"""The whole turn's commands (cogs.turn) play a game through Discord: set-up, the storm's
dials, storm cards, the worm, a Nexus and CHOAM Charity; autocomplete offers only the
caller's own legal choices; nothing public tells a dial before the reveal, a traitor or
the prediction."""

from __future__ import annotations

import simcord

from rules.components import leader_owner
from rules.factions import Faction
from rules.storm.model import StormTurn
from tests.cogs.conftest import is_ephemeral, refusals, text_of
from tests.cogs.turn_helpers import (
    WORM,
    done,
    private_words,
    public_messages,
    public_since,
    secrets_of,
    set_up_by_commands,
    start_at,
    traitors_of,
    whole_table,
)
from tests.rules.game_helpers import game_at
from tests.rules.helpers import forces

F = Faction


def values(choices: list[dict[str, object]]) -> list[object]:
    return [c["value"] for c in choices]


def names(choices: list[dict[str, object]]) -> list[object]:
    return [c["name"] for c in choices]


WAIT_IN_REVIVAL = {"bene_gesserit": {"tanks": 5}}
"""No card to sell; the game then waits in the Revival phase (the Bene Gesserit choose)."""


async def test_set_up_through_the_commands_with_secret_answers(simcord_env: simcord.Env) -> None:
    t = await whole_table(simcord_env)
    atreides = traitors_of(t, F.ATREIDES).traitors_offered
    choices = await t.players[F.ATREIDES].autocomplete(t.table, "traitor keep", "leader", "")
    assert values(choices) == list(atreides)
    assert all(" strength " in str(n) for n in names(choices))  # in words
    before = public_messages(t)
    kept = await done(t, F.ATREIDES, "traitor keep", leader=atreides[2].upper())
    assert kept.startswith(f"Done: you keep {atreides[2]} (") and "Only you know" in kept
    assert traitors_of(t, F.ATREIDES).traitors == (atreides[2],)
    assert await t.players[F.ATREIDES].autocomplete(t.table, "traitor keep", "leader", "") == []
    predicted = await done(t, F.BENE_GESSERIT, "predict", winner="Fremen", turn=7)
    assert predicted.startswith("Done: you predict that Fremen will win on turn 7.")
    assert secrets_of(t, F.BENE_GESSERIT).prediction == (F.FREMEN, 7)
    public = public_since(t, before)
    assert atreides[2] not in public and "turn 7" not in public, public
    await set_up_by_commands(t)  # the others, the placements
    state = t.state()
    assert forces(state, "fremen", "Sietch Tabr") == 4
    assert forces(state, "fremen", "False Wall West") == 3
    assert any(f is F.BENE_GESSERIT and n == "Arrakeen" for f, n, _ in state.stacks)
    public = public_since(t, before)
    for faction in F:
        for leader in traitors_of(t, faction).traitors:
            assert leader not in public, (faction, leader)
    assert "Fremen will win" not in public
    for faction in F:
        if faction is not F.BENE_GESSERIT:
            assert "Fremen will win" not in private_words(t, faction)
        if faction not in (F.ATREIDES, leader_owner(atreides[2])):  # its owner may name it
            assert atreides[2] not in private_words(t, faction), faction


async def test_fremen_placement_and_the_advisor_autocomplete(simcord_env: simcord.Env) -> None:
    t = await whole_table(simcord_env)
    fremen = t.players[F.FREMEN]
    west = await fremen.autocomplete(
        t.table, "fremen place", "false_wall_west", "", sietch_tabr=6, false_wall_south=1
    )
    assert west == [{"name": "3 forces", "value": 3}]
    early = await t.players[F.BENE_GESSERIT].autocomplete(t.table, "place-advisor", "to", "")
    assert early == []  # after the Fremen (2.02.08)
    await done(t, F.FREMEN, "fremen place", sietch_tabr=6, false_wall_south=1, false_wall_west=3)
    bg = t.players[F.BENE_GESSERIT]
    places = await bg.autocomplete(t.table, "place-advisor", "to", "arra")
    assert values(places) == ["Arrakeen"]
    sectors = await bg.autocomplete(t.table, "place-advisor", "sector", "", to="The Great Flat")
    assert sectors == [{"name": "sector 14", "value": 14}]
    assert await fremen.autocomplete(t.table, "place-advisor", "to", "") == []
    placed = await done(t, F.BENE_GESSERIT, "place-advisor", to="the great flat", sector=14)
    assert placed == "Done: your force is placed in The Great Flat."


async def test_the_storm_dials_stay_secret_until_revealed(simcord_env: simcord.Env) -> None:
    t = await whole_table(simcord_env)
    await set_up_by_commands(t)
    first, second = t.state().waiting_on()
    offered = await t.players[first].autocomplete(t.table, "dial", "value", "")
    assert values(offered) == list(range(21)) and offered[17]["name"] == "dial 17"
    others = [f for f in F if f not in (first, second)]
    assert await t.players[others[0]].autocomplete(t.table, "dial", "value", "") == []
    before = public_messages(t)
    dialed = await done(t, first, "dial", value=17)
    assert dialed.startswith("Done: you dialed 17.") and "secret" in dialed
    assert "17" not in public_since(t, before)
    for faction in F:
        if faction is not first:
            assert "17" not in private_words(t, faction), faction
    status = await t.players[first].slash(t.table, "status")
    assert status.ephemeral
    assert await t.players[first].autocomplete(t.table, "dial", "value", "") == []
    await done(t, second, "dial", value=2)
    revealed = public_since(t, before)
    assert "17" in revealed, revealed  # revealed together
    assert t.state().game_phase.value != "storm"


async def test_the_storm_moves_at_once_when_every_dial_is_in(simcord_env: simcord.Env) -> None:
    """A phase whose secret choices are all in resolves at once (issue 25): no deadline runs
    out, no default is applied, the clock has not moved."""
    t = await whole_table(simcord_env)
    await set_up_by_commands(t)
    clock = t.bot.app.clock
    started = clock.now()
    first, second = t.state().waiting_on()
    before = public_messages(t)
    await done(t, first, "dial", value=3)
    assert t.state().game_phase.value == "storm"  # one dial in: still waiting
    await done(t, second, "dial", value=4)
    assert clock.now() == started
    assert t.state().game_phase.value != "storm"
    assert "Time ran out" not in public_since(t, before)


async def test_weather_control_then_a_pass_in_words(simcord_env: simcord.Env) -> None:
    t = await whole_table(simcord_env)
    held = {"cards": ("Weather Control",)}
    cards = {"atreides": held, "harkonnen": held}
    state = game_at("storm", turn=3, storm=7, dialers=(F.EMPEROR, F.FREMEN), factions=cards)
    await start_at(t, state)
    await done(t, F.EMPEROR, "dial", value=1)
    await done(t, F.FREMEN, "dial", value=2)
    atreides = t.players[F.ATREIDES]
    offered = await atreides.autocomplete(t.table, "weather-control", "sectors", "")
    assert offered[0] == {"name": "the storm stays where it is", "value": 0} and len(offered) == 11
    assert await t.players[F.EMPEROR].autocomplete(t.table, "weather-control", "sectors", "") == []
    passed = await done(t, F.HARKONNEN, "pass")
    assert passed == "Done: you play no storm card this turn."
    played = await done(t, F.ATREIDES, "weather-control", sectors=4)
    assert played == "Done: Weather Control played; the storm moves 4 sectors."
    assert t.state().storm_sector == 11


async def test_family_atomics_through_the_command(simcord_env: simcord.Env) -> None:
    t = await whole_table(simcord_env)
    state = game_at(
        "storm",
        turn=3,
        storm=7,
        dialers=(F.EMPEROR, F.FREMEN),
        factions={"harkonnen": {"cards": ("Family Atomics",)}},
        board=[("harkonnen", "Imperial Basin", 10, 2)],
    )
    await start_at(t, state)
    await done(t, F.EMPEROR, "dial", value=1)
    await done(t, F.FREMEN, "dial", value=1)
    assert await done(t, F.HARKONNEN, "family-atomics") == "Done: Family Atomics played."
    assert t.state().whole.shield_wall_destroyed


async def test_fremen_storm_losses_through_the_command(simcord_env: simcord.Env) -> None:
    t = await whole_table(simcord_env)
    state = game_at(
        "storm",
        turn=2,
        storm=2,
        advanced=True,
        storm_turn=StormTurn(next=1),
        board=[("fremen", "Cielago East", 3, 3)],
        special=[("fremen", "Cielago East", 3, 2)],
    )
    await start_at(t, state)
    fremen = t.players[F.FREMEN]
    where = await fremen.autocomplete(t.table, "fremen storm-losses", "territory", "")
    assert values(where) == ["Cielago East"]
    specials = await fremen.autocomplete(
        t.table, "fremen storm-losses", "special", "", territory="Cielago East", sector=3
    )
    assert names(specials) == ["0 Fedaykin", "1 Fedaykin", "2 Fedaykin"]
    said = await done(
        t, F.FREMEN, "fremen storm-losses", territory="cielago east", sector=3, special=1
    )
    assert said == "Done: 1 Fedaykin among your losses in Cielago East."
    assert t.state().stack(F.FREMEN, "Cielago East", 3).special == 1


async def test_a_nexus_through_the_commands(simcord_env: simcord.Env) -> None:
    t = await whole_table(simcord_env)
    await start_at(
        t, game_at("spice_blow", spice_deck=(WORM, "Red Chasm"), spice_discard=("Old Gap",))
    )
    atreides = t.players[F.ATREIDES]
    offered = await atreides.autocomplete(t.table, "ally", "with", "")
    assert "emperor" in values(offered) and "atreides" not in values(offered)
    asked = await done(t, F.ATREIDES, "ally", **{"with": "Emperor"})
    assert asked == "Done: you ask Emperor to ally; it must ask you too."
    marked = await t.players[F.EMPEROR].autocomplete(t.table, "ally", "with", "atr")
    assert marked == [{"name": "Atreides (asks you)", "value": "atreides"}]
    formed = await done(t, F.EMPEROR, "ally", **{"with": "atreides"})
    assert formed == "Done: you are now allied with Atreides."
    assert t.state().ally_of(F.ATREIDES) is F.EMPEROR
    assert await atreides.autocomplete(t.table, "ally", "with", "") == []
    left = await done(t, F.EMPEROR, "ally-break")
    assert left == "Done: you have left your alliance." and t.state().ally_of(F.EMPEROR) is None
    for faction in t.state().waiting_on():
        said = await done(t, faction, "pass")
        assert said == "Done: you are done with this Nexus."
    assert t.state().game_phase.value != "spice_blow"


async def test_the_fremen_place_the_worm_and_ride_it(simcord_env: simcord.Env) -> None:
    t = await whole_table(simcord_env)
    state = game_at(
        "spice_blow",
        advanced=True,
        storm=10,
        board=[("harkonnen", "Imperial Basin", 10, 2), ("fremen", "Imperial Basin", 9, 2)],
        spice_deck=(WORM, WORM, "Red Chasm", "South Mesa"),
        spice_discard=("Old Gap",),
    )
    await start_at(t, state)
    fremen = t.players[F.FREMEN]
    sand = await fremen.autocomplete(t.table, "fremen worm", "territory", "imperial")
    assert values(sand) == ["Imperial Basin"]
    placed = await done(t, F.FREMEN, "fremen worm", territory="imperial basin")
    assert placed == "Done: the worm comes up in Imperial Basin."
    for faction in t.state().waiting_on():
        await done(t, faction, "pass")
    assert t.state().waiting_on() == (F.FREMEN,)
    to = await fremen.autocomplete(t.table, "fremen ride", "to", "red")
    assert values(to) == ["Red Chasm"]
    sector = await fremen.autocomplete(t.table, "fremen ride", "sector", "", to="Red Chasm")
    assert sector == [{"name": "sector 6", "value": 6}]
    rode = await done(t, F.FREMEN, "fremen ride", to="red chasm", sector=6)
    assert rode == "Done: your forces ride the worm to Red Chasm."
    assert t.state().stack(F.FREMEN, "Red Chasm", 6).forces == 2


async def test_choam_charity_claimed_and_declined(simcord_env: simcord.Env) -> None:
    t = await whole_table(simcord_env)
    poor = {"atreides": {"spice": 0}, "emperor": {"spice": 1}}
    await start_at(t, game_at("choam_charity", factions=poor))
    assert set(t.state().waiting_on()) == set(F)  # spice is secret: everyone is asked alike
    claimed = await done(t, F.ATREIDES, "charity")
    assert claimed == "Done: CHOAM Charity claimed: you receive 2 spice."
    assert t.state().factions[F.ATREIDES].spice == 2
    declined = await done(t, F.EMPEROR, "pass")
    assert declined == "Done: you do not claim CHOAM Charity."
    assert t.state().factions[F.EMPEROR].spice == 1
    rich = await t.players[F.HARKONNEN].slash(t.table, "charity")
    assert is_ephemeral(rich) and "only a faction holding 0 or 1 spice" in text_of(rich)
    assert "1.03.01" in text_of(rich) and t.state().factions[F.HARKONNEN].spice == 10
    assert [type(e).__name__ for e in refusals(simcord_env)] == ["IllegalActionError"]
    for faction in t.state().waiting_on():
        await done(t, faction, "pass")
    assert t.state().game_phase.value != "choam_charity"


async def test_a_moderator_answers_for_a_faction(simcord_env: simcord.Env) -> None:
    t = await whole_table(simcord_env)
    offered = traitors_of(t, F.EMPEROR).traitors_offered
    seen = await t.moderator.autocomplete(t.table, "traitor keep", "leader", "", faction="emperor")
    assert values(seen) == list(offered)
    result = await t.moderator.slash(t.table, "traitor keep", leader=offered[1], faction="emperor")
    assert is_ephemeral(result) and text_of(result).startswith("Done: you keep")
    assert traitors_of(t, F.EMPEROR).traitors == (offered[1],)


async def test_a_bribe_in_the_open(simcord_env: simcord.Env) -> None:
    t = await whole_table(simcord_env)
    atreides = t.players[F.ATREIDES]
    assert await atreides.autocomplete(t.table, "bribe", "to", "") == []  # not before the storm
    await start_at(t, game_at("bidding", factions=WAIT_IN_REVIVAL))
    offered = await atreides.autocomplete(t.table, "bribe", "to", "")
    assert ("harkonnen" in values(offered)) and "atreides" not in values(offered)
    before = public_messages(t)
    given = await done(t, F.ATREIDES, "bribe", to="Harkonnen", amount=3)
    assert given.startswith("Done: you give 3 spice to Harkonnen;")
    assert t.state().factions[F.ATREIDES].spice == 7
    assert t.state().whole.bribes == {F.HARKONNEN: 3}
    assert "3" in public_since(t, before)  # a bribe is public (1.12)


async def test_the_fremen_karama_worm_keeps_its_territory_secret(
    simcord_env: simcord.Env,
) -> None:
    t = await whole_table(simcord_env)
    cards = {"fremen": {"cards": ("Karama",)}, **WAIT_IN_REVIVAL}
    await start_at(t, game_at("bidding", advanced=True, factions=cards))
    fremen = t.players[F.FREMEN]
    sand = await fremen.autocomplete(t.table, "fremen karama-worm", "territory", "the great f")
    assert values(sand) == ["The Great Flat"]
    assert (
        await t.players[F.ATREIDES].autocomplete(t.table, "fremen karama-worm", "territory", "")
        == []
    )
    before = public_messages(t)
    played = await done(t, F.FREMEN, "fremen karama-worm", territory="the great flat")
    assert "Only you know it comes up in The Great Flat" in played
    assert t.state().whole.karama_worm == "The Great Flat"
    assert "Great Flat" not in public_since(t, before)


async def test_the_fremen_choose_in_secret_whether_the_worm_spares_their_ally(
    simcord_env: simcord.Env,
) -> None:
    t = await whole_table(simcord_env)
    await start_at(
        t, game_at("bidding", alliances=[["fremen", "atreides"]], factions=WAIT_IN_REVIVAL)
    )
    before = public_messages(t)
    said = await done(t, F.FREMEN, "fremen ally-worm", protect=False)
    assert said == "Done: from now on the worm does not spare your ally. Only you know."
    assert t.state().whole.fremen_expose_ally
    public = public_since(t, before)
    assert "Fremen" not in public and "worm" not in public and "spare" not in public, public
    await done(t, F.FREMEN, "fremen ally-worm", protect=True)
    assert not t.state().whole.fremen_expose_ally
