"""Spacing Guild abilities: PAYMENT FOR SHIPMENT (2.06.04), the three shipment types
(2.06.05), HALF PRICE SHIPPING (2.06.06), RETREAT CALCULATIONS (2.06.07), the alliance
abilities (2.06.09, 2.06.10), SHIP AS IT PLEASES YOU (2.06.12) and the once-a-game
Karama power (1.14.06), with the readings of INTERPRETATIONS.md #3, #4, #5, #8, #14.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from rules.errors import IllegalActionError, NotYourTurnError
from rules.factions import Faction
from rules.game import GameState
from rules.model import Ability, PromptKind, Step
from tests.rules.helpers import act, forces, kinds, position, stack
from tests.rules.refusal import refused

GUILD = Faction.SPACING_GUILD
ATREIDES = Faction.ATREIDES


def first_seat(storm: int) -> int:
    """The seat the storm next approaches (board.json first_player_rule)."""
    return math.ceil((storm % 18) / 3) % 6


def seated_first(faction: str, others: list[str], storm: int = 18) -> list[str | None]:
    """Seats putting ``faction`` first in storm order, ``others`` after it in order."""
    seats: list[str | None] = [None] * 6
    start = first_seat(storm)
    for i, name in enumerate([faction, *others]):
        seats[(start + i) % 6] = name
    return seats


def guild_first(storm: int = 18, others: tuple[str, ...] = ("atreides", "harkonnen"), **kw: Any):
    state = position(storm=storm, seats=seated_first("spacing_guild", list(others), storm), **kw)
    assert state.to_act() is GUILD
    return state


def atreides_first(storm: int = 18, others: tuple[str, ...] = ("spacing_guild",), **kw: Any):
    state = position(storm=storm, seats=seated_first("atreides", list(others), storm), **kw)
    assert state.to_act() is ATREIDES
    return state


def spice(state: GameState, faction: Faction) -> int:
    return state.factions[faction].spice


def karama_abilities(state: GameState) -> set[Ability]:
    return {p.ability for p in state.open_prompts() if p.kind is PromptKind.KARAMA}


def all_prompt_kinds(state: GameState) -> list[PromptKind]:
    return [p.kind for stage in state.phase.stages for p in stage]


# -- PAYMENT FOR SHIPMENT ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("territory", "sector", "count", "cost"),
    [("Arrakeen", 9, 5, 5), ("Imperial Basin", 9, 3, 6), ("Carthag", 10, 1, 1)],
)
def test_another_factions_shipment_pays_the_guild(
    territory: str, sector: int, count: int, cost: int
) -> None:
    state = atreides_first()
    events = act(state, "atreides", "ship", to=territory, sector=sector, forces=count)
    (shipment,) = [e for e in events if e.kind == "shipment"]
    assert shipment.cost == cost
    assert shipment.paid_to == "spacing_guild"
    assert spice(state, ATREIDES) == 20 - cost
    assert spice(state, GUILD) == 20 + cost
    assert state.spice_bank == 0
    assert Ability.GUILD_PAYMENT in karama_abilities(state)


def test_without_the_guild_in_the_game_shipments_pay_the_bank() -> None:
    state = atreides_first(others=("harkonnen",))
    act(state, "atreides", "ship", to="Arrakeen", forces=5)
    assert state.spice_bank == 5
    assert spice(state, ATREIDES) == 15


@pytest.mark.parametrize(
    ("territory", "sector", "count", "cost"),
    [
        ("Arrakeen", 9, 1, 1),
        ("Arrakeen", 9, 2, 1),
        ("Arrakeen", 9, 3, 2),
        ("Arrakeen", 9, 5, 3),
        ("Imperial Basin", 9, 1, 1),
        ("Imperial Basin", 9, 3, 3),
        ("Imperial Basin", 9, 6, 6),
    ],
)
def test_the_guilds_own_shipment_is_half_price_rounded_up_to_the_bank(
    territory: str, sector: int, count: int, cost: int
) -> None:
    state = guild_first()
    events = act(state, "spacing_guild", "ship", to=territory, sector=sector, forces=count)
    (shipment,) = [e for e in events if e.kind == "shipment"]
    assert (shipment.cost, shipment.paid_to) == (cost, "spice_bank")
    assert spice(state, GUILD) == 20 - cost
    assert state.spice_bank == cost
    assert Ability.HALF_PRICE in karama_abilities(state)
    assert Ability.GUILD_PAYMENT not in karama_abilities(state)


@pytest.mark.parametrize(
    ("territory", "sector", "count", "cost"),
    [("Arrakeen", 9, 5, 3), ("Imperial Basin", 9, 6, 6), ("Arrakeen", 9, 1, 1)],
)
def test_a_karama_shipment_is_half_price_to_the_bank(
    territory: str, sector: int, count: int, cost: int
) -> None:
    state = atreides_first(factions={"atreides": {"cards": ["Karama"]}})
    events = act(state, "atreides", "ship", to=territory, sector=sector, forces=count, karama=True)
    (shipment,) = [e for e in events if e.kind == "shipment"]
    assert (shipment.cost, shipment.paid_to) == (cost, "spice_bank")
    assert state.spice_bank == cost
    assert spice(state, GUILD) == 20
    assert state.factions[ATREIDES].cards == ()
    assert Ability.GUILD_PAYMENT not in karama_abilities(state)


def test_a_karama_shipment_without_a_karama_card_is_refused() -> None:
    state = atreides_first(factions={"atreides": {"cards": ["Hajr"]}})
    refused(
        state,
        IllegalActionError,
        "3.01.11.03",
        "atreides",
        "ship",
        to="Arrakeen",
        forces=5,
        karama=True,
    )


# -- the Guild's ally --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("territory", "sector", "count", "cost"),
    [("Arrakeen", 9, 5, 3), ("Arrakeen", 9, 2, 1), ("Imperial Basin", 9, 3, 3)],
)
def test_the_guilds_ally_ships_at_half_price_paid_to_the_guild(
    territory: str, sector: int, count: int, cost: int
) -> None:
    state = atreides_first(alliances=[["atreides", "spacing_guild"]])
    events = act(state, "atreides", "ship", to=territory, sector=sector, forces=count)
    (shipment,) = [e for e in events if e.kind == "shipment"]
    assert (shipment.cost, shipment.paid_to) == (cost, "spacing_guild")
    assert spice(state, GUILD) == 20 + cost
    assert state.spice_bank == 0
    assert {Ability.ALLY_HALF_PRICE, Ability.GUILD_PAYMENT} <= karama_abilities(state)


def test_variant_guild_ally_pays_bank() -> None:
    state = atreides_first(
        alliances=[["atreides", "spacing_guild"]], variants={"guild_ally_pays": "bank"}
    )
    act(state, "atreides", "ship", to="Arrakeen", forces=5)
    assert spice(state, ATREIDES) == 17
    assert spice(state, GUILD) == 20
    assert state.spice_bank == 3


def test_variant_guild_ally_pays_bank_leaves_other_factions_paying_the_guild() -> None:
    state = position(
        storm=18,
        seats=["harkonnen", "atreides", "spacing_guild"],
        alliances=[["atreides", "spacing_guild"]],
        variants={"guild_ally_pays": "bank"},
    )
    act(state, "harkonnen", "ship", to="Arrakeen", forces=4)
    assert spice(state, GUILD) == 24
    assert state.spice_bank == 0


def test_ally_may_pay_part_of_the_shipment() -> None:
    state = atreides_first(
        others=("harkonnen", "spacing_guild"), alliances=[["atreides", "harkonnen"]]
    )
    act(state, "atreides", "ship", to="Arrakeen", forces=5, ally_pays=2)
    assert spice(state, ATREIDES) == 17
    assert spice(state, Faction.HARKONNEN) == 18
    assert spice(state, GUILD) == 25


# -- CROSS-SHIP -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("to", "sector", "count", "cost"),
    [("Arrakeen", 9, 4, 2), ("Arrakeen", 9, 3, 2), ("Imperial Basin", 9, 3, 3), ("Basin", 8, 1, 1)],
)
def test_guild_cross_ship_costs_half_the_price_of_the_destination(
    to: str, sector: int, count: int, cost: int
) -> None:
    state = guild_first(
        board=[{"faction": "spacing_guild", "territory": "Tuek's Sietch", "forces": 6}]
    )
    events = act(
        state,
        "spacing_guild",
        "cross_ship",
        from_="Tuek's Sietch",
        to=to,
        sector=sector,
        forces=count,
    )
    (event,) = [e for e in events if e.kind == "cross_ship"]
    assert (event.cost, event.paid_to) == (cost, "spice_bank")
    assert stack(state, "spacing_guild", to, sector) == (count, 0, 0)
    assert forces(state, "spacing_guild", "Tuek's Sietch") == 6 - count
    assert spice(state, GUILD) == 20 - cost
    assert state.spice_bank == cost
    assert {Ability.CROSS_SHIP, Ability.HALF_PRICE} <= karama_abilities(state)
    # It was the shipment: a second one is refused.
    refused(state, IllegalActionError, "1.06.01", "spacing_guild", "ship", to="Carthag", forces=1)


def test_cross_ship_out_of_storm_is_refused() -> None:
    # Storm over sector 4: Tuek's Sietch.
    state = guild_first(
        storm=4, board=[{"faction": "spacing_guild", "territory": "Tuek's Sietch", "forces": 6}]
    )
    refused(
        state,
        IllegalActionError,
        "1.06.02.04",
        "spacing_guild",
        "cross_ship",
        from_="Tuek's Sietch",
        to="Carthag",
        forces=3,
    )


def test_cross_ship_into_storm_is_refused() -> None:
    # Storm over sector 9: Arrakeen, and sector 9 of Imperial Basin.
    state = guild_first(
        storm=9, board=[{"faction": "spacing_guild", "territory": "Tuek's Sietch", "forces": 6}]
    )
    refused(
        state,
        IllegalActionError,
        "1.06.02.04",
        "spacing_guild",
        "cross_ship",
        from_="Tuek's Sietch",
        to="Arrakeen",
        forces=3,
    )
    act(
        state,
        "spacing_guild",
        "cross_ship",
        from_="Tuek's Sietch",
        to="Imperial Basin",
        sector=10,
        forces=3,
    )
    assert stack(state, "spacing_guild", "Imperial Basin", 10) == (3, 0, 0)


def test_cross_ship_into_a_full_stronghold_is_refused() -> None:
    state = guild_first(
        board=[
            {"faction": "spacing_guild", "territory": "Tuek's Sietch", "forces": 6},
            {"faction": "atreides", "territory": "Arrakeen", "forces": 2},
            {"faction": "harkonnen", "territory": "Arrakeen", "forces": 2},
        ]
    )
    refused(
        state,
        IllegalActionError,
        "1.06.02.05",
        "spacing_guild",
        "cross_ship",
        from_="Tuek's Sietch",
        to="Arrakeen",
        forces=3,
    )


def test_cross_ship_to_the_same_territory_is_refused() -> None:
    state = guild_first(
        board=[
            {"faction": "spacing_guild", "territory": "Imperial Basin", "sector": 8, "forces": 4}
        ]
    )
    refused(
        state,
        IllegalActionError,
        "2.06.05.01",
        "spacing_guild",
        "cross_ship",
        from_="Imperial Basin",
        to="Imperial Basin",
        sector=10,
        forces=4,
    )


def test_cross_ship_needs_the_forces_there() -> None:
    state = guild_first(
        board=[{"faction": "spacing_guild", "territory": "Tuek's Sietch", "forces": 2}]
    )
    refused(
        state,
        IllegalActionError,
        "2.06.05.01",
        "spacing_guild",
        "cross_ship",
        from_="Tuek's Sietch",
        to="Carthag",
        forces=3,
    )


def test_a_faction_not_allied_to_the_guild_cannot_cross_ship() -> None:
    state = atreides_first(
        board=[{"faction": "atreides", "territory": "Tuek's Sietch", "forces": 4}]
    )
    refused(
        state,
        IllegalActionError,
        "2.06.05.01",
        "atreides",
        "cross_ship",
        from_="Tuek's Sietch",
        to="Carthag",
        forces=4,
    )
    assert "cross_ship" not in state.legal_actions(ATREIDES).kinds()


def test_the_guilds_ally_cross_ships_at_half_price() -> None:
    state = atreides_first(
        alliances=[["atreides", "spacing_guild"]],
        board=[{"faction": "atreides", "territory": "Tuek's Sietch", "forces": 10}],
    )
    assert "cross_ship" in state.legal_actions(ATREIDES).kinds()
    events = act(state, "atreides", "cross_ship", from_="Tuek's Sietch", to="Carthag", forces=10)
    (event,) = [e for e in events if e.kind == "cross_ship"]
    assert event.cost == 5  # 000: "Guild ally cross-ships 10 forces to stronghold ... 5"
    assert forces(state, "atreides", "Carthag") == 10
    assert spice(state, ATREIDES) == 15
    assert {Ability.ALLY_CROSS_SHIP, Ability.ALLY_HALF_PRICE} <= karama_abilities(state)


def test_ally_cross_ship_payment_follows_the_guild_ally_pays_variant() -> None:
    state = atreides_first(
        alliances=[["atreides", "spacing_guild"]],
        variants={"guild_ally_pays": "bank"},
        board=[{"faction": "atreides", "territory": "Tuek's Sietch", "forces": 4}],
    )
    act(state, "atreides", "cross_ship", from_="Tuek's Sietch", to="Carthag", forces=4)
    assert state.spice_bank == 2
    assert spice(state, GUILD) == 20


# -- OFF-PLANET (ship back to reserves) ------------------------------------------------------


@pytest.mark.parametrize(("count", "cost"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_ship_to_reserves_costs_one_per_two_forces_final(count: int, cost: int) -> None:
    state = guild_first(
        board=[{"faction": "spacing_guild", "territory": "Tuek's Sietch", "forces": 6}]
    )
    events = act(state, "spacing_guild", "ship_to_reserves", from_="Tuek's Sietch", forces=count)
    (event,) = [e for e in events if e.kind == "ship_to_reserves"]
    assert (event.cost, event.paid_to) == (cost, "spice_bank")
    assert spice(state, GUILD) == 20 - cost
    assert state.spice_bank == cost
    assert state.factions[GUILD].reserves == 10 + count
    assert forces(state, "spacing_guild", "Tuek's Sietch") == 6 - count
    assert Ability.OFF_PLANET in karama_abilities(state)
    assert Ability.HALF_PRICE not in karama_abilities(state)


def test_ship_to_reserves_out_of_storm_is_refused() -> None:
    state = guild_first(
        storm=4, board=[{"faction": "spacing_guild", "territory": "Tuek's Sietch", "forces": 6}]
    )
    refused(
        state,
        IllegalActionError,
        "1.06.02.04",
        "spacing_guild",
        "ship_to_reserves",
        from_="Tuek's Sietch",
        forces=2,
    )


@pytest.mark.parametrize("allied", [False, True])
def test_other_factions_may_not_ship_to_reserves(allied: bool) -> None:
    state = atreides_first(
        alliances=[["atreides", "spacing_guild"]] if allied else [],
        board=[{"faction": "atreides", "territory": "Tuek's Sietch", "forces": 4}],
    )
    refused(
        state,
        IllegalActionError,
        "1.06.02.06",
        "atreides",
        "ship_to_reserves",
        from_="Tuek's Sietch",
        forces=4,
    )
    assert "ship_to_reserves" not in state.legal_actions(ATREIDES).kinds()


def test_variant_lets_the_guilds_ally_ship_to_reserves() -> None:
    state = atreides_first(
        alliances=[["atreides", "spacing_guild"]],
        variants={"guild_ally_ship_to_reserves": True},
        board=[{"faction": "atreides", "territory": "Tuek's Sietch", "forces": 5}],
    )
    act(state, "atreides", "ship_to_reserves", from_="Tuek's Sietch", forces=5)
    assert state.factions[ATREIDES].reserves == 15
    assert spice(state, ATREIDES) == 17


# -- SHIP AS IT PLEASES YOU (advanced) ---------------------------------------------------------

ORDER4 = ["atreides", "emperor", "spacing_guild", "harkonnen"]  # storm 18: in this order


def timing_prompts(state: GameState) -> list[Any]:
    return [p for p in state.open_prompts() if p.kind is PromptKind.GUILD_TIMING]


def finish_turn(state: GameState, faction: str) -> None:
    act(state, faction, "pass")
    act(state, faction, "pass")


def test_guild_now_before_the_first_player() -> None:
    state = position(storm=18, seats=ORDER4)
    (prompt,) = timing_prompts(state)
    assert prompt.responders == (GUILD,)
    events = act(state, "spacing_guild", "guild_now")
    assert "guild_acts_now" in kinds(events)
    assert state.to_act() is GUILD
    assert Ability.SHIP_AS_IT_PLEASES_YOU in karama_abilities(state)
    act(state, "spacing_guild", "ship", to="Carthag", forces=2)
    act(state, "spacing_guild", "pass")
    order = []
    while not state.is_complete:
        faction = state.to_act()
        assert faction is not None
        order.append(faction)
        assert not timing_prompts(state)  # the Guild has acted
        finish_turn(state, faction.value)
    assert order == [ATREIDES, Faction.EMPEROR, Faction.HARKONNEN]


def test_guild_now_after_another_players_complete_turn() -> None:
    state = position(storm=18, seats=ORDER4)
    finish_turn(state, "atreides")
    assert state.to_act() is Faction.EMPEROR
    act(state, "spacing_guild", "guild_now")
    assert state.to_act() is GUILD
    finish_turn(state, "spacing_guild")
    assert state.to_act() is Faction.EMPEROR
    finish_turn(state, "emperor")
    assert state.to_act() is Faction.HARKONNEN
    finish_turn(state, "harkonnen")
    assert state.is_complete


def test_guild_now_is_refused_once_the_faction_to_act_has_begun() -> None:
    state = position(storm=18, seats=ORDER4)
    act(state, "atreides", "ship", to="Carthag", forces=1)
    refused(state, NotYourTurnError, "2.06.12.01", "spacing_guild", "guild_now")


def test_guild_delay_lets_the_guild_act_last_exactly_once() -> None:
    state = position(storm=18, seats=ORDER4)
    finish_turn(state, "atreides")
    finish_turn(state, "emperor")
    assert state.to_act() is GUILD
    assert "guild_delay" in state.legal_actions(GUILD).kinds()
    events = act(state, "spacing_guild", "guild_delay")
    assert "guild_delays" in kinds(events)
    assert state.to_act() is Faction.HARKONNEN
    finish_turn(state, "harkonnen")
    assert state.to_act() is GUILD
    refused(state, IllegalActionError, "2.06.12.02", "spacing_guild", "guild_delay")
    finish_turn(state, "spacing_guild")
    assert state.is_complete


def test_guild_delay_is_refused_after_the_guild_has_begun_its_turn() -> None:
    state = position(storm=18, seats=ORDER4)
    finish_turn(state, "atreides")
    finish_turn(state, "emperor")
    act(state, "spacing_guild", "ship", to="Carthag", forces=1)
    refused(state, IllegalActionError, "2.06.12.02", "spacing_guild", "guild_delay")


def test_guild_delay_is_refused_when_the_guild_is_not_up() -> None:
    state = position(storm=18, seats=ORDER4)
    refused(state, NotYourTurnError, "1.06.00", "spacing_guild", "guild_delay")


def test_basic_game_has_no_guild_timing() -> None:
    state = position(storm=18, seats=ORDER4, advanced=False)
    assert not timing_prompts(state)
    refused(state, NotYourTurnError, "2.06.12.01", "spacing_guild", "guild_now")
    finish_turn(state, "atreides")
    finish_turn(state, "emperor")
    assert state.to_act() is GUILD
    assert "guild_delay" not in state.legal_actions(GUILD).kinds()
    refused(state, IllegalActionError, "2.06.12.02", "spacing_guild", "guild_delay")


# -- the Guild's once-a-game Karama: stop an off-planet shipment (advanced) -------------------

STOP_SEATS = ["atreides", "emperor", "spacing_guild", "bene_gesserit"]


def stop_position(**kw: Any) -> GameState:
    kw.setdefault("factions", {"spacing_guild": {"cards": ["Karama", "Karama"]}})
    return position(storm=18, seats=STOP_SEATS, **kw)


def test_guild_stops_a_shipment_forces_back_spice_kept() -> None:
    state = stop_position()
    act(state, "atreides", "ship", to="Arrakeen", forces=5)
    assert PromptKind.GUILD_STOP in {p.kind for p in state.open_prompts()}
    events = act(state, "spacing_guild", "karama_stop_shipment")
    assert "shipment_stopped" in kinds(events)
    assert forces(state, "atreides", "Arrakeen") == 0
    assert state.factions[ATREIDES].reserves == 10
    assert spice(state, ATREIDES) == 15
    assert spice(state, GUILD) == 25
    assert state.factions[GUILD].cards == ("Karama",)
    # No Spiritual Advisors for a shipment that no longer stands.
    assert PromptKind.ADVISE not in all_prompt_kinds(state)
    # The shipment action is spent.
    assert state.to_act() is ATREIDES
    assert state.phase.turn is not None and state.phase.turn.step is Step.MOVE
    refused(state, IllegalActionError, "1.06.01", "atreides", "ship", to="Carthag", forces=2)


def test_guild_stop_is_once_a_game() -> None:
    state = stop_position()
    act(state, "atreides", "ship", to="Arrakeen", forces=5)
    act(state, "spacing_guild", "karama_stop_shipment")
    act(state, "atreides", "pass")
    act(state, "emperor", "ship", to="Carthag", forces=3)
    assert PromptKind.GUILD_STOP not in all_prompt_kinds(state)
    refused(state, NotYourTurnError, "1.14.06", "spacing_guild", "karama_stop_shipment")


def test_guild_stop_needs_a_karama_card() -> None:
    state = stop_position(factions={"spacing_guild": {"cards": ["Hajr"]}})
    act(state, "atreides", "ship", to="Arrakeen", forces=5)
    refused(state, IllegalActionError, "1.14.06", "spacing_guild", "karama_stop_shipment")


def test_guild_stop_is_not_offered_in_the_basic_game() -> None:
    state = stop_position(advanced=False)
    act(state, "atreides", "ship", to="Arrakeen", forces=5)
    assert PromptKind.GUILD_STOP not in all_prompt_kinds(state)


def test_guild_stop_is_not_offered_for_a_fremen_send() -> None:
    state = position(
        storm=18,
        seats=["fremen", "spacing_guild"],
        factions={"spacing_guild": {"cards": ["Karama"]}},
    )
    act(state, "fremen", "send", to="The Great Flat", forces=5)
    assert PromptKind.GUILD_STOP not in all_prompt_kinds(state)


def test_guild_stop_is_not_offered_for_the_allys_cross_ship() -> None:
    state = atreides_first(
        alliances=[["atreides", "spacing_guild"]],
        factions={"spacing_guild": {"cards": ["Karama"]}},
        board=[{"faction": "atreides", "territory": "Tuek's Sietch", "forces": 4}],
    )
    act(state, "atreides", "cross_ship", from_="Tuek's Sietch", to="Carthag", forces=4)
    assert PromptKind.GUILD_STOP not in all_prompt_kinds(state)


def test_guild_stop_is_offered_for_a_karama_bought_shipment() -> None:
    """INTERPRETATIONS #7: a Karama-bought shipment from off-planet triggers it too."""
    state = stop_position(
        factions={"spacing_guild": {"cards": ["Karama"]}, "atreides": {"cards": ["Karama"]}}
    )
    act(state, "atreides", "ship", to="Arrakeen", forces=5, karama=True)
    assert PromptKind.GUILD_STOP in {p.kind for p in state.open_prompts()}
    act(state, "spacing_guild", "karama_stop_shipment")
    assert state.factions[ATREIDES].reserves == 10
    assert spice(state, ATREIDES) == 17
    assert state.spice_bank == 3
    assert state.factions[ATREIDES].cards == ()


def test_guild_stop_declined_then_spiritual_advisors_follow() -> None:
    state = stop_position()
    act(state, "atreides", "ship", to="Arrakeen", forces=5)
    act(state, "spacing_guild", "decline", prompt="guild_stop")
    assert PromptKind.GUILD_STOP not in all_prompt_kinds(state)
    act(state, "bene_gesserit", "advise", to="Arrakeen")
    assert forces(state, "atreides", "Arrakeen") == 5
    assert stack(state, "bene_gesserit", "Arrakeen", 9) == (0, 0, 1)
    assert state.factions[GUILD].cards == ("Karama", "Karama")
