"""The 20 "COMMON MISTAKES" of the Shipment & Movement reference (000), each checked
against the engine: it refuses the wrong play or does the right thing.
"""

from __future__ import annotations

import pytest

from rules.errors import AmbiguousActionError, IllegalActionError, NotYourTurnError
from rules.factions import Faction
from rules.model import PromptKind
from tests.rules.helpers import act, forces, kinds, position, stack
from tests.rules.refusal import refused

TWO = ["atreides", "harkonnen"]  # storm 18: the Atreides act first
GUILD = Faction.SPACING_GUILD


def test_mistake_01_one_shipment_per_turn() -> None:
    """Mistake 1: shipping to one territory, then to another."""
    state = position(storm=18, seats=TWO)
    act(state, "atreides", "ship", to="Arrakeen", forces=2)
    refused(state, IllegalActionError, "1.06.01", "atreides", "ship", to="Carthag", forces=2)


def test_mistake_01_the_guilds_three_types_are_still_one_shipment() -> None:
    """Mistake 1 (exception): the Guild's three types share one shipment action."""
    state = position(
        storm=18,
        seats=["spacing_guild", "atreides"],
        board=[{"faction": "spacing_guild", "territory": "Tuek's Sietch", "forces": 5}],
    )
    act(state, "spacing_guild", "ship", to="Arrakeen", forces=2)
    refused(
        state,
        IllegalActionError,
        "1.06.01",
        "spacing_guild",
        "cross_ship",
        from_="Tuek's Sietch",
        to="Carthag",
        forces=2,
    )
    refused(
        state,
        IllegalActionError,
        "1.06.01",
        "spacing_guild",
        "ship_to_reserves",
        from_="Tuek's Sietch",
        forces=2,
    )


def test_mistake_02_one_movement_per_turn() -> None:
    """Mistake 2: moving A to B, then C to D."""
    state = position(
        storm=18,
        seats=TWO,
        board=[
            {"faction": "atreides", "territory": "Arrakeen", "forces": 3},
            {"faction": "atreides", "territory": "Carthag", "forces": 3},
        ],
    )
    act(state, "atreides", "pass")
    act(state, "atreides", "move", from_="Arrakeen", to="Rim Wall West", forces=3)
    assert state.to_act() is Faction.HARKONNEN
    refused(
        state,
        NotYourTurnError,
        "1.06.00",
        "atreides",
        "move",
        from_="Carthag",
        to="Tsimpo",
        sector=10,
        forces=3,
    )


def test_mistake_02_hajr_gives_exactly_one_extra_move() -> None:
    """Mistake 2 (exception): Hajr adds one movement action (3.01.09)."""
    state = position(
        storm=18,
        seats=TWO,
        factions={"atreides": {"cards": ["Hajr"]}},
        board=[
            {"faction": "atreides", "territory": "Arrakeen", "forces": 3},
            {"faction": "atreides", "territory": "Carthag", "forces": 3},
        ],
    )
    act(state, "atreides", "pass")
    act(state, "atreides", "hajr")
    act(state, "atreides", "move", from_="Arrakeen", to="Rim Wall West", forces=3)
    assert state.to_act() is Faction.ATREIDES
    act(state, "atreides", "move", from_="Carthag", to="Tsimpo", sector=10, forces=3)
    assert state.to_act() is Faction.HARKONNEN
    assert forces(state, "atreides", "Rim Wall West") == 3
    assert forces(state, "atreides", "Tsimpo") == 3


def test_mistake_03_one_move_takes_forces_from_one_territory_only() -> None:
    """Mistake 3: moving groups from two territories as one movement action."""
    state = position(
        storm=18,
        seats=TWO,
        factions={"atreides": {"reserves": 5}},
        board=[
            {"faction": "atreides", "territory": "Imperial Basin", "sector": 8, "forces": 5},
            {"faction": "atreides", "territory": "Rim Wall West", "forces": 10},
        ],
    )
    act(state, "atreides", "pass")
    refused(
        state,
        IllegalActionError,
        "1.06.03",
        "atreides",
        "move",
        from_="Imperial Basin",
        to="Arrakeen",
        forces=15,
    )


def test_mistake_03_sectors_of_one_territory_move_together_unless_storm_separates() -> None:
    """Mistake 3 (clarification): several sectors of one territory are one group."""
    board = [
        {"faction": "atreides", "territory": "Imperial Basin", "sector": 8, "forces": 2},
        {"faction": "atreides", "territory": "Imperial Basin", "sector": 10, "forces": 3},
    ]
    clear = position(storm=18, seats=TWO, board=board)
    act(clear, "atreides", "pass")
    act(clear, "atreides", "move", from_="Imperial Basin", to="Arrakeen", forces=5)
    assert forces(clear, "atreides", "Arrakeen") == 5

    # Storm over sector 9 separates sectors 8 and 10 (seat 3 first).
    stormy = position(storm=9, seats=[None, None, None, "atreides", "harkonnen"], board=board)
    act(stormy, "atreides", "pass")
    refused(
        stormy,
        AmbiguousActionError,
        "1.06.03",
        "atreides",
        "move",
        from_="Imperial Basin",
        to="Shield Wall",
        sector=8,
        forces=5,
    )


def test_mistake_04_and_05_who_receives_the_payment() -> None:
    """Mistakes 4 and 5: others pay the Guild; the Guild pays the bank for its own."""
    state = position(storm=18, seats=["atreides", "spacing_guild"])
    act(state, "atreides", "ship", to="Arrakeen", forces=4)
    assert state.factions[GUILD].spice == 24
    assert state.factions[Faction.ATREIDES].spice == 16
    assert state.spice_bank == 0
    act(state, "atreides", "pass")
    act(state, "spacing_guild", "ship", to="Carthag", forces=4)
    assert state.factions[GUILD].spice == 22
    assert state.spice_bank == 2


def test_mistake_06_allies_sharing_a_territory_go_to_the_tanks() -> None:
    """Mistake 6: allies in one territory (not the Polar Sink) at the end of a turn."""
    state = position(
        storm=18,
        seats=TWO,
        alliances=[["atreides", "harkonnen"]],
        board=[
            {"faction": "harkonnen", "territory": "Carthag", "forces": 2},
            {"faction": "harkonnen", "territory": "Polar Sink", "forces": 2},
            {"faction": "atreides", "territory": "Polar Sink", "forces": 4},
        ],
    )
    events = act(state, "atreides", "ship", to="Carthag", forces=3)
    assert forces(state, "atreides", "Carthag") == 3  # not yet: only at the end of the turn
    events += act(state, "atreides", "pass")
    assert "alliance_constraint" in kinds(events)
    assert forces(state, "atreides", "Carthag") == 0
    assert state.factions[Faction.ATREIDES].tanks == 3
    assert forces(state, "atreides", "Polar Sink") == 4
    assert forces(state, "harkonnen", "Carthag") == 2


@pytest.mark.parametrize(("territory", "sector"), [("Imperial Basin", 9), ("Shield Wall", 8)])
def test_mistake_07_no_occupancy_limit_outside_strongholds(territory: str, sector: int) -> None:
    """Mistake 7: refusing a non-stronghold because two other factions are there."""
    state = position(
        storm=18,
        seats=["atreides", "harkonnen", "emperor"],
        board=[
            {"faction": "harkonnen", "territory": territory, "sector": sector, "forces": 2},
            {"faction": "emperor", "territory": territory, "sector": sector, "forces": 2},
        ],
    )
    act(state, "atreides", "ship", to=territory, sector=sector, forces=2)
    assert stack(state, "atreides", territory, sector) == (2, 0, 0)


def test_mistake_08_a_territory_partly_in_storm_is_open_through_its_clear_sectors() -> None:
    """Mistake 8: storm in one sector blocks the whole territory."""
    state = position(
        storm=9,
        seats=[None, None, None, "atreides", "harkonnen"],
        board=[{"faction": "atreides", "territory": "Rim Wall West", "forces": 3}],
    )
    refused(
        state,
        IllegalActionError,
        "1.06.02.04",
        "atreides",
        "ship",
        to="Imperial Basin",
        sector=9,
        forces=2,
    )
    act(state, "atreides", "ship", to="Imperial Basin", sector=10, forces=2)
    act(state, "atreides", "move", from_="Rim Wall West", to="Old Gap", sector=8, forces=3)
    assert stack(state, "atreides", "Imperial Basin", 10) == (2, 0, 0)
    assert stack(state, "atreides", "Old Gap", 8) == (3, 0, 0)


def test_mistake_09_fremen_with_ornithopters_move_three_not_five() -> None:
    """Mistake 9: Fremen with ornithopters move 2 + 3."""
    state = position(
        storm=18,
        seats=["fremen", "atreides"],
        board=[
            {"faction": "fremen", "territory": "Sietch Tabr", "forces": 4},
            {"faction": "fremen", "territory": "Arrakeen", "forces": 1},
        ],
    )
    act(state, "fremen", "pass")
    # Sietch Tabr - Plastic Basin - Tsimpo - Old Gap - Basin: four.
    refused(
        state,
        IllegalActionError,
        "1.06.03.03",
        "fremen",
        "move",
        from_="Sietch Tabr",
        to="Basin",
        forces=4,
    )
    act(state, "fremen", "move", from_="Sietch Tabr", to="Old Gap", sector=10, forces=4)
    assert forces(state, "fremen", "Old Gap") == 4


def test_mistake_10_no_spiritual_advisors_for_a_cross_ship() -> None:
    """Mistake 10: the BG send an advisor when the Guild cross-ships."""
    state = position(
        storm=18,
        seats=["spacing_guild", "bene_gesserit"],
        board=[{"faction": "spacing_guild", "territory": "Tuek's Sietch", "forces": 3}],
    )
    act(state, "spacing_guild", "cross_ship", from_="Tuek's Sietch", to="Carthag", forces=3)
    assert PromptKind.ADVISE not in [p.kind for s in state.phase.stages for p in s]
    refused(state, NotYourTurnError, "2.02.05", "bene_gesserit", "advise", to="Polar Sink")


@pytest.mark.parametrize("city", ["Tuek's Sietch", "Sietch Tabr", "Habbanya Sietch"])
def test_mistake_11_only_arrakeen_and_carthag_give_ornithopters(city: str) -> None:
    """Mistake 11: forces in Tuek's Sietch (or another sietch) give ornithopters."""
    state = position(
        storm=18,
        seats=TWO,
        board=[
            {"faction": "atreides", "territory": city, "forces": 1},
            {"faction": "atreides", "territory": "Polar Sink", "forces": 3},
        ],
    )
    act(state, "atreides", "pass")
    # Polar Sink - Imperial Basin - Arrakeen: two.
    refused(
        state,
        IllegalActionError,
        "1.06.03.02",
        "atreides",
        "move",
        from_="Polar Sink",
        to="Arrakeen",
        forces=3,
    )


def test_mistake_12_karama_shipment_pays_the_bank() -> None:
    """Mistake 12: a Karama shipment pays the Guild."""
    state = position(
        storm=18, seats=["atreides", "spacing_guild"], factions={"atreides": {"cards": ["Karama"]}}
    )
    act(state, "atreides", "ship", to="Arrakeen", forces=5, karama=True)
    assert state.spice_bank == 3
    assert state.factions[GUILD].spice == 20


def test_mistake_13_the_guilds_ally_cross_ships_at_half_price_not_free() -> None:
    """Mistake 13: the Guild's ally cross-ships for free."""
    state = position(
        storm=18,
        seats=["atreides", "spacing_guild"],
        alliances=[["atreides", "spacing_guild"]],
        board=[{"faction": "atreides", "territory": "Tuek's Sietch", "forces": 4}],
    )
    events = act(state, "atreides", "cross_ship", from_="Tuek's Sietch", to="Red Chasm", forces=4)
    (event,) = [e for e in events if e.kind == "cross_ship"]
    assert event.cost == 4  # 4 forces to a non-stronghold: 8, halved
    assert state.factions[Faction.ATREIDES].spice == 16


def test_mistake_14_advisors_give_no_ornithopters() -> None:
    """Mistake 14: BG advisors in Arrakeen give the BG ornithopters."""
    state = position(
        storm=18,
        seats=["bene_gesserit", "atreides"],
        board=[
            {"faction": "bene_gesserit", "territory": "Arrakeen", "forces": 2, "advisors": True},
            {"faction": "atreides", "territory": "Arrakeen", "forces": 1},
            {"faction": "bene_gesserit", "territory": "Polar Sink", "forces": 3},
        ],
    )
    state.close_all_prompts()
    act(state, "bene_gesserit", "pass")
    refused(
        state,
        IllegalActionError,
        "1.06.03.02",
        "bene_gesserit",
        "move",
        from_="Polar Sink",
        to="Rim Wall West",
        forces=3,
    )


def test_mistake_15_storm_migration_costs_no_spice() -> None:
    """Mistake 15: the Fremen pay spice to send into the storm."""
    state = position(storm=14, seats=["atreides", None, None, None, None, "fremen"])
    act(state, "fremen", "send", to="The Great Flat", forces=4)
    assert state.factions[Faction.FREMEN].spice == 20
    assert state.spice_bank == 0
    assert forces(state, "fremen", "The Great Flat") == 2


def test_mistake_16_the_guild_acts_once() -> None:
    """Mistake 16: the Guild acts ahead of schedule, then again in its place."""
    state = position(storm=18, seats=["atreides", "spacing_guild", "harkonnen"])
    act(state, "spacing_guild", "guild_now")
    act(state, "spacing_guild", "ship", to="Carthag", forces=1)
    act(state, "spacing_guild", "pass")
    turns = []
    while not state.is_complete:
        faction = state.to_act()
        assert faction is not None
        turns.append(faction)
        act(state, faction.value, "pass")
        act(state, faction.value, "pass")
    assert GUILD not in turns
    assert state.factions[GUILD].reserves == 9


def test_mistake_17_repositioning_is_the_move() -> None:
    """Mistake 17: repositioning to another sector, then moving."""
    state = position(
        storm=18,
        seats=TWO,
        board=[
            {"faction": "atreides", "territory": "Imperial Basin", "sector": 8, "forces": 3},
            {"faction": "atreides", "territory": "Carthag", "forces": 3},
        ],
    )
    act(state, "atreides", "pass")
    act(state, "atreides", "move", from_="Imperial Basin", to="Imperial Basin", sector=10, forces=3)
    assert stack(state, "atreides", "Imperial Basin", 10) == (3, 0, 0)
    assert state.to_act() is Faction.HARKONNEN
    refused(
        state,
        NotYourTurnError,
        "1.06.00",
        "atreides",
        "move",
        from_="Carthag",
        to="Tsimpo",
        sector=10,
        forces=3,
    )


def test_mistake_17_no_repositioning_out_of_the_storm() -> None:
    """Mistake 17 (edge case): forces in the storm sector cannot reposition out."""
    state = position(
        storm=9,
        seats=[None, None, None, "atreides", "harkonnen"],
        board=[{"faction": "atreides", "territory": "Imperial Basin", "sector": 9, "forces": 3}],
    )
    act(state, "atreides", "pass")
    refused(
        state,
        IllegalActionError,
        "1.06.03.05",
        "atreides",
        "move",
        from_="Imperial Basin",
        to="Imperial Basin",
        sector=10,
        forces=3,
    )


def test_mistake_18_fremen_do_not_ship_from_off_planet() -> None:
    """Mistake 18: the Fremen use a normal shipment."""
    state = position(storm=18, seats=["fremen", "atreides"])
    refused(state, IllegalActionError, "2.04.03", "fremen", "ship", to="Arrakeen", forces=2)
    assert state.factions[Faction.FREMEN].spice == 20


def test_mistake_19_bg_ship_fighters_never_advisors() -> None:
    """Mistake 19: the BG ship advisors with their normal shipment."""
    state = position(
        storm=18,
        seats=["bene_gesserit", "atreides"],
        board=[
            {"faction": "bene_gesserit", "territory": "Arrakeen", "forces": 1, "advisors": True},
            {"faction": "atreides", "territory": "Arrakeen", "forces": 1},
        ],
    )
    state.close_all_prompts()
    act(state, "bene_gesserit", "ship", to="Carthag", forces=3)
    assert stack(state, "bene_gesserit", "Carthag", 10) == (3, 0, 0)


def test_mistake_19_bg_cannot_ship_onto_their_advisors() -> None:
    """Mistake 19 (2.02.14): fighters may not be shipped where the BG have advisors."""
    state = position(
        storm=18,
        seats=["bene_gesserit", "atreides"],
        board=[
            {"faction": "bene_gesserit", "territory": "Arrakeen", "forces": 1, "advisors": True},
            {"faction": "atreides", "territory": "Arrakeen", "forces": 1},
        ],
    )
    state.close_all_prompts()
    refused(state, IllegalActionError, "2.02.14", "bene_gesserit", "ship", to="Arrakeen", forces=3)


def test_mistake_20_the_ally_pays_only_with_spice_it_has() -> None:
    """Mistake 20: the ally pays with spice it cannot use (more than behind its shield)."""
    state = position(
        storm=18,
        seats=TWO,
        alliances=[["atreides", "harkonnen"]],
        factions={"harkonnen": {"spice": 2}},
    )
    refused(
        state,
        IllegalActionError,
        "1.10.02.05",
        "atreides",
        "ship",
        to="Arrakeen",
        forces=5,
        ally_pays=3,
    )
    act(state, "atreides", "ship", to="Arrakeen", forces=5, ally_pays=2)
    assert state.factions[Faction.HARKONNEN].spice == 0
    assert state.factions[Faction.ATREIDES].spice == 17
