"""Autocomplete: only what the caller's faction may choose right now, from memory.

Every function reads the session's in-memory position and the cached seats, so
it answers well within Discord's 3 seconds; anything it cannot work out (no game
here, no seat) offers nothing rather than failing.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

import discord
from discord import app_commands

from cogs.common import MAX_CHOICES, app_of, seated_faction
from rules.actions import Advise
from rules.errors import MentatError
from rules.factions import Faction
from rules.game import GameState

log = logging.getLogger(__name__)

Choices = list[app_commands.Choice[str]]
SectorChoices = list[app_commands.Choice[int]]


async def _position(interaction: discord.Interaction) -> tuple[GameState, Faction] | None:
    try:
        app = app_of(interaction)
        game_id = app.game_in(interaction.channel_id or 0)
        state = app.session(game_id).state
        faction = await seated_faction(interaction, game_id)
    except MentatError:  # no game here, not running: nothing to offer
        return None
    if state is None or faction is None or not state.in_game(faction):
        return None
    return state, faction


def _matching(typed: str, names: Iterable[tuple[str, str]]) -> Choices:
    typed = typed.strip().lower()
    found = [(label, value) for label, value in names if typed in label.lower()]
    return [app_commands.Choice(name=label[:100], value=value) for label, value in found][
        :MAX_CHOICES
    ]


def _sectors(sectors: Iterable[int | None]) -> SectorChoices:
    return [app_commands.Choice(name=f"sector {s}", value=s) for s in sectors if s is not None][
        :MAX_CHOICES
    ]


def _origin(interaction: discord.Interaction) -> str:
    """The ``from`` option (renamed from the parameter ``origin``)."""
    namespace = interaction.namespace
    return str(getattr(namespace, "from", None) or getattr(namespace, "origin", None) or "")


def _forces(interaction: discord.Interaction) -> int:
    value = getattr(interaction.namespace, "forces", None)
    return value if isinstance(value, int) and value > 0 else 1


async def ship_to(interaction: discord.Interaction, current: str) -> Choices:
    found = await _position(interaction)
    if found is None:
        return []
    state, faction = found
    karama = bool(getattr(interaction.namespace, "karama", False))
    destinations = state.legal_ship_destinations(faction, _forces(interaction), karama=karama)
    return _matching(
        current,
        ((f"{d.territory} ({d.cost} spice)", d.territory) for d in destinations if d.affordable),
    )


async def ship_sector(interaction: discord.Interaction, current: str) -> SectorChoices:
    found = await _position(interaction)
    if found is None:
        return []
    state, faction = found
    to = str(getattr(interaction.namespace, "to", "") or "")
    for d in state.legal_ship_destinations(faction, _forces(interaction)):
        if d.territory.lower() == to.strip().lower():
            return _sectors(d.sectors)
    return []


async def send_to(interaction: discord.Interaction, current: str) -> Choices:
    found = await _position(interaction)
    if found is None:
        return []
    state, faction = found
    return _matching(
        current, ((d.territory, d.territory) for d in state.legal_send_destinations(faction))
    )


async def send_sector(interaction: discord.Interaction, current: str) -> SectorChoices:
    found = await _position(interaction)
    if found is None:
        return []
    state, faction = found
    to = str(getattr(interaction.namespace, "to", "") or "").strip().lower()
    for d in state.legal_send_destinations(faction):
        if d.territory.lower() == to:
            return _sectors(d.sectors)
    return []


def _own_stacks(state: GameState, faction: Faction) -> list[tuple[str, int | None]]:
    return [(s.territory, s.sector) for s in state.public_view().stacks if s.faction is faction]


async def own_territory(interaction: discord.Interaction, current: str) -> Choices:
    """Territories where the caller has forces (to move, cross-ship or flip from)."""
    found = await _position(interaction)
    if found is None:
        return []
    state, faction = found
    names = dict.fromkeys(t for t, _ in _own_stacks(state, faction))
    return _matching(current, ((t, t) for t in names))


async def own_sector(interaction: discord.Interaction, current: str) -> SectorChoices:
    found = await _position(interaction)
    if found is None:
        return []
    state, faction = found
    origin = _origin(interaction).strip().lower()
    return _sectors(s for t, s in _own_stacks(state, faction) if t.lower() == origin)


def _move_destinations(state: GameState, faction: Faction, interaction: discord.Interaction):  # type: ignore[no-untyped-def]
    origin = _origin(interaction)
    from_sector = getattr(interaction.namespace, "from_sector", None)
    advisors = bool(getattr(interaction.namespace, "advisors", False))
    if not origin:
        return []
    try:
        return state.legal_move_destinations(faction, origin, from_sector, advisors=advisors)
    except MentatError:  # an origin the engine does not know: nothing to offer
        return []


async def move_to(interaction: discord.Interaction, current: str) -> Choices:
    found = await _position(interaction)
    if found is None:
        return []
    state, faction = found
    destinations = _move_destinations(state, faction, interaction)
    return _matching(
        current,
        ((f"{d.territory} ({' → '.join(d.path)})", d.territory) for d in destinations),
    )


async def move_sector(interaction: discord.Interaction, current: str) -> SectorChoices:
    found = await _position(interaction)
    if found is None:
        return []
    state, faction = found
    to = str(getattr(interaction.namespace, "to", "") or "").strip().lower()
    for d in _move_destinations(state, faction, interaction):
        if d.territory.lower() == to:
            return _sectors(d.sectors)
    return []


async def advise_to(interaction: discord.Interaction, current: str) -> Choices:
    found = await _position(interaction)
    if found is None:
        return []
    state, faction = found
    places = [
        a.to
        for p in state.open_prompts()
        for a in state.answers(p, faction)
        if isinstance(a, Advise)
    ]
    return _matching(current, ((t, t) for t in dict.fromkeys(places)))


async def highlight(interaction: discord.Interaction, current: str) -> Choices:
    """For /map: "shipment" or a territory of the caller's forces."""
    found = await _position(interaction)
    if found is None:
        return []
    state, faction = found
    names = dict.fromkeys(t for t, _ in _own_stacks(state, faction))
    return _matching(current, [("shipment", "shipment"), *((t, t) for t in names)])
