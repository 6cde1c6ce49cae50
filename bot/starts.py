"""Starting positions: one Shipment & Movement phase, or a whole game from its set-up.

A whole game's seed comes from :mod:`secrets` unless given; it is stored with the game's
start entry (its log), and never shown in a view or a message.
"""

from __future__ import annotations

import json
import secrets
from importlib import resources
from typing import Any

from rules.errors import RulesError
from rules.factions import Faction
from rules.game import GameState
from rules.model import RuleSet
from rules.scenario import FORMAT, ScenarioError, load_scenario

SEED_BITS = 63


def whole_game_start(
    seats: tuple[Faction | None, ...] = tuple(Faction),
    *,
    rules: RuleSet | None = None,
    seed: int | None = None,
    last_turn: int = 10,
) -> GameState:
    """A whole game at set-up (turn 1; seat k in sector 3k+1), its decks shuffled and dealt
    from ``seed`` (by default a fresh secret one). Raises ScenarioError for impossible
    settings (fewer than two factions); ``rules`` by default the advanced game's."""
    playing = [f for f in seats if f is not None]
    if len(playing) < MIN_FACTIONS:
        named = ", ".join(f.label for f in playing) or "none"
        raise ScenarioError(
            f"a game of Dune needs at least {MIN_FACTIONS} factions; the seats give {named}"
        )
    chosen = secrets.randbits(SEED_BITS) if seed is None else seed
    try:
        return GameState.new_game(seats, seed=chosen, rules=rules or RuleSet(), last_turn=last_turn)
    except RulesError as error:
        raise ScenarioError(str(error)) from error


FREMEN_START = (("Sietch Tabr", None, 4), ("False Wall South", 4, 3), ("False Wall West", 16, 3))
"""The Fremen's 10 starting forces when the players do not choose (a documented default)."""
SEAT_ORDER = tuple(Faction)
MIN_FACTIONS = 2


def standard_start(
    seats: tuple[Faction | None, ...] = SEAT_ORDER,
    *,
    storm_sector: int = 1,
    rules: RuleSet | None = None,
    alliances: tuple[tuple[Faction, Faction], ...] = (),
) -> GameState:
    """The game's starting position (rules/data/factions.json) at the start of the phase.

    Every faction's starting spice, reserves and board; the Fremen as
    :data:`FREMEN_START`, the Bene Gesserit's one force in the Polar Sink. Raises
    ScenarioError for an impossible setting (fewer than two factions, a storm off the
    board); ``rules`` by default the advanced game's.
    """
    playing = [f for f in seats if f is not None]
    if len(playing) < MIN_FACTIONS:
        named = ", ".join(f.label for f in playing) or "none"
        raise ScenarioError(
            f"a game of Dune needs at least {MIN_FACTIONS} factions; the seats give {named}"
        )
    board: list[dict[str, Any]] = []
    factions: dict[str, dict[str, Any]] = {}
    for faction in (f for f in seats if f is not None):
        factions[faction.value] = _starting_faction(faction)
        board += _starting_board(faction)
    data = {
        "format": FORMAT,
        **(rules or RuleSet()).to_dict(),
        "storm_sector": storm_sector,
        "seats": [f.value if f else None for f in seats],
        "alliances": [[a.value, b.value] for a, b in alliances],
        "factions": factions,
        "board": board,
    }
    return load_scenario(data).initial_state()


def _starting_faction(faction: Faction) -> dict[str, Any]:
    facts = _faction_facts()[faction.value]
    special = int(facts.get("special_forces", 0))
    reserves = int(facts["starting_reserves"])
    return {
        "spice": facts["starting_spice"],
        "reserves": reserves - special,
        "special_reserves": special,
    }


def _starting_board(faction: Faction) -> list[dict[str, Any]]:
    if faction is Faction.FREMEN:
        return [
            {"faction": faction.value, "territory": t, "sector": s, "forces": n}
            for t, s, n in FREMEN_START
        ]
    facts = _faction_facts()[faction.value]
    return [
        {"faction": faction.value, "territory": b["territory"], "forces": b["forces"]}
        for b in facts["starting_board"]
    ]


def _faction_facts() -> dict[str, dict[str, Any]]:
    text = resources.files("rules").joinpath("data/factions.json").read_text(encoding="utf-8")
    facts: dict[str, dict[str, Any]] = json.loads(text)["factions"]
    return facts
