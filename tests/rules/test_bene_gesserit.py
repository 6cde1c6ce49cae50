"""Bene Gesserit: SPIRITUAL ADVISORS (2.02.05) and the advanced advisor rules
(2.02.11-2.02.22), with INTERPRETATIONS.md #7, #9, #10, #11.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError
from rules.factions import Faction
from rules.game import GameState
from rules.model import Ability, PromptKind
from tests.rules.helpers import act, forces, kinds, position, stack
from tests.rules.refusal import refused

BG = Faction.BENE_GESSERIT

# Storm 18: seat 0 is first.
SHIPPER_FIRST = ["atreides", "bene_gesserit", "harkonnen"]
BG_FIRST = ["bene_gesserit", "atreides", "harkonnen"]


def advisors(territory: str, count: int = 1, sector: int | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "faction": "bene_gesserit",
        "territory": territory,
        "forces": count,
        "advisors": True,
    }
    if sector is not None:
        entry["sector"] = sector
    return entry


def fighters(faction: str, territory: str, count: int, sector: int | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = {"faction": faction, "territory": territory, "forces": count}
    if sector is not None:
        entry["sector"] = sector
    return entry


def prompt_kinds(state: GameState) -> list[PromptKind]:
    """Every prompt waiting, open stage or later ones."""
    return [p.kind for stage in state.phase.stages for p in stage]


def bg_tokens(state: GameState, territory: str) -> tuple[int, int]:
    """(fighters, advisors) of the Bene Gesserit in every sector of ``territory``."""
    total = state.forces_in(BG, territory)
    return total.fighters, total.advisors


def finish_turn(state: GameState, faction: str) -> None:
    act(state, faction, "pass")
    act(state, faction, "pass")


# -- SPIRITUAL ADVISORS ---------------------------------------------------------------


@pytest.mark.parametrize("advanced", [False, True])
def test_another_factions_shipment_offers_a_free_fighter_to_the_polar_sink(advanced: bool) -> None:
    state = position(storm=18, seats=SHIPPER_FIRST, advanced=advanced)
    act(state, "atreides", "ship", to="Arrakeen", forces=3)
    (prompt,) = [p for p in state.open_prompts() if p.kind is PromptKind.ADVISE]
    assert prompt.responders == (BG,)
    assert (prompt.territory, prompt.sector) == ("Arrakeen", 9)
    events = act(state, "bene_gesserit", "advise", to="Polar Sink")
    assert "spiritual_advisor" in kinds(events)
    assert stack(state, "bene_gesserit", "Polar Sink", None) == (1, 0, 0)
    assert state.factions[BG].reserves == 9
    assert state.factions[BG].spice == 20
    (window,) = [p for p in state.open_prompts() if p.kind is PromptKind.KARAMA]
    assert window.ability is Ability.SPIRITUAL_ADVISORS
    assert set(window.responders) == {Faction.ATREIDES, Faction.HARKONNEN}
    # It is no shipment of the Bene Gesserit: the Atreides are still to act.
    assert state.to_act() is Faction.ATREIDES


def test_basic_game_advisor_only_to_the_polar_sink() -> None:
    state = position(storm=18, seats=SHIPPER_FIRST, advanced=False)
    act(state, "atreides", "ship", to="Arrakeen", forces=3)
    refused(state, IllegalActionError, "2.02.05", "bene_gesserit", "advise", to="Arrakeen")


@pytest.mark.parametrize(
    ("territory", "sector"), [("Arrakeen", 9), ("Imperial Basin", 10), ("Old Gap", 8)]
)
def test_advanced_advisor_into_the_shipments_territory_and_sector(
    territory: str, sector: int
) -> None:
    state = position(storm=18, seats=SHIPPER_FIRST)
    act(state, "atreides", "ship", to=territory, sector=sector, forces=3)
    act(state, "bene_gesserit", "advise", to=territory)
    assert stack(state, "bene_gesserit", territory, sector) == (0, 0, 1)
    assert bg_tokens(state, territory) == (0, 1)
    assert state.factions[BG].reserves == 9


def test_advanced_advisor_joins_existing_advisors() -> None:
    state = position(storm=18, seats=SHIPPER_FIRST, board=[advisors("Imperial Basin", 2, sector=8)])
    act(state, "atreides", "ship", to="Imperial Basin", sector=10, forces=3)
    act(state, "bene_gesserit", "advise", to="Imperial Basin")
    assert bg_tokens(state, "Imperial Basin") == (0, 3)


def test_advanced_advisor_refused_where_the_bg_have_fighters() -> None:
    state = position(
        storm=18,
        seats=SHIPPER_FIRST,
        board=[fighters("bene_gesserit", "Imperial Basin", 2, sector=8)],
    )
    act(state, "atreides", "ship", to="Imperial Basin", sector=10, forces=3)
    refused(state, IllegalActionError, "2.02.11", "bene_gesserit", "advise", to="Imperial Basin")
    act(state, "bene_gesserit", "advise", to="Polar Sink")
    assert stack(state, "bene_gesserit", "Polar Sink", None) == (1, 0, 0)


def test_advanced_advisor_refused_to_another_territory() -> None:
    state = position(storm=18, seats=SHIPPER_FIRST)
    act(state, "atreides", "ship", to="Arrakeen", forces=3)
    refused(state, IllegalActionError, "2.02.11", "bene_gesserit", "advise", to="Carthag")


def test_advise_without_a_prompt_is_refused() -> None:
    state = position(storm=18, seats=SHIPPER_FIRST)
    refused(state, NotYourTurnError, "2.02.05", "bene_gesserit", "advise", to="Polar Sink")


def test_no_prompt_when_the_bg_have_no_reserves() -> None:
    state = position(storm=18, seats=SHIPPER_FIRST, factions={"bene_gesserit": {"reserves": 0}})
    act(state, "atreides", "ship", to="Arrakeen", forces=3)
    assert PromptKind.ADVISE not in prompt_kinds(state)


def test_bg_pass_declines_the_advisor_and_play_goes_on() -> None:
    state = position(storm=18, seats=SHIPPER_FIRST)
    act(state, "atreides", "ship", to="Arrakeen", forces=3)
    act(state, "bene_gesserit", "pass")
    assert PromptKind.ADVISE not in prompt_kinds(state)
    assert state.factions[BG].reserves == 10
    assert state.to_act() is Faction.ATREIDES


def test_a_karama_bought_shipment_triggers_spiritual_advisors() -> None:
    state = position(storm=18, seats=SHIPPER_FIRST, factions={"atreides": {"cards": ["Karama"]}})
    act(state, "atreides", "ship", to="Arrakeen", forces=3, karama=True)
    assert PromptKind.ADVISE in prompt_kinds(state)


def test_not_triggered_by_a_fremen_send() -> None:
    state = position(storm=18, seats=["fremen", "bene_gesserit"])
    act(state, "fremen", "send", to="The Great Flat", forces=3)
    assert PromptKind.ADVISE not in prompt_kinds(state)


def test_not_triggered_by_a_guild_cross_ship() -> None:
    state = position(
        storm=18,
        seats=["spacing_guild", "bene_gesserit"],
        board=[fighters("spacing_guild", "Tuek's Sietch", 5)],
    )
    act(state, "spacing_guild", "cross_ship", from_="Tuek's Sietch", to="Carthag", forces=5)
    assert PromptKind.ADVISE not in prompt_kinds(state)


def test_not_triggered_by_the_guild_allys_cross_ship() -> None:
    state = position(
        storm=18,
        seats=["atreides", "spacing_guild", "bene_gesserit"],
        alliances=[["atreides", "spacing_guild"]],
        board=[fighters("atreides", "Tuek's Sietch", 5)],
    )
    act(state, "atreides", "cross_ship", from_="Tuek's Sietch", to="Carthag", forces=5)
    assert PromptKind.ADVISE not in prompt_kinds(state)


def test_not_triggered_by_a_shipment_to_reserves() -> None:
    state = position(
        storm=18,
        seats=["spacing_guild", "bene_gesserit"],
        board=[fighters("spacing_guild", "Tuek's Sietch", 5)],
    )
    act(state, "spacing_guild", "ship_to_reserves", from_="Tuek's Sietch", forces=5)
    assert PromptKind.ADVISE not in prompt_kinds(state)


def test_not_triggered_by_the_bgs_own_shipment() -> None:
    state = position(storm=18, seats=BG_FIRST)
    act(state, "bene_gesserit", "ship", to="Arrakeen", forces=3)
    assert PromptKind.ADVISE not in prompt_kinds(state)
    assert state.factions[BG].reserves == 7


# -- COEXISTENCE: occupancy, ornithopters, alliance ---------------------------------------


def test_advisors_do_not_count_for_the_occupancy_limit_of_a_shipment() -> None:
    state = position(
        storm=18,
        seats=SHIPPER_FIRST,
        board=[fighters("harkonnen", "Arrakeen", 3), advisors("Arrakeen", 2)],
    )
    act(state, "atreides", "ship", to="Arrakeen", forces=3)
    assert forces(state, "atreides", "Arrakeen") == 3


def test_two_fighter_factions_still_fill_a_stronghold_with_advisors_there() -> None:
    state = position(
        storm=18,
        seats=["atreides", "bene_gesserit", "harkonnen", "emperor"],
        board=[
            fighters("harkonnen", "Arrakeen", 3),
            fighters("emperor", "Arrakeen", 3),
            advisors("Arrakeen", 2),
        ],
    )
    refused(state, IllegalActionError, "1.06.02.05", "atreides", "ship", to="Arrakeen", forces=3)


def test_advisors_do_not_count_for_the_occupancy_limit_of_a_move() -> None:
    state = position(
        storm=18,
        seats=SHIPPER_FIRST,
        board=[
            fighters("harkonnen", "Arrakeen", 3),
            advisors("Arrakeen", 2),
            fighters("atreides", "Imperial Basin", 4, sector=9),
        ],
    )
    act(state, "atreides", "pass")
    act(state, "atreides", "move", from_="Imperial Basin", to="Arrakeen", forces=4)
    assert forces(state, "atreides", "Arrakeen") == 4


def test_advisors_in_arrakeen_give_no_ornithopters() -> None:
    state = position(
        storm=18,
        seats=BG_FIRST,
        board=[advisors("Arrakeen", 2), fighters("bene_gesserit", "Polar Sink", 4)],
    )
    act(state, "bene_gesserit", "pass")
    # Polar Sink - Imperial Basin - Old Gap: two territories.
    refused(
        state,
        IllegalActionError,
        "1.06.03.02",
        "bene_gesserit",
        "move",
        from_="Polar Sink",
        to="Old Gap",
        sector=9,
        forces=4,
    )


def test_bg_fighters_in_arrakeen_give_ornithopters() -> None:
    state = position(
        storm=18,
        seats=BG_FIRST,
        board=[
            fighters("bene_gesserit", "Arrakeen", 2),
            fighters("bene_gesserit", "Polar Sink", 4),
        ],
    )
    act(state, "bene_gesserit", "pass")
    act(state, "bene_gesserit", "move", from_="Polar Sink", to="Old Gap", sector=9, forces=4)
    assert bg_tokens(state, "Old Gap") == (4, 0)


def test_advisors_never_use_ornithopters() -> None:
    state = position(
        storm=18,
        seats=BG_FIRST,
        board=[
            fighters("bene_gesserit", "Carthag", 2),
            advisors("Imperial Basin", 3, sector=9),
            fighters("atreides", "Imperial Basin", 1, sector=10),
        ],
    )
    act(state, "bene_gesserit", "pass")
    # Imperial Basin - Old Gap - Basin: two territories.
    refused(
        state,
        IllegalActionError,
        "2.02.12",
        "bene_gesserit",
        "move",
        from_="Imperial Basin",
        to="Basin",
        forces=3,
        advisors=True,
    )


def test_advisors_neither_trigger_nor_suffer_the_alliance_constraint() -> None:
    state = position(
        storm=18,
        seats=BG_FIRST,
        alliances=[["bene_gesserit", "atreides"]],
        board=[advisors("Arrakeen", 2), fighters("atreides", "Arrakeen", 3)],
    )
    finish_turn(state, "bene_gesserit")
    finish_turn(state, "atreides")
    assert bg_tokens(state, "Arrakeen") == (0, 2)
    assert forces(state, "atreides", "Arrakeen") == 3
    assert state.factions[BG].tanks == 0
    assert state.factions[Faction.ATREIDES].tanks == 0


def test_bg_fighters_do_suffer_the_alliance_constraint() -> None:
    state = position(
        storm=18,
        seats=BG_FIRST,
        alliances=[["bene_gesserit", "atreides"]],
        board=[fighters("bene_gesserit", "Carthag", 2), fighters("atreides", "Carthag", 3)],
    )
    events = act(state, "bene_gesserit", "pass") + act(state, "bene_gesserit", "pass")
    assert "alliance_constraint" in kinds(events)
    assert bg_tokens(state, "Carthag") == (0, 0)
    assert state.factions[BG].tanks == 2


# -- FIGHTERS ---------------------------------------------------------------------------


def test_bg_ship_fighters() -> None:
    state = position(storm=18, seats=BG_FIRST)
    act(state, "bene_gesserit", "ship", to="Carthag", forces=3)
    assert stack(state, "bene_gesserit", "Carthag", 10) == (3, 0, 0)


def test_bg_may_not_ship_onto_their_own_advisors() -> None:
    state = position(
        storm=18,
        seats=BG_FIRST,
        board=[
            advisors("Imperial Basin", 1, sector=8),
            fighters("atreides", "Imperial Basin", 2, 8),
        ],
    )
    refused(
        state,
        IllegalActionError,
        "2.02.14",
        "bene_gesserit",
        "ship",
        to="Imperial Basin",
        sector=10,
        forces=3,
    )
    assert "Imperial Basin" not in {d.territory for d in state.legal_ship_destinations(BG, 3)}


# -- ENLISTMENT, ADAPTIVE FORCE, TAKE UP ARMS ---------------------------------------------


def bg_mover(board: list[dict[str, Any]], **kw: Any) -> GameState:
    state = position(storm=18, seats=BG_FIRST, board=board, **kw)
    act(state, "bene_gesserit", "pass")
    return state


def test_enlistment_advisors_moving_to_an_unoccupied_territory_become_fighters() -> None:
    state = bg_mover([advisors("Arrakeen", 3), fighters("atreides", "Arrakeen", 2)])
    events = act(
        state,
        "bene_gesserit",
        "move",
        from_="Arrakeen",
        to="Rim Wall West",
        forces=3,
        advisors=True,
    )
    assert any(e.kind == "flipped" and e.rule == "2.02.15" for e in events)
    assert bg_tokens(state, "Rim Wall West") == (3, 0)
    assert not [p for p in state.open_prompts() if p.kind is PromptKind.KARAMA]


def test_advisors_moving_into_an_occupied_territory_stay_advisors() -> None:
    state = bg_mover(
        [
            advisors("Arrakeen", 3),
            fighters("atreides", "Arrakeen", 2),
            fighters("harkonnen", "Old Gap", 1, 9),
        ]
    )
    act(
        state,
        "bene_gesserit",
        "move",
        from_="Arrakeen",
        to="Old Gap",
        sector=9,
        forces=3,
        advisors=True,
    )
    assert stack(state, "bene_gesserit", "Old Gap", 9) == (0, 0, 3)


def test_take_up_arms_flips_advisors_moving_into_an_occupied_territory() -> None:
    state = bg_mover(
        [
            advisors("Arrakeen", 3),
            fighters("atreides", "Arrakeen", 2),
            fighters("harkonnen", "Old Gap", 1, 9),
        ]
    )
    events = act(
        state,
        "bene_gesserit",
        "move",
        from_="Arrakeen",
        to="Old Gap",
        sector=9,
        forces=3,
        advisors=True,
        take_up_arms=True,
    )
    assert any(e.kind == "flipped" and e.rule == "2.02.17" for e in events)
    assert stack(state, "bene_gesserit", "Old Gap", 9) == (3, 0, 0)
    (window,) = [p for p in state.open_prompts() if p.kind is PromptKind.KARAMA]
    assert window.ability is Ability.TAKE_UP_ARMS


def test_take_up_arms_refused_where_the_bg_already_have_advisors() -> None:
    state = bg_mover(
        [
            advisors("Arrakeen", 3),
            fighters("atreides", "Arrakeen", 2),
            fighters("harkonnen", "Old Gap", 1, 9),
            advisors("Old Gap", 1, sector=10),
        ]
    )
    refused(
        state,
        IllegalActionError,
        "2.02.17",
        "bene_gesserit",
        "move",
        from_="Arrakeen",
        to="Old Gap",
        sector=9,
        forces=3,
        advisors=True,
        take_up_arms=True,
    )
    # Without taking up arms they join the advisors (ADAPTIVE FORCE: same type).
    act(
        state,
        "bene_gesserit",
        "move",
        from_="Arrakeen",
        to="Old Gap",
        sector=9,
        forces=3,
        advisors=True,
    )
    assert bg_tokens(state, "Old Gap") == (0, 4)


def test_take_up_arms_follows_the_occupancy_limit() -> None:
    state = bg_mover(
        [
            advisors("Imperial Basin", 3, sector=9),
            fighters("atreides", "Imperial Basin", 2, 9),
            fighters("atreides", "Arrakeen", 2),
            fighters("harkonnen", "Arrakeen", 2),
        ]
    )
    refused(
        state,
        IllegalActionError,
        "2.02.17",
        "bene_gesserit",
        "move",
        from_="Imperial Basin",
        to="Arrakeen",
        forces=3,
        advisors=True,
        take_up_arms=True,
    )
    # As advisors they may go in: advisors never count for occupancy.
    act(
        state,
        "bene_gesserit",
        "move",
        from_="Imperial Basin",
        to="Arrakeen",
        forces=3,
        advisors=True,
    )
    assert bg_tokens(state, "Arrakeen") == (0, 3)


def test_take_up_arms_refused_with_an_ally_present() -> None:
    state = bg_mover(
        [
            advisors("Arrakeen", 3),
            fighters("harkonnen", "Arrakeen", 2),
            fighters("atreides", "Old Gap", 1, 9),
        ],
        alliances=[["bene_gesserit", "atreides"]],
    )
    refused(
        state,
        IllegalActionError,
        "2.02.19",
        "bene_gesserit",
        "move",
        from_="Arrakeen",
        to="Old Gap",
        sector=9,
        forces=3,
        advisors=True,
        take_up_arms=True,
    )


def test_take_up_arms_is_only_for_advisors() -> None:
    state = bg_mover([fighters("bene_gesserit", "Arrakeen", 3)])
    refused(
        state,
        InvalidActionError,
        "2.02.17",
        "bene_gesserit",
        "move",
        from_="Arrakeen",
        to="Old Gap",
        sector=9,
        forces=3,
        take_up_arms=True,
    )


def test_adaptive_force_fighters_joining_advisors_become_advisors() -> None:
    state = bg_mover(
        [
            fighters("bene_gesserit", "Arrakeen", 3),
            advisors("Old Gap", 2, sector=8),
            fighters("harkonnen", "Old Gap", 1, 8),
        ]
    )
    events = act(state, "bene_gesserit", "move", from_="Arrakeen", to="Old Gap", sector=9, forces=3)
    assert any(e.kind == "flipped" and e.rule == "2.02.21" for e in events)
    assert bg_tokens(state, "Old Gap") == (0, 5)


def test_adaptive_force_advisors_joining_fighters_become_fighters() -> None:
    state = bg_mover(
        [
            advisors("Arrakeen", 3),
            fighters("atreides", "Arrakeen", 1),
            fighters("bene_gesserit", "Old Gap", 2, sector=8),
            fighters("harkonnen", "Old Gap", 1, 8),
        ]
    )
    events = act(
        state,
        "bene_gesserit",
        "move",
        from_="Arrakeen",
        to="Old Gap",
        sector=9,
        forces=3,
        advisors=True,
    )
    assert any(e.kind == "flipped" and e.rule == "2.02.21" for e in events)
    assert bg_tokens(state, "Old Gap") == (5, 0)


# -- INTRUSION -----------------------------------------------------------------------------


def intrusion_prompts(state: GameState) -> list[Any]:
    return [p for p in state.open_prompts() if p.kind is PromptKind.INTRUSION]


def test_intrusion_by_a_move_lets_the_bg_flip_to_advisors() -> None:
    state = position(
        storm=18,
        seats=SHIPPER_FIRST,
        board=[fighters("bene_gesserit", "Old Gap", 3, 8), fighters("atreides", "Arrakeen", 4)],
    )
    act(state, "atreides", "pass")
    act(state, "atreides", "move", from_="Arrakeen", to="Old Gap", sector=9, forces=4)
    (prompt,) = intrusion_prompts(state)
    assert (prompt.responders, prompt.territory) == ((BG,), "Old Gap")
    events = act(state, "bene_gesserit", "flip", territory="Old Gap", to="advisors")
    assert any(e.kind == "flipped" and e.rule == "2.02.16" for e in events)
    assert bg_tokens(state, "Old Gap") == (0, 3)
    (window,) = [p for p in state.open_prompts() if p.kind is PromptKind.KARAMA]
    assert window.ability is Ability.INTRUSION
    assert BG not in window.responders


def test_intrusion_by_a_shipment() -> None:
    state = position(
        storm=18, seats=SHIPPER_FIRST, board=[fighters("bene_gesserit", "Arrakeen", 3)]
    )
    act(state, "atreides", "ship", to="Arrakeen", forces=2)
    assert intrusion_prompts(state)
    act(state, "bene_gesserit", "flip", territory="Arrakeen", to="advisors")
    assert bg_tokens(state, "Arrakeen") == (0, 3)


def test_intrusion_by_a_fremen_send() -> None:
    state = position(
        storm=18,
        seats=["fremen", "bene_gesserit"],
        board=[fighters("bene_gesserit", "The Great Flat", 2)],
    )
    act(state, "fremen", "send", to="The Great Flat", forces=3)
    assert intrusion_prompts(state)


def test_intrusion_declined_leaves_fighters() -> None:
    state = position(
        storm=18, seats=SHIPPER_FIRST, board=[fighters("bene_gesserit", "Arrakeen", 3)]
    )
    act(state, "atreides", "ship", to="Arrakeen", forces=2)
    act(state, "atreides", "pass")  # the flow moves on
    assert not intrusion_prompts(state)
    assert bg_tokens(state, "Arrakeen") == (3, 0)
    refused(
        state,
        IllegalActionError,
        "2.02.16",
        "bene_gesserit",
        "flip",
        territory="Arrakeen",
        to="advisors",
    )


def test_no_intrusion_by_the_bgs_ally() -> None:
    state = position(
        storm=18,
        seats=SHIPPER_FIRST,
        alliances=[["atreides", "bene_gesserit"]],
        board=[fighters("bene_gesserit", "Arrakeen", 3)],
    )
    act(state, "atreides", "ship", to="Arrakeen", forces=2)
    assert PromptKind.INTRUSION not in prompt_kinds(state)


def test_no_intrusion_where_the_bg_have_only_advisors() -> None:
    state = position(storm=18, seats=SHIPPER_FIRST, board=[advisors("Arrakeen", 3)])
    act(state, "atreides", "ship", to="Arrakeen", forces=2)
    assert PromptKind.INTRUSION not in prompt_kinds(state)


def test_no_intrusion_in_the_basic_game() -> None:
    state = position(
        storm=18,
        seats=SHIPPER_FIRST,
        advanced=False,
        board=[fighters("bene_gesserit", "Arrakeen", 3)],
    )
    act(state, "atreides", "ship", to="Arrakeen", forces=2)
    assert PromptKind.INTRUSION not in prompt_kinds(state)


# -- WARTIME, PEACETIME, STORMED IN ----------------------------------------------------------


def test_wartime_prompt_at_phase_start_flips_a_territory() -> None:
    state = position(
        storm=18,
        seats=SHIPPER_FIRST,
        board=[advisors("Arrakeen", 2), advisors("Imperial Basin", 3, sector=8)],
    )
    (prompt,) = state.open_prompts()
    assert (prompt.kind, prompt.responders) == (PromptKind.WARTIME, (BG,))
    events = act(state, "bene_gesserit", "flip", territory="Arrakeen", to="fighters")
    assert any(e.kind == "flipped" and e.rule == "2.02.18" for e in events)
    assert bg_tokens(state, "Arrakeen") == (2, 0)
    assert bg_tokens(state, "Imperial Basin") == (0, 3)  # each territory is a choice
    (window,) = [p for p in state.open_prompts() if p.kind is PromptKind.KARAMA]
    assert window.ability is Ability.WARTIME
    # The Bene Gesserit may flip another territory too.
    act(state, "bene_gesserit", "flip", territory="Imperial Basin", to="fighters")
    assert bg_tokens(state, "Imperial Basin") == (3, 0)


def test_wartime_is_only_before_the_phase() -> None:
    state = position(storm=18, seats=SHIPPER_FIRST, board=[advisors("Arrakeen", 2)])
    act(state, "atreides", "ship", to="Carthag", forces=1)
    refused(
        state,
        IllegalActionError,
        "2.02.18",
        "bene_gesserit",
        "flip",
        territory="Arrakeen",
        to="fighters",
    )


def test_no_wartime_in_the_basic_game_or_without_advisors() -> None:
    basic = position(storm=18, seats=SHIPPER_FIRST, advanced=False, board=[advisors("Arrakeen", 2)])
    assert PromptKind.WARTIME not in prompt_kinds(basic)
    none = position(storm=18, seats=SHIPPER_FIRST, board=[fighters("bene_gesserit", "Arrakeen", 2)])
    assert PromptKind.WARTIME not in prompt_kinds(none)


@pytest.mark.parametrize("ally_sector", [8, 10])
def test_peacetime_no_wartime_flip_with_an_ally_in_the_territory(ally_sector: int) -> None:
    state = position(
        storm=18,
        seats=SHIPPER_FIRST,
        alliances=[["atreides", "bene_gesserit"]],
        board=[
            advisors("Imperial Basin", 2, sector=8),
            fighters("atreides", "Imperial Basin", 1, ally_sector),
        ],
    )
    refused(
        state,
        IllegalActionError,
        "2.02.19",
        "bene_gesserit",
        "flip",
        territory="Imperial Basin",
        to="fighters",
    )


def test_stormed_in_no_wartime_flip_under_the_storm() -> None:
    # Storm over sector 9; seat 3 is first.
    state = position(
        storm=9,
        seats=[None, None, None, "atreides", "bene_gesserit"],
        board=[advisors("Imperial Basin", 2, sector=9)],
    )
    refused(
        state,
        IllegalActionError,
        "2.02.20",
        "bene_gesserit",
        "flip",
        territory="Imperial Basin",
        to="fighters",
    )


# -- UNIVERSAL STEWARDS -----------------------------------------------------------------------


def play_out(state: GameState) -> list[Any]:
    events = []
    while not state.is_complete:
        faction = state.to_act()
        assert faction is not None
        events += act(state, faction.value, "pass")
    return events


def test_universal_stewards_advisors_alone_become_fighters_at_phase_end() -> None:
    state = position(
        storm=18,
        seats=SHIPPER_FIRST,
        board=[
            advisors("Carthag", 2),
            advisors("Arrakeen", 2),
            fighters("atreides", "Arrakeen", 1),
        ],
    )
    state.close_all_prompts()  # no Wartime
    events = play_out(state)
    assert any(e.kind == "flipped" and e.rule == "2.02.22" for e in events)
    assert bg_tokens(state, "Carthag") == (2, 0)
    assert bg_tokens(state, "Arrakeen") == (0, 2)


def test_universal_stewards_not_under_storm() -> None:
    state = position(
        storm=9,
        seats=[None, None, None, "atreides", "bene_gesserit"],
        board=[advisors("Imperial Basin", 2, sector=9)],
    )
    state.close_all_prompts()
    play_out(state)
    assert bg_tokens(state, "Imperial Basin") == (0, 2)


def test_universal_stewards_after_the_others_leave() -> None:
    state = position(
        storm=18,
        seats=SHIPPER_FIRST,
        board=[advisors("Arrakeen", 2), fighters("atreides", "Arrakeen", 1)],
    )
    state.close_all_prompts()
    act(state, "atreides", "pass")
    act(state, "atreides", "move", from_="Arrakeen", to="Rim Wall West", forces=1)
    play_out(state)
    assert bg_tokens(state, "Arrakeen") == (2, 0)
