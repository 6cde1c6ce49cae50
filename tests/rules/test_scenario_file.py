"""A scenario file of either version: told apart by ``format``; a worked example's input is
read from its ``scenario``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules import scenario_file
from rules.scenario import ScenarioError

ROOT = Path(__file__).parents[2]
WORKED = sorted((ROOT / "examples" / "scenario-2").glob("*.json"))


def worked(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


@pytest.mark.parametrize("path", WORKED, ids=[p.stem for p in WORKED])
def test_a_worked_example_runs_as_given_like_its_scenario(path: Path) -> None:
    data = worked(path)
    _, as_given = scenario_file.run(data)
    _, alone = scenario_file.run(data["scenario"])
    assert as_given == alone
    assert len(as_given["results"]) == len(data["scenario"].get("actions", []))


def test_both_versions_are_read() -> None:
    one = json.loads((ROOT / "examples" / "advanced-phase.json").read_text())
    assert "phase_complete" in scenario_file.run(one)[1]["state"]
    two = worked(WORKED[0])["scenario"]
    assert "turn" in scenario_file.run(two)[1]["state"]


@pytest.mark.parametrize("found", [None, "dune-scenario/3", 2])
def test_an_unknown_format_names_both_versions(found: object) -> None:
    data = {"format": found, "seats": ["atreides"], "storm_sector": 1}
    with pytest.raises(ScenarioError) as caught:
        scenario_file.run(data)
    message = str(caught.value)
    assert "'dune-scenario/1' or 'dune-scenario/2'" in message
    assert message.startswith("format: ")


def test_a_file_with_other_keys_beside_scenario_is_not_taken_for_a_worked_example() -> None:
    data = {"scenario": worked(WORKED[0])["scenario"], "notes": "mine"}
    with pytest.raises(ScenarioError, match="format: expected"):
        scenario_file.load(data)


def test_the_starting_position_of_a_worked_example_is_its_scenario_s() -> None:
    data = worked(WORKED[0])
    assert (
        scenario_file.load(data).storm_sector == scenario_file.load(data["scenario"]).storm_sector
    )
