"""A whole turn played by the engine, for the map's tests, benchmark and documentation.

Turn 3 of an advanced six-faction game with a busy board: the storm card moves the
storm 4 sectors (2 to 6), the spice blow turns up Shai-Hulud, who devours Funeral Plain
(forces of three factions and its spice), every faction passes the Nexus and CHOAM
Charity, the moderator closes bidding and revival, and the first faction ships in the
Shipment & Movement phase. Each step is the events of one action and the public view
after it, as a session would hand them to :class:`bot.render.maps.MapMaker`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from rules import scenario2
from rules.actions import Action, Pass, Ship
from rules.events import Event
from rules.game import GameState
from rules.game_model import GamePhase
from rules.view import PublicView


@dataclass(frozen=True, slots=True)
class Step:
    events: tuple[Event, ...]
    view: PublicView


def _stack(faction: str, territory: str, sector: int | None, forces: int, **more: Any) -> Any:
    entry: dict[str, Any] = {"faction": faction, "territory": territory, "forces": forces}
    if sector is not None:
        entry["sector"] = sector
    return entry | more


BOARD = [
    _stack("atreides", "Arrakeen", 9, 6),
    _stack("atreides", "Funeral Plain", 14, 4),
    _stack("atreides", "Imperial Basin", 8, 2),
    _stack("atreides", "Cielago North", 1, 3),
    _stack("bene_gesserit", "Polar Sink", None, 3),
    _stack("bene_gesserit", "Funeral Plain", 14, 2, advisors=True),
    _stack("bene_gesserit", "Hagga Basin", 12, 2),
    _stack("emperor", "Habbanya Erg", 15, 3, special=1),
    _stack("emperor", "Rock Outcroppings", 13, 4),
    _stack("emperor", "Old Gap", 9, 2),
    _stack("fremen", "Sietch Tabr", 13, 6, special=2),
    _stack("fremen", "False Wall West", 16, 3),
    _stack("fremen", "The Great Flat", 14, 2, special=1),
    _stack("fremen", "Red Chasm", 6, 2),
    _stack("harkonnen", "Carthag", 10, 8),
    _stack("harkonnen", "Funeral Plain", 14, 2),
    _stack("harkonnen", "Broken Land", 11, 3),
    _stack("harkonnen", "Tsimpo", 11, 2),
    _stack("spacing_guild", "Tuek's Sietch", 4, 5),
    _stack("spacing_guild", "South Mesa", 4, 2),
    _stack("spacing_guild", "Cielago South", 2, 3),
    _stack("spacing_guild", "Pasty Mesa", 5, 2),
]

SCENARIO: dict[str, Any] = {
    "format": "dune-scenario/2",
    "advanced": True,
    "turn": 3,
    "phase": "storm",
    "storm_sector": 2,
    "storm_next": 4,
    "seats": ["atreides", "emperor", "spacing_guild", "harkonnen", "bene_gesserit", "fremen"],
    "alliances": [["atreides", "bene_gesserit"]],
    "factions": {
        "atreides": {"spice": 9, "reserves": 5, "cards": ["Shield", "Lasgun"]},
        "bene_gesserit": {"spice": 7, "reserves": 8, "cards": ["Snooper"]},
        "emperor": {"spice": 14, "reserves": 7, "special_reserves": 3, "cards": ["Karama"]},
        "fremen": {"spice": 5, "reserves": 4, "cards": ["Chaumurky", "Crysknife"]},
        "harkonnen": {"spice": 6, "reserves": 5, "cards": ["Slip Tip", "Baliset", "Stunner"]},
        "spacing_guild": {"spice": 12, "reserves": 8, "cards": ["Gom Jabbar"]},
    },
    "board": BOARD,
    "spice_on_board": [
        {"territory": "Funeral Plain", "sector": 14, "amount": 6},
        {"territory": "Broken Land", "sector": 11, "amount": 8},
        {"territory": "Hagga Basin", "sector": 12, "amount": 4},
        {"territory": "Cielago North", "sector": 1, "amount": 5},
        {"territory": "The Minor Erg", "sector": 7, "amount": 8},
        {"territory": "Habbanya Ridge Flat", "sector": 17, "amount": 10},
        {"territory": "Old Gap", "sector": 9, "amount": 6},
    ],
    "decks": {
        "spice": ["Shai-Hulud", "Red Chasm", "Sihaya Ridge", "South Mesa", "Wind Pass North"],
        "spice_discard": ["Funeral Plain", "Habbanya Erg"],
        "spice_discard_b": ["The Great Flat"],
    },
}


@cache
def whole_turn_steps() -> tuple[Step, ...]:
    """Storm, spice blow and worm, Nexus, charity, bidding and revival closed, a shipment."""
    state = scenario2.load(SCENARIO)
    state.close_all_prompts()
    steps = [Step(tuple(state.start_events), state.public_view())]
    for _ in range(60):
        action = _next(state)
        if action is None:
            break
        steps.append(Step(tuple(state.apply(action)), state.public_view()))
    return tuple(steps)


def _next(state: GameState) -> Action | None:
    """Everyone passes until the Shipment & Movement phase; there the first faction ships."""
    if state.game_phase is GamePhase.SHIPMENT_MOVEMENT:
        faction = state.to_act()
        if faction is None or state.factions[faction].reserves < 3:
            return None
        dest = next(d for d in state.legal_ship_destinations(faction, 3) if d.affordable)
        shipped = Ship(faction, dest.territory, dest.sectors[0], 3)
        return shipped if state.is_legal(shipped) else None
    for faction in state.waiting_on():
        passes = [a for a in state.legal_actions(faction) if isinstance(a, Pass)]
        if passes:
            return passes[0]
    return None


def mid_turn() -> Step:
    """The last step: a shipment in the Shipment & Movement phase of turn 3."""
    return whole_turn_steps()[-1]


def turn_events() -> tuple[Event, ...]:
    """Every event of the turn so far, in order."""
    return tuple(e for step in whole_turn_steps() for e in step.events)
