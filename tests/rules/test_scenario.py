"""The dune-scenario/1 contract: malformed files vs refused actions, and the output."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from rules.factions import Faction
from rules.scenario import ScenarioError, load_scenario, run_scenario

EXAMPLE = Path(__file__).parents[2] / "examples" / "advanced-phase.json"


def example() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE.read_text())
    return data


def minimal(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": "dune-scenario/1",
        "storm_sector": 5,
        "seats": ["atreides", None, "harkonnen"],
        "factions": {
            "atreides": {"spice": 10, "reserves": 10},
            "harkonnen": {"spice": 10, "reserves": 10},
        },
        "board": [{"faction": "harkonnen", "territory": "Carthag", "forces": 10}],
        "actions": [],
    }
    data.update(changes)
    return data


def test_the_example_file_runs_the_whole_phase() -> None:
    _, output = run_scenario(example())
    accepted = [r["accepted"] for r in output["results"]]
    assert accepted.count(False) == 1
    refused = next(r for r in output["results"] if not r["accepted"])
    assert refused["rule"] == "1.06.01" and "already shipped" in refused["error"]
    assert output["state"]["phase_complete"] is True
    guild = output["state"]["factions"]["spacing_guild"]
    assert guild["spice"] == 12  # 2 + 4 + 2 received, 1 paid for its own cross-ship


def test_output_board_has_one_entry_per_kind_and_no_empty_stacks() -> None:
    _, output = run_scenario(example())
    carthag = [b for b in output["state"]["board"] if b["territory"] == "Carthag"]
    assert {(b["faction"], b["advisors"]) for b in carthag} == {
        ("atreides", False),
        ("bene_gesserit", True),
        ("harkonnen", False),
    }
    assert all(b["forces"] + b["special"] > 0 for b in output["state"]["board"])
    assert set(output["state"]) == {"storm_sector", "factions", "board", "phase_complete"}


def test_the_output_board_can_be_fed_back_as_input() -> None:
    _, first = run_scenario(example())
    again = minimal(
        seats=example()["seats"],
        factions=first["state"]["factions"],
        board=first["state"]["board"],
    )
    _, second = run_scenario(again)
    assert second["state"]["board"] == first["state"]["board"]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"format": "dune-scenario/2"}, "format"),
        ({"storm_sector": 0}, "storm_sector"),
        ({"storm_sector": 19}, "storm_sector"),
        ({"seats": ["atreides", "atreides"]}, "seats"),
        ({"seats": ["ix"]}, "seats[0]"),
        ({"seats": [None] * 7}, "seats"),
        ({"factions": {"tleilaxu": {}}}, "factions.tleilaxu"),
        ({"factions": {"emperor": {}}}, "factions.emperor"),
        ({"factions": {"atreides": {"spice": -1}}}, "factions.atreides.spice"),
        (
            {"board": [{"faction": "harkonnen", "territory": "Caladan", "forces": 1}]},
            "board[0].territory",
        ),
        (
            {
                "board": [
                    {"faction": "harkonnen", "territory": "Carthag", "sector": 11, "forces": 1}
                ]
            },
            "board[0].sector",
        ),
        (
            {
                "board": [
                    {"faction": "harkonnen", "territory": "Polar Sink", "sector": 3, "forces": 1}
                ]
            },
            "board[0].sector",
        ),
        (
            {"board": [{"faction": "harkonnen", "territory": "Carthag", "forces": -2}]},
            "board[0].forces",
        ),
        (
            {
                "board": [
                    {"faction": "harkonnen", "territory": "Carthag", "forces": 2, "advisors": True}
                ]
            },
            "board[0].advisors",
        ),
        ({"variants": {"fremen_storm_movement": "swim"}}, "variants.fremen_storm_movement"),
        ({"variants": {"no_such_switch": True}}, "variants.no_such_switch"),
        ({"advanced": "yes"}, "advanced"),
        ({"alliances": [["atreides", "atreides"]]}, "alliances[0]"),
        ({"actions": {"ship": 1}}, "actions"),
        ({"storm": 5}, "storm"),
        ({"factions": {"atreides": {"spise": 10}}}, "factions.atreides.spise"),
        (
            {"board": [{"faction": "harkonnen", "territory": "Carthag", "forcse": 10}]},
            "board[0].forcse",
        ),
        (
            {"spice_on_board": [{"territory": "Red Chasm", "sector": 6, "amuont": 8}]},
            "spice_on_board[0].amuont",
        ),
        ({"factions": {"atreides": {"cards": ["Death Star"]}}}, "factions.atreides.cards[0]"),
        ({"factions": {"atreides": {"cards": ["Hajr", 7]}}}, "factions.atreides.cards[1]"),
        ({"factions": {"harkonnen": {"reserves": 25}}}, "factions.harkonnen"),
        ({"factions": {"harkonnen": {"reserves": 5, "tanks": 6}}}, "factions.harkonnen"),
        ({"factions": {"atreides": {"special_reserves": 1}}}, "factions.atreides"),
        (
            {
                "seats": ["emperor"],
                "factions": {"emperor": {"reserves": 10, "special_reserves": 4}},
                "board": [
                    {"faction": "emperor", "territory": "Arrakeen", "sector": 9, "special": 2}
                ],
            },
            "factions.emperor",
        ),
        (
            {
                "seats": ["bene_gesserit"],
                "factions": {},
                "board": [
                    {
                        "faction": "bene_gesserit",
                        "territory": "Imperial Basin",
                        "sector": 8,
                        "forces": 2,
                    },
                    {
                        "faction": "bene_gesserit",
                        "territory": "Imperial Basin",
                        "sector": 9,
                        "forces": 1,
                        "advisors": True,
                    },
                ],
            },
            "board[1].advisors",
        ),
    ],
)
def test_malformed_files_name_the_field(change: dict[str, Any], field: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        load_scenario(minimal(**change))
    assert str(caught.value).startswith(field + ":")


@pytest.mark.parametrize("missing", ["format", "storm_sector", "seats"])
def test_missing_required_keys(missing: str) -> None:
    data = minimal()
    del data[missing]
    with pytest.raises(ScenarioError) as caught:
        load_scenario(data)
    assert missing in str(caught.value)


def test_optional_fields_default() -> None:
    scenario = load_scenario(
        {"format": "dune-scenario/1", "storm_sector": 3, "seats": ["atreides"]}
    )
    state = scenario.initial_state()
    assert state.rules.advanced is True
    assert state.factions[next(iter(state.factions))].spice == 0
    assert scenario.actions == ()


@pytest.mark.parametrize(
    ("action", "rule", "words"),
    [
        (
            {"faction": "harkonnen", "action": "ship", "to": "Caladan", "forces": 1},
            "1.06.02",
            "'Caladan'",
        ),
        (
            {"faction": "harkonnen", "action": "ship", "to": "Carthag", "sector": 9, "forces": 1},
            "1.06.02.03",
            "no sector 9",
        ),
        (
            {"faction": "harkonnen", "action": "ship", "to": "Carthag", "forces": 0},
            "1.06.02",
            "at least one force",
        ),
        ({"faction": "harkonnen", "action": "teleport"}, "1.06.00", "unknown action"),
        ({"faction": "emperor", "action": "pass"}, "1.06.00", "not in this game"),
        (
            {
                "faction": "harkonnen",
                "action": "ship",
                "to": "Carthag",
                "forces": 1,
                "ally_pays": 1,
            },
            "1.10.02.05",
            "no ally",
        ),
        ({"faction": "harkonnen", "action": "ship", "forces": 1}, "1.06.00", "needs 'to'"),
        (
            {"faction": "harkonnen", "action": "ship", "to": "Carthag", "forces": "two"},
            "1.06.00",
            "'forces'",
        ),
    ],
)
def test_wrong_actions_are_refused_not_malformed(
    action: dict[str, Any], rule: str, words: str
) -> None:
    _, output = run_scenario(minimal(actions=[action]))
    (result,) = output["results"]
    assert result["accepted"] is False
    assert result["rule"] == rule
    assert words in result["error"]


def test_open_prompts_are_declined_before_the_final_state() -> None:
    data = minimal(
        seats=["atreides", None, "harkonnen", None, None, "bene_gesserit"],
        factions={"bene_gesserit": {"reserves": 5}},
        actions=[{"faction": "harkonnen", "action": "ship", "to": "Carthag", "forces": 1}],
    )
    state, output = run_scenario(data)
    assert not state.open_prompts()
    assert output["state"]["factions"]["bene_gesserit"]["reserves"] == 5


def test_running_does_not_modify_the_input() -> None:
    data = example()
    kept = copy.deepcopy(data)
    run_scenario(data)
    assert data == kept


def test_every_key_of_the_contract_is_accepted() -> None:
    scenario = load_scenario(
        {
            "format": "dune-scenario/1",
            "advanced": True,
            "variants": {"fremen_storm_movement": "free"},
            "storm_sector": 5,
            "seats": ["atreides", None, "bene_gesserit", "emperor"],
            "alliances": [["atreides", "emperor"]],
            "factions": {
                "atreides": {
                    "spice": 10,
                    "reserves": 5,
                    "special_reserves": 0,
                    "tanks": 5,
                    "special_tanks": 0,
                    "cards": ["Karama", "karama", "Cheap Heroine"],
                },
                "emperor": {"reserves": 15, "special_reserves": 3, "special_tanks": 2},
            },
            "board": [
                {
                    "faction": "atreides",
                    "territory": "Arrakeen",
                    "sector": 9,
                    "forces": 10,
                    "special": 0,
                    "advisors": False,
                },
                {
                    "faction": "bene_gesserit",
                    "territory": "Arrakeen",
                    "forces": 1,
                    "advisors": True,
                },
                {
                    "faction": "bene_gesserit",
                    "territory": "Polar Sink",
                    "sector": None,
                    "forces": 19,
                },
            ],
            "spice_on_board": [{"territory": "Red Chasm", "sector": 6, "amount": 8}],
            "actions": [{"faction": "atreides", "action": "pass"}],
        }
    )
    assert scenario.factions[Faction.ATREIDES].cards == ("Karama", "karama", "Cheap Heroine")


def test_a_misspelled_key_is_named_with_its_likely_meaning() -> None:
    bad = minimal(board=[{"faction": "harkonnen", "territory": "Carthag", "forcse": 10}])
    with pytest.raises(ScenarioError, match="did you mean 'forces'"):
        load_scenario(bad)


def test_more_forces_than_the_faction_owns_says_how_many_it_has() -> None:
    with pytest.raises(ScenarioError) as caught:
        load_scenario(minimal(factions={"harkonnen": {"reserves": 25}}))
    assert "35" in str(caught.value) and "20" in str(caught.value)


@pytest.mark.parametrize(
    ("action", "typed", "meant"),
    [
        ({"faction": "harkonnen", "action": "pass", "stepp": "shipment"}, "stepp", "step"),
        (
            {"faction": "harkonnen", "action": "ship", "to": "Carthag", "forcs": 2},
            "forcs",
            "forces",
        ),
    ],
)
def test_a_misspelt_key_in_an_action_is_refused_with_its_likely_meaning(
    action: dict[str, Any], typed: str, meant: str
) -> None:
    state, output = run_scenario(minimal(actions=[action]))
    (result,) = output["results"]
    assert result["accepted"] is False
    assert result["rule"] == "1.06.00"
    assert f"'{typed}' is not a key of the '{action['action']}' action" in result["error"]
    assert f"did you mean '{meant}'?" in result["error"]
    assert "SCENARIO-FORMAT.md" in result["error"]
    assert state.stacks == load_scenario(minimal()).initial_state().stacks  # nothing changed


def test_a_misspelt_board_territory_is_named_with_its_likely_meaning() -> None:
    bad = minimal(board=[{"faction": "harkonnen", "territory": "Cartag", "forces": 10}])
    with pytest.raises(ScenarioError) as caught:
        load_scenario(bad)
    assert str(caught.value) == (
        "board[0].territory: unknown territory 'Cartag' (did you mean 'Carthag'?)"
    )


def test_a_misspelt_action_name_is_refused_with_its_likely_meaning() -> None:
    _, output = run_scenario(minimal(actions=[{"faction": "harkonnen", "action": "shipp"}]))
    (result,) = output["results"]
    assert result["accepted"] is False
    assert result["error"] == "unknown action 'shipp' (did you mean 'ship'?)"
