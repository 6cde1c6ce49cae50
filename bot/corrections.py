"""Moderators' corrections to a position: plain edits of ``GameState.to_dict()``.

Each function changes the position dict in place and returns the public line
that announces it (no spice amounts or card names: those are private). They
raise :class:`CorrectionError`, naming the input, for a correction that cannot be made;
:meth:`bot.app.Mentat.correct` then rebuilds the position and restarts the
phase there.
"""

from __future__ import annotations

import difflib
from typing import Any

from bot.narrate import count, where
from rules.board import SECTOR_COUNT, standard_board
from rules.components import treachery_card, treachery_cards
from rules.errors import MentatError, quote
from rules.factions import Faction, same_card

JSON = dict[str, Any]


class CorrectionError(MentatError, ValueError):
    """A correction that cannot be made; the message names the input."""


def set_storm(data: JSON, sector: int) -> str:
    if not 1 <= sector <= SECTOR_COUNT:
        raise CorrectionError(f"the storm sector must be 1..{SECTOR_COUNT}, not {sector}")
    data["storm_sector"] = sector
    return f"the storm is in sector {sector}."


def place(
    data: JSON, faction: Faction, territory: str, sector: int | None, forces: int, special: int = 0
) -> str:
    """Put forces from ``faction``'s reserves on the board."""
    _some(forces, special)
    name, sector = _piece(territory, sector)
    own = _faction(data, faction)
    _take(own, "reserves", forces)
    _take(own, "special_reserves", special)
    _stack(data, faction, name, sector)["forces"] += forces
    _stack(data, faction, name, sector)["special"] += special
    return f"{faction.label} place {count(forces, special)} from reserves in {where(name, sector)}."


def remove(
    data: JSON,
    faction: Faction,
    territory: str,
    sector: int | None,
    forces: int,
    special: int = 0,
    *,
    to_tanks: bool = False,
) -> str:
    """Take forces off the board, back to reserves or to the Tleilaxu Tanks."""
    _some(forces, special)
    name, sector = _piece(territory, sector)
    stack = _stack(data, faction, name, sector)
    _take(stack, "forces", forces)
    _take(stack, "special", special)
    own = _faction(data, faction)
    own["tanks" if to_tanks else "reserves"] += forces
    own["special_tanks" if to_tanks else "special_reserves"] += special
    data["stacks"] = [s for s in data["stacks"] if s["forces"] + s["special"] + s["advisors"]]
    to = "the Tleilaxu Tanks" if to_tanks else "reserves"
    return f"{faction.label} lose {count(forces, special)} in {where(name, sector)} to {to}."


def set_spice(data: JSON, faction: Faction, amount: int) -> str:
    if amount < 0:
        raise CorrectionError(f"spice cannot be negative ({amount})")
    _faction(data, faction)["spice"] = amount
    return f"{faction.label}'s spice is corrected (the amount stays behind their shield)."


def give_card(data: JSON, faction: Faction, card: str) -> str:
    own = _faction(data, faction)
    own["cards"] = [*own["cards"], _card(card)]
    return f"{faction.label} receive a treachery card."


def take_card(data: JSON, faction: Faction, card: str) -> str:
    own = _faction(data, faction)
    match = next((c for c in own["cards"] if same_card(c, card)), None)
    if match is None:
        raise CorrectionError(f"{faction.label} hold no {_card(card)}")
    cards = list(own["cards"])
    cards.remove(match)
    own["cards"] = cards
    return f"{faction.label} lose a treachery card."


def _card(text: str) -> str:
    """The treachery card ``text`` names, as printed; CorrectionError for any other text."""
    card = treachery_card(text)
    if card is None:
        close = difflib.get_close_matches(text.strip()[:40].title(), treachery_cards(), n=1)
        hint = f"did you mean {close[0]}?" if close else "the card option lists every card"
        raise CorrectionError(f"there is no treachery card {quote(text)} ({hint})")
    return card


def _some(forces: int, special: int) -> None:
    if forces == 0 and special == 0:
        raise CorrectionError("that moves no forces (forces and special are both 0)")


def _piece(territory: str, sector: int | None) -> tuple[str, int | None]:
    found = standard_board().resolve(territory)
    if found is None:
        raise CorrectionError(f"unknown territory {quote(territory)}")
    if not found.sectors:
        return found.name, None
    if sector is None and len(found.sectors) == 1:
        return found.name, found.sectors[0]
    if sector not in found.sectors:
        sectors = ", ".join(str(s) for s in found.sectors)
        raise CorrectionError(f"{found.name} has sectors {sectors}, not {sector}")
    return found.name, sector


def _faction(data: JSON, faction: Faction) -> JSON:
    try:
        own: JSON = data["factions"][faction.value]
    except KeyError:
        raise CorrectionError(f"{faction.label} is not in this game") from None
    return own


def _take(holder: JSON, key: str, amount: int) -> None:
    if amount < 0:
        raise CorrectionError(f"a count cannot be negative ({amount})")
    if holder[key] < amount:
        raise CorrectionError(f"only {holder[key]} {key.replace('_', ' ')} there, not {amount}")
    holder[key] -= amount


def _stack(data: JSON, faction: Faction, territory: str, sector: int | None) -> JSON:
    for stack in data["stacks"]:
        if (stack["faction"], stack["territory"], stack["sector"]) == (
            faction.value,
            territory,
            sector,
        ):
            found: JSON = stack
            return found
    stack = {
        "faction": faction.value,
        "territory": territory,
        "sector": sector,
        "forces": 0,
        "special": 0,
        "advisors": 0,
    }
    data["stacks"].append(stack)
    return stack
