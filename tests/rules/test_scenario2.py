"""The ``dune-scenario/2`` contract: the worked examples, and malformed files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules.scenario import ScenarioError
from rules.scenario2 import load, run

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "scenario-2"
RUN_BY_THE_ENGINE = [
    *("storm_turn1", "blow_worm_nexus", "collection_then_win", "revival_turn", "battle_basic"),
    "karama_window_holds",
]


def example(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    return data


def comparable(state: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in state.items() if k != "events"}
    out["board"] = sorted(
        out["board"], key=lambda e: (e["faction"], e["territory"], e["sector"] or 0)
    )
    out["spice_on_board"] = sorted(
        out["spice_on_board"], key=lambda e: (e["territory"], e["sector"] or 0)
    )
    return out


@pytest.mark.parametrize("name", RUN_BY_THE_ENGINE)
def test_worked_examples_give_the_documented_state(name: str) -> None:
    data = example(name)
    _, output = run(data["scenario"])
    assert comparable(output["state"]) == comparable(data["output"]["state"])
    for got, expected in zip(output["results"], data["output"]["results"], strict=True):
        assert got["accepted"] == expected["accepted"]
        assert got.get("rule") == expected.get("rule")


def test_the_steps_before_an_action_belong_to_its_result() -> None:
    _, output = run(example("collection_then_win")["scenario"])
    kinds = [e["type"] for e in output["results"][0]["events"]]
    assert kinds.count("spice_collected") == 6 and kinds[-1] == "game_won"
    _, output = run(example("storm_turn1")["scenario"])
    assert [e["type"] for e in output["state"]["events"]] == ["phase_began"]
    assert output["state"]["to_act"] == []


def test_revival_starts_runs_and_declines_the_silent() -> None:
    """A scenario starting at revival: revive and pass answer; a refused revive says
    why and declines nobody's choice; a faction that sends no revive gets its free
    revival alone when the next phase's action comes (docs/SCENARIO-FORMAT-2.md)."""
    _, output = run(example("revival_turn")["scenario"])
    results = output["results"]
    assert [r["accepted"] for r in results] == [True, True, False, True, True]
    assert (results[2]["rule"], results[2]["error"]) == (
        "1.05.01",
        "at most 3 forces are revived per turn, not 4",
    )
    silent = [e for e in results[4]["events"] if e["type"] == "revived"]
    assert [(e["faction"], e["forces"], e["cost"]) for e in silent] == [("harkonnen", 2, 0)]
    assert output["state"]["phase"] == "shipment_movement"
    assert output["state"]["factions"]["atreides"]["leaders"] == ["Lady Jessica"]


def test_the_battle_example_keeps_its_plans_secret_until_both_are_in() -> None:
    """battle_basic: the Guild's plan is in, public only as "in"; the Harkonnen's reveals both."""
    _, output = run(example("battle_basic")["scenario"])
    first = output["results"][1]["events"]
    assert [e["type"] for e in first] == ["battle_plan_in"] and "Snooper" not in str(first)
    revealed = [e for e in output["results"][2]["events"] if e["type"] == "plan_revealed"]
    assert [(e["faction"], e["leader"], e["number"]) for e in revealed] == [
        ("harkonnen", "Beast Rabban", 5),
        ("spacing_guild", "Staban Tuek", 3),
    ]
    assert output["state"]["factions"]["spacing_guild"]["tanks"] == 5


def test_a_choice_not_answered_is_declined() -> None:
    """A Nexus waits; a charity claim comes: the Nexus is declined by everyone first."""
    scenario = example("blow_worm_nexus")["scenario"]
    scenario = {**scenario, "stop_before": {"turn": 3, "phase": "bidding"}}
    scenario["factions"] = {
        **scenario["factions"],
        "atreides": {**scenario["factions"]["atreides"], "spice": 1},
    }
    scenario["actions"] = [{"faction": "atreides", "action": "claim_charity"}]
    state, output = run(scenario)
    assert output["results"][0]["accepted"], output["results"][0]
    assert state.factions[next(f for f in state.factions if f.value == "atreides")].spice == 2


def test_a_refused_action_after_declines_changes_nothing() -> None:
    scenario = {
        **example("blow_worm_nexus")["scenario"],
        "actions": [{"faction": "atreides", "action": "claim_charity"}],
    }
    state, output = run(scenario)
    assert not output["results"][0]["accepted"]
    assert state.whole.step == "nexus_b" and len(state.waiting_on()) == 6


def test_defaults_deal_the_decks_from_the_seed() -> None:
    scenario = {k: v for k, v in example("storm_turn1")["scenario"].items() if k != "actions"}
    a, b = load(scenario), load({**scenario, "seed": 1})
    assert len(a.whole.spice_deck) == 21 and len(a.whole.treachery_deck) == 33 - 7
    assert a.whole.spice_deck != b.whole.spice_deck
    assert load(scenario).to_dict() == a.to_dict()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"turn": 11}, "turn"),
        ({"phase": "tea_time"}, "phase"),
        ({"stop_before": {"turn": 2, "phase": "nap"}}, "phase"),
        ({"decks": {"spice": ["Arrakeen"]}}, "decks.spice[0]"),
        ({"decks": {"treachery": ["Ace of spades"]}}, "decks.treachery[0]"),
        ({"decks": {"tarot": []}}, "decks.tarot"),
        ({"storm_next": 7}, "storm_next"),
        ({"storm_dialers": ["atreides"]}, "storm_dialers"),
        ({"storm_dialez": ["atreides"]}, "storm_dialez"),
    ],
)
def test_malformed_files_name_the_field(change: dict[str, Any], field: str) -> None:
    scenario = {**example("storm_turn1")["scenario"], **change}
    with pytest.raises(ScenarioError) as info:
        load(scenario)
    assert field in str(info.value)


@pytest.mark.parametrize(
    ("faction", "fields", "field"),
    [
        ("atreides", {"leaders": ["Stilgar"]}, "factions.atreides.leaders[0]"),
        ("atreides", {"traitors": ["Nobody"]}, "factions.atreides.traitors[0]"),
        (
            "atreides",
            {"prediction": {"faction": "fremen", "turn": 2}},
            "factions.atreides.prediction",
        ),
        (
            "bene_gesserit",
            {"prediction": {"faction": "bene_gesserit", "turn": 2}},
            "prediction.faction",
        ),
    ],
)
def test_malformed_faction_keys(faction: str, fields: dict[str, Any], field: str) -> None:
    scenario = example("storm_turn1")["scenario"]
    factions = {**scenario["factions"], faction: {**scenario["factions"][faction], **fields}}
    with pytest.raises(ScenarioError) as info:
        load({**scenario, "factions": factions})
    assert field in str(info.value)


def test_the_kwisatz_haderach_is_read() -> None:
    scenario = example("storm_turn1")["scenario"]
    atreides = {
        **scenario["factions"]["atreides"],
        "kwisatz_haderach": {"active": True, "losses": 8},
    }
    state = load({**scenario, "factions": {**scenario["factions"], "atreides": atreides}})
    assert state.whole.kwisatz_haderach_active and state.whole.atreides_battle_losses == 8
    fremen = {**scenario["factions"]["fremen"], "kwisatz_haderach": {"active": True}}
    with pytest.raises(ScenarioError):
        load({**scenario, "factions": {**scenario["factions"], "fremen": fremen}})


def test_an_action_after_stop_before_is_refused_and_changes_nothing() -> None:
    scenario = example("storm_turn1")["scenario"]
    extra = {"faction": "harkonnen", "action": "dial", "value": 3}
    state, output = run({**scenario, "actions": [*scenario["actions"], extra]})
    last = output["results"][-1]
    assert not last["accepted"] and "stopped before" in last["error"]
    assert state.whole.halted and output["state"]["phase"] == "spice_blow"
    assert output["state"]["storm_sector"] == 13


def test_nothing_is_played_ahead_while_a_karama_window_is_open() -> None:
    """karama_window_holds (issue 27): the Emperor's Karama ahead is refused while the
    Fremen's move may be cancelled (1.00.05), accepted once the window has closed."""
    _, output = run(example("karama_window_holds")["scenario"])
    results = output["results"]
    assert [r["accepted"] for r in results] == [True, True, False, True, True]
    assert results[2]["rule"] == "1.00.05" and results[2]["events"] == []
    assert [e["type"] for e in results[4]["events"]] == ["karama_prevent"]


def test_a_run_ending_after_the_plans_stops_at_the_traitor_question() -> None:
    """Each side asked about a traitor answers with call_traitor or pass
    (docs/SCENARIO-FORMAT-2.md): a run whose actions end at the question stops there."""
    scenario = example("battle_basic")["scenario"]
    scenario = {**scenario, "actions": scenario["actions"][:3]}
    _, output = run(scenario)
    assert all(r["accepted"] for r in output["results"])
    assert output["state"]["phase"] == "battle"
    assert output["state"]["to_act"] == ["harkonnen", "spacing_guild"]
    assert output["state"]["factions"]["spacing_guild"]["tanks"] == 0  # not resolved yet


def test_the_traitor_question_is_answered_by_call_traitor_or_pass() -> None:
    """The Guild hold Beast Rabban's traitor card and call it; the Harkonnen pass: the
    Guild win by treachery (1.07.06.06)."""
    scenario = example("battle_basic")["scenario"]
    guild = {**scenario["factions"]["spacing_guild"], "traitors": ["Beast Rabban"]}
    scenario = {
        **scenario,
        "factions": {**scenario["factions"], "spacing_guild": guild},
        "actions": [
            *scenario["actions"][:3],
            {"faction": "harkonnen", "action": "pass"},
            {"faction": "spacing_guild", "action": "call_traitor"},
        ],
    }
    _, output = run(scenario)
    assert all(r["accepted"] for r in output["results"]), output["results"]
    called = [e for e in output["results"][4]["events"] if e["type"] == "traitor_called"]
    assert [(e["faction"], e["leader"]) for e in called] == [("spacing_guild", "Beast Rabban")]
    assert output["state"]["factions"]["harkonnen"]["tanks"] == 2 + 6


def test_a_shipment_out_of_turn_is_refused_and_declines_nobody() -> None:
    """A faction's turn to ship and move (1.06.00) is not declined by another's shipment."""
    scenario = {
        **example("battle_basic")["scenario"],
        "phase": "shipment_movement",
        "stop_before": {"turn": 2, "phase": "battle"},
        "actions": [
            {"faction": "fremen", "action": "ship", "to": "Arrakeen", "forces": 1},
            {"faction": "harkonnen", "action": "ship", "to": "Arrakeen", "forces": 1},
        ],
    }
    _, output = run(scenario)
    refused, accepted = output["results"]
    assert refused["accepted"] is False and refused["rule"].startswith("1.06")
    declined = {"shipment_passed", "movement_passed", "turn_ended"}
    assert not declined & {e["type"] for e in refused["events"]}
    assert accepted["accepted"], accepted
    assert "shipment" in {e["type"] for e in accepted["events"]}
