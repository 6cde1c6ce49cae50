"""Force shipment from reserves (1.06.02): cost, payment, storm, occupancy, one shipment."""

from __future__ import annotations

from typing import Any

import pytest

from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError, RulesError
from rules.factions import Faction
from rules.game import GameState
from tests.rules.helpers import act, forces, position

NO_GUILD = ["atreides", "emperor", "harkonnen", "fremen", None, "bene_gesserit"]
WITH_GUILD = ["atreides", "emperor", "harkonnen", "fremen", "spacing_guild", "bene_gesserit"]


def game(seats: list[str | None] = NO_GUILD, **kwargs: Any) -> GameState:
    return position(storm=18, seats=seats, **kwargs)


def refused(state: GameState, error: type[RulesError], rule: str, **ship: Any) -> RulesError:
    before = state.to_dict()
    with pytest.raises(error) as caught:
        act(state, "atreides", "ship", **ship)
    assert caught.value.rule == rule
    assert state.to_dict() == before
    return caught.value


@pytest.mark.parametrize(
    ("to", "sector", "count", "cost"),
    [
        ("Carthag", None, 3, 3),  # stronghold: 1 per force
        ("Tuek's Sietch", 4, 1, 1),
        ("Shield Wall", 7, 3, 6),  # rock, not a stronghold: 2 per force
        ("Polar Sink", None, 2, 4),
        ("The Great Flat", 14, 5, 10),
    ],
)
def test_cost_is_paid_to_the_bank_without_the_guild(
    to: str, sector: int | None, count: int, cost: int
) -> None:
    state = game()
    events = act(state, "atreides", "ship", to=to, sector=sector, forces=count)
    shipped = next(e for e in events if e.kind == "shipment")
    assert (shipped.cost, shipped.paid_to) == (cost, "spice_bank")
    assert state.factions[Faction.ATREIDES].spice == 20 - cost
    assert state.factions[Faction.ATREIDES].reserves == 10 - count
    assert state.spice_bank == cost
    assert forces(state, "atreides", to) == count


def test_with_the_guild_in_game_other_factions_pay_the_guild() -> None:
    state = game(WITH_GUILD)
    act(state, "atreides", "ship", to="Shield Wall", sector=8, forces=2)
    assert state.factions[Faction.SPACING_GUILD].spice == 24
    assert state.spice_bank == 0


def test_starred_forces_ship_and_count_as_forces() -> None:
    state = game(
        seats=["emperor", None, "harkonnen"], factions={"emperor": {"special_reserves": 2}}
    )
    act(state, "emperor", "ship", to="Carthag", forces=1, special=2)
    assert state.factions[Faction.EMPEROR].spice == 17
    assert state.factions[Faction.EMPEROR].special_reserves == 0


def test_no_shipping_into_storm() -> None:
    state = position(storm=10, seats=[None, None, None, None, "atreides", None])
    before = state.to_dict()
    with pytest.raises(IllegalActionError) as caught:
        act(state, "atreides", "ship", to="Carthag", forces=1)
    assert caught.value.rule == "1.06.02.04"
    assert "Carthag sector 10: the storm is there" in str(caught.value)
    assert state.to_dict() == before
    act(state, "atreides", "ship", to="Imperial Basin", sector=9, forces=1)  # clear part


def test_a_sector_must_be_named_in_a_territory_of_several() -> None:
    state = game()
    error = refused(state, InvalidActionError, "1.06.02.03", to="South Mesa", forces=1)
    assert "sectors 3, 4, 5" in str(error)
    refused(state, InvalidActionError, "1.06.02.03", to="South Mesa", sector=9, forces=1)


def test_occupancy_limit_stops_a_third_faction() -> None:
    board = [
        {"faction": "harkonnen", "territory": "Carthag", "forces": 3},
        {"faction": "emperor", "territory": "Carthag", "forces": 3},
    ]
    state = game(board=board)
    error = refused(state, IllegalActionError, "1.06.02.05", to="Carthag", forces=1)
    assert "Emperor and Harkonnen" in str(error)


def test_occupancy_limit_ignores_advisors() -> None:
    board = [
        {"faction": "harkonnen", "territory": "Carthag", "forces": 3},
        {"faction": "bene_gesserit", "territory": "Carthag", "forces": 1, "advisors": True},
    ]
    state = game(board=board)
    act(state, "atreides", "ship", to="Carthag", forces=1)
    assert forces(state, "atreides", "Carthag") == 1


def test_a_faction_already_in_a_stronghold_may_reinforce_it() -> None:
    board = [
        {"faction": "harkonnen", "territory": "Carthag", "forces": 3},
        {"faction": "atreides", "territory": "Carthag", "forces": 1},
    ]
    state = game(board=board)
    act(state, "atreides", "ship", to="Carthag", forces=2)
    assert forces(state, "atreides", "Carthag") == 3


def test_shipment_is_paid_in_full() -> None:
    state = game(factions={"atreides": {"spice": 3}})
    error = refused(state, IllegalActionError, "1.06.02.01", to="Shield Wall", sector=8, forces=2)
    assert "has 3 spice" in str(error) and "is 4" in str(error)


def test_not_more_forces_than_in_reserve() -> None:
    state = game(factions={"atreides": {"reserves": 2}})
    refused(state, IllegalActionError, "1.06.02", to="Carthag", forces=3)


@pytest.mark.parametrize("count", [0, -1])
def test_at_least_one_force(count: int) -> None:
    refused(game(), InvalidActionError, "1.06.02", to="Carthag", forces=count)


def test_unknown_territory_is_quoted() -> None:
    error = refused(game(), InvalidActionError, "1.06.02", to="Caladan", forces=1)
    assert "'Caladan'" in str(error)


def test_territory_names_ignore_case_and_punctuation() -> None:
    state = game()
    act(state, "atreides", "ship", to="tueks sietch", forces=1)
    assert forces(state, "atreides", "Tuek's Sietch") == 1


def test_one_shipment_per_turn() -> None:
    """1.06.01 and common mistake 1."""
    state = game()
    act(state, "atreides", "ship", to="Carthag", forces=1)
    refused(state, IllegalActionError, "1.06.01", to="Arrakeen", forces=1)


def test_no_shipment_after_moving() -> None:
    state = game(board=[{"faction": "atreides", "territory": "Arrakeen", "forces": 2}])
    act(state, "atreides", "move", from_="Arrakeen", to="Old Gap", sector=9, forces=2)
    assert state.to_act() is Faction.EMPEROR  # the move ended the turn


def test_only_the_faction_to_act_ships() -> None:
    state = game()
    before = state.to_dict()
    with pytest.raises(NotYourTurnError) as caught:
        act(state, "emperor", "ship", to="Carthag", forces=1)
    assert caught.value.rule == "1.06.00"
    assert "Atreides is to ship and move" in str(caught.value)
    assert state.to_dict() == before


def test_ally_pays_part_of_the_shipment() -> None:
    state = game(alliances=[["atreides", "emperor"]])
    events = act(state, "atreides", "ship", to="Carthag", forces=5, ally_pays=2)
    shipped = next(e for e in events if e.kind == "shipment")
    assert (shipped.ally, shipped.ally_paid) == ("emperor", 2)
    assert state.factions[Faction.EMPEROR].spice == 18
    assert state.factions[Faction.ATREIDES].spice == 17


@pytest.mark.parametrize(
    ("alliances", "ally_pays", "rule"),
    [
        ([], 1, "1.10.02.05"),  # no ally
        ([["atreides", "emperor"]], 6, "1.10.02.05"),  # more than the price
        ([["atreides", "emperor"]], 25, "1.10.02.05"),  # more than the ally has
    ],
)
def test_ally_payment_refusals(alliances: list[list[str]], ally_pays: int, rule: str) -> None:
    state = game(alliances=alliances)
    refused(state, IllegalActionError, rule, to="Carthag", forces=5, ally_pays=ally_pays)


def test_karama_shipment_is_half_price_to_the_bank() -> None:
    """3.01.11.03 and common mistake 12: even with the Guild in the game."""
    state = game(WITH_GUILD, factions={"atreides": {"cards": ["Karama"]}})
    events = act(state, "atreides", "ship", to="Carthag", forces=5, karama=True)
    shipped = next(e for e in events if e.kind == "shipment")
    assert (shipped.cost, shipped.paid_to, shipped.karama) == (3, "spice_bank", "Karama")
    assert state.factions[Faction.ATREIDES].cards == ()
    assert state.factions[Faction.SPACING_GUILD].spice == 20
    assert state.spice_bank == 3


def test_karama_shipment_needs_the_card() -> None:
    refused(game(), IllegalActionError, "3.01.11.03", to="Carthag", forces=2, karama=True)


def test_no_return_shipment_for_ordinary_factions() -> None:
    state = game(board=[{"faction": "atreides", "territory": "Arrakeen", "forces": 2}])
    before = state.to_dict()
    with pytest.raises(IllegalActionError) as caught:
        act(state, "atreides", "ship_to_reserves", from_="Arrakeen", forces=2)
    assert caught.value.rule == "1.06.02.06"
    assert state.to_dict() == before


def test_ship_destinations_query_with_prices() -> None:
    board = [
        {"faction": "harkonnen", "territory": "Carthag", "forces": 3},
        {"faction": "emperor", "territory": "Carthag", "forces": 3},
    ]
    state = position(
        storm=9,
        seats=[None, "emperor", "harkonnen", "atreides", None, None],
        board=board,
        factions={"atreides": {"spice": 5}},
    )
    found = {d.territory: d for d in state.legal_ship_destinations(Faction.ATREIDES, 3)}
    assert "Carthag" not in found  # occupancy limit
    assert "Arrakeen" not in found  # storm
    assert found["Imperial Basin"].sectors == (8, 10)
    assert (found["Tuek's Sietch"].cost, found["Tuek's Sietch"].affordable) == (3, True)
    assert (found["Shield Wall"].cost, found["Shield Wall"].affordable) == (6, False)
    assert found["Polar Sink"].sectors == (None,)
