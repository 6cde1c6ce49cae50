"""What answers a prompt (SCENARIO-FORMAT, Prompts): only the action made for it.

``pass`` never answers a prompt, except the Bene Gesserit's pass on its advise
prompt; a bystander's pass is out of turn (1.06.00). ``decline`` says no to one
prompt kind and is taken only from a faction the prompt waits on. A repeated
``pass`` naming a step that is over is refused.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError
from rules.factions import Faction
from rules.game import GameState
from rules.model import PromptKind
from rules.scenario import run_scenario
from tests.rules.helpers import act, kinds, position
from tests.rules.refusal import refused

A, H, BG = Faction.ATREIDES, Faction.HARKONNEN, Faction.BENE_GESSERIT


def karama_window_on_atreides_shipment() -> GameState:
    """Atreides shipped, paying the Guild: a Karama window waits on Harkonnen (and others)."""
    state = position(
        storm=18,
        seats=["atreides", "harkonnen", "spacing_guild"],
        factions={"harkonnen": {"cards": ["Karama"]}},
    )
    act(state, "spacing_guild", "decline", prompt="guild_timing")
    act(state, "atreides", "ship", to="Arrakeen", forces=5)
    (window,) = karama_windows(state)
    assert H in window.waiting_on()
    return state


def karama_windows(state: GameState) -> list[Any]:
    return [p for p in state.open_prompts() if p.kind is PromptKind.KARAMA]


def bg(territory: str, count: int, *, advisors: bool = False, sector: int | None = None) -> Any:
    entry = {"faction": "bene_gesserit", "territory": territory, "forces": count}
    if advisors:
        entry["advisors"] = True
    if sector is not None:
        entry["sector"] = sector
    return entry


def test_a_bystanders_pass_does_not_decline_a_karama_window() -> None:
    state = karama_window_on_atreides_shipment()
    error = refused(state, NotYourTurnError, "1.06.00", "harkonnen", "pass")
    assert "not Harkonnen's turn" in error.message
    assert H in karama_windows(state)[0].waiting_on()


def test_the_bg_pass_does_not_decline_wartime() -> None:
    state = position(
        storm=18, seats=["atreides", "bene_gesserit"], board=[bg("Arrakeen", 2, advisors=True)]
    )
    assert [p.kind for p in state.open_prompts()] == [PromptKind.WARTIME]
    refused(state, NotYourTurnError, "1.06.00", "bene_gesserit", "pass")
    act(state, "bene_gesserit", "decline", prompt="wartime")
    assert state.open_prompts() == ()


def test_the_bg_pass_does_not_decline_intrusion() -> None:
    state = position(
        storm=18,
        seats=["atreides", "harkonnen", "bene_gesserit"],
        board=[bg("Old Gap", 3, sector=8), {"faction": "atreides", "territory": "Arrakeen",
                                            "forces": 4}],
    )  # fmt: skip
    act(state, "atreides", "pass")
    act(state, "atreides", "move", from_="Arrakeen", to="Old Gap", sector=9, forces=4)
    assert [p.kind for p in state.open_prompts()] == [PromptKind.INTRUSION]
    refused(state, NotYourTurnError, "1.06.00", "bene_gesserit", "pass")


def test_the_bg_pass_on_intrusion_and_advise_declines_the_advisor_only() -> None:
    state = position(storm=18, seats=["atreides", "bene_gesserit"], board=[bg("Arrakeen", 3)])
    act(state, "atreides", "ship", to="Arrakeen", forces=2)
    act(state, "bene_gesserit", "pass")
    assert [p.kind for p in state.open_prompts()] == [PromptKind.INTRUSION]


def test_the_bg_pass_still_declines_its_advise_prompt() -> None:
    state = position(storm=18, seats=["atreides", "bene_gesserit"])
    act(state, "atreides", "ship", to="Carthag", forces=2)
    assert [p.kind for p in state.open_prompts()] == [PromptKind.ADVISE]
    assert kinds(act(state, "bene_gesserit", "pass")) == ["prompt_declined"]
    assert state.open_prompts() == () and state.to_act() is A


def test_decline_answers_its_own_prompt_and_leaves_the_others_open() -> None:
    state = karama_window_on_atreides_shipment()
    events = act(state, "harkonnen", "decline", prompt="karama")
    assert kinds(events) == ["prompt_declined"]
    (window,) = karama_windows(state)
    assert H not in window.waiting_on() and window.waiting_on() == (A,)
    assert len(state.open_prompts()) == 2  # the Guild's stop prompt too


def test_decline_is_refused_from_a_faction_the_prompt_does_not_wait_on() -> None:
    state = karama_window_on_atreides_shipment()
    error = refused(state, NotYourTurnError, "3.01.11", "spacing_guild", "decline", prompt="karama")
    assert "Spacing Guild has no open karama prompt" in error.message
    act(state, "harkonnen", "decline", prompt="karama")
    refused(state, NotYourTurnError, "3.01.11", "harkonnen", "decline", prompt="karama")
    refused(state, InvalidActionError, "1.06.00", "harkonnen", "decline", prompt="nonsense")


def test_a_repeated_pass_of_the_same_step_is_refused() -> None:
    state = position(storm=18, seats=["atreides", "harkonnen"])
    assert kinds(act(state, "atreides", "pass", step="shipment")) == ["shipment_passed"]
    error = refused(state, IllegalActionError, "1.06.00", "atreides", "pass", step="shipment")
    assert "already passed its shipment" in error.message
    act(state, "atreides", "pass", step="movement")
    error = refused(state, IllegalActionError, "1.06.00", "atreides", "pass", step="movement")
    assert "already passed its movement" in error.message
    refused(state, IllegalActionError, "1.06.00", "harkonnen", "pass", step="movement")
    refused(state, InvalidActionError, "1.06.00", "harkonnen", "pass", step="lunch")


@pytest.mark.parametrize("who", ["harkonnen", "spacing_guild"])
def test_scenario_bystander_pass_is_refused_out_of_turn(who: str) -> None:
    data = {
        "format": "dune-scenario/1",
        "storm_sector": 18,
        "seats": ["atreides", "harkonnen", "spacing_guild", None, None, None],
        "factions": {
            "atreides": {"spice": 20, "reserves": 10},
            "harkonnen": {"spice": 20, "reserves": 10, "cards": ["Karama"]},
            "spacing_guild": {"spice": 20, "reserves": 10},
        },
        "board": [],
        "actions": [
            {"action": "guild_delay", "faction": "spacing_guild"},
            {"action": "ship", "faction": "atreides", "to": "Arrakeen", "forces": 5},
            {"action": "pass", "faction": who},
            {"action": "karama_cancel", "faction": "harkonnen"},
        ],
    }
    _, out = run_scenario(data)
    results = out["results"]
    assert results[2]["accepted"] is False and results[2]["rule"] == "1.06.00"
    assert results[3]["accepted"] is True  # the window was still open
