"""The Storm phase's choices in words: what one faction may choose now, by ``/dial``,
``/weather-control`` and ``/fremen storm-losses``.

Every list is the engine's ``state.legal_actions(faction)``, so a faction is offered only
its own legal choices, and nothing when the choice is not its to make now. Each entry is a
``(label, value)`` pair, as :mod:`cogs.turn.choices` gives them.
"""

from __future__ import annotations

from cogs.turn.choices import Choice, legal, same, sector_choices, territory_choices
from rules.factions import Faction
from rules.game import GameState
from rules.storm.actions import Dial, FremenStormLosses, WeatherControl


def dials(state: GameState, faction: Faction) -> list[Choice[int]]:
    """The numbers ``faction`` may dial now (nothing once it has dialed, or if it does not)."""
    return [(f"dial {a.value}", a.value) for a in legal(state, faction, Dial)]


def weather_control(state: GameState, faction: Faction) -> list[Choice[int]]:
    found = [a.sectors for a in legal(state, faction, WeatherControl)]
    return [
        ("the storm stays where it is" if n == 0 else f"move the storm {n} sectors", n)
        for n in found
    ]


def loss_territories(state: GameState, faction: Faction) -> list[Choice[str]]:
    return territory_choices(a.territory for a in legal(state, faction, FremenStormLosses))


def loss_sectors(state: GameState, faction: Faction, territory: str | None) -> list[Choice[int]]:
    found = legal(state, faction, FremenStormLosses)
    return sector_choices(a.sector for a in found if same(a.territory, territory))


def loss_specials(
    state: GameState, faction: Faction, territory: str | None, sector: int | None
) -> list[Choice[int]]:
    """How many of the Fremen's lost forces may be Fedaykin, in the named territory."""
    found = {
        a.special: None
        for a in legal(state, faction, FremenStormLosses)
        if same(a.territory, territory) and sector in (None, a.sector)
    }
    return [(f"{n} Fedaykin", n) for n in sorted(found)]
