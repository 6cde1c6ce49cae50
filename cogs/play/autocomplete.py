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

from bot.words.common import join_place, split_place
from cogs.common import MAX_CHOICES, app_of, seated_faction
from rules.actions import Advise
from rules.errors import MentatError
from rules.factions import Faction
from rules.game import GameState
from rules.model import Step
from rules.shipment import ShipDestination

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


def _count(interaction: discord.Interaction, option: str, default: int) -> int:
    value = getattr(interaction.namespace, option, None)
    return value if isinstance(value, int) and value >= 0 else default


def _on_step(state: GameState, faction: Faction, step: Step) -> bool:
    """Whether it is ``faction``'s ``step`` now (else its places are not offered)."""
    turn = state.phase.turn
    return turn is not None and turn.faction is faction and turn.step is step


def _typed_to(interaction: discord.Interaction) -> tuple[str, int | None]:
    return split_place(str(getattr(interaction.namespace, "to", "") or ""))


def _pairs(
    state: GameState, destinations: Iterable[ShipDestination], priced: bool
) -> list[tuple[str, str]]:
    """(label, value) for each territory and sector: "Hagga Basin, sector 12: 4 spice",
    cheapest first and, at one price, strongholds first."""
    rows = []
    for d in destinations:
        found = state.board.resolve(d.territory)
        stronghold = found is not None and found.kind == "stronghold"
        several = found is not None and len(found.sectors) > 1
        for sector in d.sectors:
            place = join_place(d.territory, sector if several else None)
            label = f"{place}: {d.cost} spice" if priced else place
            rows.append(((d.cost, not stronghold, d.territory, sector or 0), label, place))
    return [(label, value) for _, label, value in sorted(rows)]


async def ship_to(interaction: discord.Interaction, current: str) -> Choices:
    """Each territory and sector the caller may ship to now, with the cost of the
    forces and starred forces typed so far; nothing when it is not its shipment."""
    found = await _position(interaction)
    if found is None or not _on_step(found[0], found[1], Step.SHIP):
        return []
    state, faction = found
    karama = bool(getattr(interaction.namespace, "karama", False))
    forces, special = _count(interaction, "forces", 1), _count(interaction, "special", 0)
    forces = forces if forces + special > 0 else 1
    shown = state.legal_ship_destinations(faction, forces, special, karama=karama)
    return _matching(current, _pairs(state, (d for d in shown if d.affordable), priced=True))


async def ship_sector(interaction: discord.Interaction, current: str) -> SectorChoices:
    found = await _position(interaction)
    if found is None or not _on_step(found[0], found[1], Step.SHIP):
        return []
    state, faction = found
    to, _ = _typed_to(interaction)
    for d in state.legal_ship_destinations(faction, max(1, _count(interaction, "forces", 1))):
        if d.territory.lower() == to.strip().lower():
            return _sectors(d.sectors)
    return []


async def send_to(interaction: discord.Interaction, current: str) -> Choices:
    found = await _position(interaction)
    if found is None or not _on_step(found[0], found[1], Step.SHIP):
        return []
    state, faction = found
    return _matching(current, _pairs(state, state.legal_send_destinations(faction), priced=False))


async def send_sector(interaction: discord.Interaction, current: str) -> SectorChoices:
    found = await _position(interaction)
    if found is None or not _on_step(found[0], found[1], Step.SHIP):
        return []
    state, faction = found
    to = _typed_to(interaction)[0].strip().lower()
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
    """Each territory and sector the group may reach, nearest first, with its path;
    nothing when it is not the caller's movement."""
    found = await _position(interaction)
    if found is None or not _on_step(found[0], found[1], Step.MOVE):
        return []
    state, faction = found
    rows = []
    for d in _move_destinations(state, faction, interaction):
        territory = state.board.resolve(d.territory)
        several = territory is not None and len(territory.sectors) > 1
        path = " → ".join(d.path)
        for sector in d.sectors:
            place = join_place(d.territory, sector if several else None)
            rows.append(((d.distance, d.territory, sector or 0), f"{place} ({path})", place))
    return _matching(current, [(label, value) for _, label, value in sorted(rows)])


async def move_sector(interaction: discord.Interaction, current: str) -> SectorChoices:
    found = await _position(interaction)
    if found is None or not _on_step(found[0], found[1], Step.MOVE):
        return []
    state, faction = found
    to = _typed_to(interaction)[0].strip().lower()
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
