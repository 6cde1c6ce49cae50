"""A scenario file of either version of the contract: which one it is, and running it.

``dune-scenario/1`` (docs/SCENARIO-FORMAT.md) and ``/2`` (docs/SCENARIO-FORMAT-2.md) are
told apart by their ``format``. A worked example (examples/scenario-2/) holds its input
under ``scenario``, beside ``about`` and ``output``: that input is the one read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules import scenario as v1
from rules import scenario2 as v2
from rules.errors import quote
from rules.game import GameState
from rules.scenario import ScenarioError

FORMATS = (v1.FORMAT, v2.FORMAT)
WORKED_EXAMPLE_KEYS = frozenset({"about", "scenario", "output"})


def scenario_input(data: object) -> object:
    """The scenario itself: the file, or the ``scenario`` of a worked example."""
    if isinstance(data, Mapping) and "format" not in data and set(data) <= WORKED_EXAMPLE_KEYS:
        inner = data.get("scenario")
        if isinstance(inner, Mapping) and "format" in inner:
            return inner
    return data


def version_of(data: object) -> str:
    """The ``format`` of a scenario; raises ScenarioError naming both versions."""
    found = data.get("format") if isinstance(data, Mapping) else None
    if found not in FORMATS:
        expected = " or ".join(repr(f) for f in FORMATS)
        raise ScenarioError(f"format: expected {expected}, got {quote(found)}")
    assert isinstance(found, str)
    return found


def run(data: object) -> tuple[GameState, dict[str, Any]]:
    """Apply the actions of a file of either version; the final state and the output."""
    scenario = scenario_input(data)
    if version_of(scenario) == v2.FORMAT:
        return v2.run(scenario)
    return v1.run_scenario(scenario)


def load(data: object) -> GameState:
    """The starting position of a file of either version, no action applied."""
    scenario = scenario_input(data)
    if version_of(scenario) == v2.FORMAT:
        return v2.load(scenario)
    return v1.load_scenario(scenario).initial_state()
