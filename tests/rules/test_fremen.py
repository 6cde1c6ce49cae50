"""Fremen abilities in the Shipment & Movement phase.

NATIVES (2.04.03), SHIPMENT (send, 2.04.05), MOVEMENT (2.04.06), STORM MIGRATION
(2.04.17) and the `fremen_storm_movement` variant (INTERPRETATIONS.md #2).
"""

from __future__ import annotations

import json
from importlib import resources

import pytest

from rules.errors import IllegalActionError
from rules.factions import Faction
from rules.model import Ability, PromptKind
from tests.rules.helpers import act, forces, kinds, position, stack
from tests.rules.refusal import refused

BOARD = json.loads(resources.files("rules").joinpath("data/board.json").read_text(encoding="utf-8"))
SEND_RANGE = BOARD["derived_checks"]["fremen_shipping_range_from_the_great_flat_within_2"]
SECTORS = {t["name"]: t["sectors_board"] for t in BOARD["territories"]}

# Storm in sector 5 touches none of the territories within two of The Great Flat;
# seat 2 (sector 7) is then first: the Fremen act first, the Atreides next.
CLEAR = 5
SEATS = [None, None, "fremen", "atreides", "harkonnen", "emperor"]


def fremen_first(**kwargs: object) -> object:
    kwargs.setdefault("storm", CLEAR)
    kwargs.setdefault("seats", SEATS)
    state = position(**kwargs)  # type: ignore[arg-type]
    assert state.to_act() is Faction.FREMEN
    return state


def first_sector(territory: str) -> int | None:
    sectors = SECTORS[territory]
    return sectors[0] if sectors else None


# -- SHIPMENT (send) --------------------------------------------------------------


@pytest.mark.parametrize("territory", SEND_RANGE)
def test_send_is_free_to_the_great_flat_and_every_territory_within_two(territory: str) -> None:
    state = fremen_first()
    bank = state.spice_bank
    events = act(state, "fremen", "send", to=territory, sector=first_sector(territory), forces=4)
    assert "send" in kinds(events)
    assert stack(state, "fremen", territory, first_sector(territory)) == (4, 0, 0)
    own = state.factions[Faction.FREMEN]
    assert own.reserves == 6
    assert own.spice == 20
    assert state.spice_bank == bank
    assert all(f.spice == 20 for f in state.factions.values())


def test_legal_send_destinations_are_exactly_the_board_json_list() -> None:
    state = fremen_first()
    names = sorted(d.territory for d in state.legal_send_destinations(Faction.FREMEN))
    assert names == sorted(SEND_RANGE)
    assert all(d.cost == 0 for d in state.legal_send_destinations(Faction.FREMEN))


@pytest.mark.parametrize(
    ("territory", "sector"),
    [
        ("Carthag", 10),  # Great Flat - Plastic Basin - Tsimpo - Carthag: three
        ("Habbanya Ridge Flat", 17),  # three, via The Greater Flat and False Wall West
        ("Habbanya Sietch", 16),
        ("Arrakeen", 9),
        ("Tuek's Sietch", 4),
        ("Meridian", 1),
        ("Arsunt", 11),  # Great Flat - Plastic Basin - Hagga Basin - Arsunt
    ],
)
def test_send_beyond_two_territories_is_refused(territory: str, sector: int) -> None:
    state = fremen_first()
    refused(
        state,
        IllegalActionError,
        "2.04.05",
        "fremen",
        "send",
        to=territory,
        sector=sector,
        forces=2,
    )


def test_send_uses_the_shipment_action() -> None:
    state = fremen_first()
    act(state, "fremen", "send", to="The Great Flat", forces=2)
    refused(state, IllegalActionError, "1.06.01", "fremen", "send", to="Funeral Plain", forces=2)


def test_send_into_storm_is_refused_in_the_basic_game() -> None:
    # Storm over sector 14 (The Great Flat); seat 5 (sector 16) is first.
    state = position(storm=14, seats=["atreides", None, None, None, None, "fremen"], advanced=False)
    assert state.to_act() is Faction.FREMEN
    refused(
        state, IllegalActionError, "1.06.02.04", "fremen", "send", to="The Great Flat", forces=4
    )
    assert "The Great Flat" not in {
        d.territory for d in state.legal_send_destinations(Faction.FREMEN)
    }


def test_send_to_the_clear_sector_of_a_territory_partly_in_storm_is_accepted() -> None:
    state = position(storm=14, seats=["atreides", None, None, None, None, "fremen"], advanced=False)
    act(state, "fremen", "send", to="Wind Pass", sector=15, forces=3)
    assert stack(state, "fremen", "Wind Pass", 15) == (3, 0, 0)


def test_send_into_a_stronghold_held_by_two_other_factions_is_refused() -> None:
    state = fremen_first(
        board=[
            {"faction": "atreides", "territory": "Sietch Tabr", "forces": 2},
            {"faction": "harkonnen", "territory": "Sietch Tabr", "forces": 2},
        ]
    )
    refused(state, IllegalActionError, "1.06.02.05", "fremen", "send", to="Sietch Tabr", forces=3)


def test_send_into_a_stronghold_held_by_one_other_faction_is_accepted() -> None:
    state = fremen_first(board=[{"faction": "atreides", "territory": "Sietch Tabr", "forces": 2}])
    act(state, "fremen", "send", to="Sietch Tabr", forces=3)
    assert forces(state, "fremen", "Sietch Tabr") == 3


def test_send_needs_the_reserves() -> None:
    state = fremen_first(factions={"fremen": {"reserves": 2}})
    refused(state, IllegalActionError, "2.04.05", "fremen", "send", to="The Great Flat", forces=3)


@pytest.mark.parametrize("karama", [False, True])
def test_fremen_cannot_ship_normally(karama: bool) -> None:
    state = fremen_first(factions={"fremen": {"cards": ["Karama"]}})
    refused(
        state,
        IllegalActionError,
        "2.04.03",
        "fremen",
        "ship",
        to="Arrakeen",
        forces=2,
        karama=karama,
    )
    assert state.legal_ship_destinations(Faction.FREMEN) == []
    assert "ship" not in state.legal_actions(Faction.FREMEN).kinds()
    assert "send" in state.legal_actions(Faction.FREMEN).kinds()


def test_only_the_fremen_send() -> None:
    state = position(storm=18, seats=["atreides", "fremen"])
    refused(state, IllegalActionError, "2.04.05", "atreides", "send", to="The Great Flat", forces=2)


# -- MOVEMENT ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("to", "sector"),
    [
        ("Funeral Plain", 14),  # Sietch Tabr - Bight Of The Cliff - Funeral Plain
        ("The Great Flat", 14),  # Sietch Tabr - Plastic Basin - The Great Flat
        ("Tsimpo", 11),  # Sietch Tabr - Plastic Basin - Tsimpo
        ("Broken Land", 11),  # Sietch Tabr - Rock Outcroppings - Broken Land
        ("Plastic Basin", 12),  # one territory is fine too
    ],
)
def test_fremen_move_two_territories(to: str, sector: int) -> None:
    state = fremen_first(board=[{"faction": "fremen", "territory": "Sietch Tabr", "forces": 6}])
    act(state, "fremen", "pass")
    act(state, "fremen", "move", from_="Sietch Tabr", to=to, sector=sector, forces=6)
    assert stack(state, "fremen", to, sector) == (6, 0, 0)
    assert forces(state, "fremen", "Sietch Tabr") == 0


@pytest.mark.parametrize(
    ("to", "sector"),
    [("The Greater Flat", 15), ("Arsunt", 11), ("Carthag", 10), ("Old Gap", 10)],
)
def test_fremen_move_of_three_is_refused(to: str, sector: int) -> None:
    state = fremen_first(board=[{"faction": "fremen", "territory": "Sietch Tabr", "forces": 6}])
    act(state, "fremen", "pass")
    refused(
        state,
        IllegalActionError,
        "2.04.06",
        "fremen",
        "move",
        from_="Sietch Tabr",
        to=to,
        sector=sector,
        forces=6,
    )


def test_another_faction_moves_only_one_territory_from_the_same_place() -> None:
    state = position(
        storm=CLEAR,
        seats=[None, None, "atreides", "fremen"],
        board=[{"faction": "atreides", "territory": "Sietch Tabr", "forces": 6}],
    )
    act(state, "atreides", "pass")
    refused(
        state,
        IllegalActionError,
        "1.06.03.02",
        "atreides",
        "move",
        from_="Sietch Tabr",
        to="Funeral Plain",
        forces=6,
    )


def test_a_fremen_move_of_two_opens_a_karama_window_for_every_other_faction() -> None:
    state = fremen_first(board=[{"faction": "fremen", "territory": "Sietch Tabr", "forces": 6}])
    act(state, "fremen", "pass")
    act(state, "fremen", "move", from_="Sietch Tabr", to="Funeral Plain", forces=6)
    (prompt,) = state.open_prompts()
    assert prompt.kind is PromptKind.KARAMA
    assert prompt.ability is Ability.FREMEN_MOVEMENT
    assert set(prompt.responders) == {Faction.ATREIDES, Faction.HARKONNEN, Faction.EMPEROR}


def test_a_fremen_move_of_one_opens_no_karama_window() -> None:
    state = fremen_first(board=[{"faction": "fremen", "territory": "Sietch Tabr", "forces": 6}])
    act(state, "fremen", "pass")
    act(state, "fremen", "move", from_="Sietch Tabr", to="Plastic Basin", sector=12, forces=6)
    assert not [p for p in state.open_prompts() if p.kind is PromptKind.KARAMA]


def test_karama_cancels_the_move_of_two_and_the_fremen_retake_a_move_of_one() -> None:
    state = fremen_first(
        board=[{"faction": "fremen", "territory": "Sietch Tabr", "forces": 6}],
        factions={"atreides": {"cards": ["Karama"]}},
    )
    act(state, "fremen", "pass")
    act(state, "fremen", "move", from_="Sietch Tabr", to="Funeral Plain", forces=6)
    events = act(state, "atreides", "karama_cancel")
    assert "karama_cancel" in kinds(events)
    # The position before the move is back, the card is spent.
    assert forces(state, "fremen", "Sietch Tabr") == 6
    assert forces(state, "fremen", "Funeral Plain") == 0
    assert state.factions[Faction.ATREIDES].cards == ()
    assert state.to_act() is Faction.FREMEN
    # Without the ability, two territories are too far ...
    refused(
        state,
        IllegalActionError,
        "1.06.03.02",
        "fremen",
        "move",
        from_="Sietch Tabr",
        to="Funeral Plain",
        forces=6,
    )
    # ... and one is fine.
    act(state, "fremen", "move", from_="Sietch Tabr", to="Bight Of The Cliff", sector=13, forces=6)
    assert stack(state, "fremen", "Bight Of The Cliff", 13) == (6, 0, 0)
    assert Faction.FREMEN in state.phase.done


def test_ornithopters_give_the_fremen_three_territories() -> None:
    state = fremen_first(
        board=[
            {"faction": "fremen", "territory": "Sietch Tabr", "forces": 6},
            {"faction": "fremen", "territory": "Carthag", "forces": 1},
        ]
    )
    act(state, "fremen", "pass")
    events = act(state, "fremen", "move", from_="Sietch Tabr", to="The Greater Flat", forces=6)
    assert "move" in kinds(events)
    assert forces(state, "fremen", "The Greater Flat") == 6
    # Ornithopters are no ✷ ability: there is nothing to cancel.
    assert not [p for p in state.open_prompts() if p.kind is PromptKind.KARAMA]


@pytest.mark.parametrize(
    ("to", "sector"),
    [
        ("Arrakeen", 9),  # four: Plastic Basin - Tsimpo - Imperial Basin/Old Gap - Arrakeen
        ("Basin", 8),  # four: Plastic Basin - Tsimpo - Old Gap - Basin
        ("Habbanya Ridge Flat", 16),  # four
        ("Meridian", 1),  # four: Plastic Basin - Wind Pass - Cielago West - Meridian
    ],
)
def test_ornithopters_never_give_the_fremen_five(to: str, sector: int) -> None:
    state = fremen_first(
        board=[
            {"faction": "fremen", "territory": "Sietch Tabr", "forces": 6},
            {"faction": "fremen", "territory": "Carthag", "forces": 1},
        ]
    )
    act(state, "fremen", "pass")
    refused(
        state,
        IllegalActionError,
        "1.06.03.03",
        "fremen",
        "move",
        from_="Sietch Tabr",
        to=to,
        sector=sector,
        forces=6,
    )


# -- STORM MIGRATION (advanced) -------------------------------------------------------

STORMY = ["atreides", None, None, None, None, "fremen"]  # storm 14: seat 5 (Fremen) first


@pytest.mark.parametrize(("sent", "lost"), [(10, 5), (5, 3), (1, 1), (2, 1), (7, 4)])
def test_storm_migration_loses_half_rounded_up(sent: int, lost: int) -> None:
    state = position(storm=14, seats=STORMY, factions={"fremen": {"reserves": 10}})
    assert state.to_act() is Faction.FREMEN
    events = act(state, "fremen", "send", to="The Great Flat", forces=sent)
    assert "storm_losses" in kinds(events)
    own = state.factions[Faction.FREMEN]
    assert forces(state, "fremen", "The Great Flat") == sent - lost
    assert own.tanks == lost
    assert own.reserves == 10 - sent
    assert own.spice == 20  # still free (COMMON MISTAKE 15)
    (prompt,) = [p for p in state.open_prompts() if p.kind is PromptKind.KARAMA]
    assert prompt.ability is Ability.STORM_MIGRATION


def test_storm_migration_starred_forces_count_toward_the_loss() -> None:
    state = position(
        storm=14, seats=STORMY, factions={"fremen": {"reserves": 10, "special_reserves": 3}}
    )
    act(state, "fremen", "send", to="The Great Flat", forces=3, special=3)
    own = state.factions[Faction.FREMEN]
    assert own.tanks + own.special_tanks == 3
    assert forces(state, "fremen", "The Great Flat") == 3


def test_storm_migration_can_be_cancelled_and_the_send_retaken_outside_the_storm() -> None:
    state = position(storm=14, seats=STORMY, factions={"atreides": {"cards": ["Karama"]}})
    act(state, "fremen", "send", to="The Great Flat", forces=10)
    act(state, "atreides", "karama_cancel")
    own = state.factions[Faction.FREMEN]
    assert (own.reserves, own.tanks) == (10, 0)
    assert forces(state, "fremen", "The Great Flat") == 0
    refused(
        state, IllegalActionError, "1.06.02.04", "fremen", "send", to="The Great Flat", forces=10
    )
    act(state, "fremen", "send", to="Plastic Basin", sector=13, forces=10)
    assert stack(state, "fremen", "Plastic Basin", 13) == (10, 0, 0)


def test_legal_send_destinations_include_storm_sectors_only_in_the_advanced_game() -> None:
    advanced = position(storm=14, seats=STORMY)
    basic = position(storm=14, seats=STORMY, advanced=False)
    adv = {d.territory: d.sectors for d in advanced.legal_send_destinations(Faction.FREMEN)}
    bas = {d.territory: d.sectors for d in basic.legal_send_destinations(Faction.FREMEN)}
    assert adv["The Great Flat"] == (14,)
    assert "The Great Flat" not in bas
    assert 14 not in bas["Wind Pass"]


# -- moving through storm: the `fremen_storm_movement` variant -----------------------


def storm_position(mode: str | None) -> object:
    variants = {"fremen_storm_movement": mode} if mode else {}
    state = position(
        storm=14,
        seats=STORMY,
        variants=variants,
        board=[
            {"faction": "fremen", "territory": "The Greater Flat", "forces": 5},
            {"faction": "fremen", "territory": "Sietch Tabr", "forces": 5},
        ],
    )
    act(state, "fremen", "pass")
    return state


@pytest.mark.parametrize("mode", [None, "blocked"])
def test_by_default_fremen_may_not_move_through_storm(mode: str | None) -> None:
    state = storm_position(mode)
    # The Greater Flat (15) to Plastic Basin: every path crosses sector 14.
    refused(
        state,
        IllegalActionError,
        "1.06.03.05",
        "fremen",
        "move",
        from_="The Greater Flat",
        to="Plastic Basin",
        sector=13,
        forces=5,
    )
    # ... nor into the storm.
    refused(
        state,
        IllegalActionError,
        "1.06.03.05",
        "fremen",
        "move",
        from_="Sietch Tabr",
        to="The Great Flat",
        forces=5,
    )


def test_variant_free_lets_fremen_move_through_storm_without_loss() -> None:
    state = storm_position("free")
    act(state, "fremen", "move", from_="The Greater Flat", to="Plastic Basin", sector=13, forces=5)
    assert stack(state, "fremen", "Plastic Basin", 13) == (5, 0, 0)
    assert state.factions[Faction.FREMEN].tanks == 0


def test_variant_free_lets_fremen_move_into_storm_without_loss() -> None:
    state = storm_position("free")
    act(state, "fremen", "move", from_="Sietch Tabr", to="The Great Flat", forces=5)
    assert forces(state, "fremen", "The Great Flat") == 5
    assert state.factions[Faction.FREMEN].tanks == 0


@pytest.mark.parametrize(
    ("origin", "to", "sector"),
    [("The Greater Flat", "Plastic Basin", 13), ("Sietch Tabr", "The Great Flat", 14)],
)
def test_variant_half_loss_sends_half_the_group_rounded_up_to_the_tanks(
    origin: str, to: str, sector: int
) -> None:
    state = storm_position("half_loss")
    events = act(state, "fremen", "move", from_=origin, to=to, sector=sector, forces=5)
    assert "storm_losses" in kinds(events)
    assert forces(state, "fremen", to) == 2
    assert state.factions[Faction.FREMEN].tanks == 3


def test_variant_half_loss_costs_nothing_on_a_clear_path() -> None:
    state = storm_position("half_loss")
    act(state, "fremen", "move", from_="Sietch Tabr", to="Rock Outcroppings", sector=13, forces=5)
    assert forces(state, "fremen", "Rock Outcroppings") == 5
    assert state.factions[Faction.FREMEN].tanks == 0


def test_variants_do_not_let_other_factions_through_storm() -> None:
    state = position(
        storm=14,
        seats=["fremen", None, None, None, None, "atreides"],
        variants={"fremen_storm_movement": "free"},
        board=[
            {"faction": "atreides", "territory": "Sietch Tabr", "forces": 5},
            {"faction": "atreides", "territory": "Carthag", "forces": 1},
        ],
    )
    assert state.to_act() is Faction.ATREIDES
    act(state, "atreides", "pass")
    refused(
        state,
        IllegalActionError,
        "1.06.03.05",
        "atreides",
        "move",
        from_="Sietch Tabr",
        to="The Great Flat",
        forces=5,
    )


def test_fremen_move_of_two_in_the_basic_game() -> None:
    state = fremen_first(
        advanced=False, board=[{"faction": "fremen", "territory": "Sietch Tabr", "forces": 6}]
    )
    act(state, "fremen", "pass")
    act(state, "fremen", "move", from_="Sietch Tabr", to="Funeral Plain", forces=6)
    assert forces(state, "fremen", "Funeral Plain") == 6
