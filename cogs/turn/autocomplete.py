"""Autocomplete of the whole turn's choices: the caller's own legal choices, in words.

Each answer is read from memory (the session's live position, the cached seats), so
it comes well within Discord's 3 seconds. The faction is the caller's own (a current
moderator may name one with ``faction:``, as in the commands): nobody is offered
another faction's secrets or the Bene Gesserit's prediction, and a choice that is
not the caller's to make now offers nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

import discord
from discord import app_commands

from cogs.common import caller_position
from cogs.turn import choices as ch
from rules.errors import MentatError
from rules.factions import Faction
from rules.game import GameState

Namespace = app_commands.Namespace
Complete = Callable[[discord.Interaction, str], Coroutine[Any, Any, list[app_commands.Choice[Any]]]]


def offer(build: Callable[[GameState, Faction, Namespace], list[ch.Choice[Any]]]) -> Complete:
    """An autocomplete callback offering ``build(state, faction, namespace)``, filtered by
    what was typed, at most 25; nothing when the caller has nothing to choose here."""

    async def complete(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[Any]]:
        found = await caller_position(interaction)
        if found is None:
            return []
        state, faction = found
        try:
            pairs = ch.matching(str(current or ""), build(state, faction, interaction.namespace))
        except MentatError:  # an option the engine does not know: nothing to offer
            return []
        return [app_commands.Choice(name=label, value=value) for label, value in pairs]

    return complete


def _text(namespace: Namespace, name: str) -> str | None:
    value = getattr(namespace, name, None)
    return str(value) if value not in (None, "") else None


def _number(namespace: Namespace, name: str) -> int | None:
    value = getattr(namespace, name, None)
    return value if isinstance(value, int) else None


def _fremen(field: str) -> Complete:
    def build(state: GameState, faction: Faction, ns: Namespace) -> list[ch.Choice[int]]:
        given = {name: _number(ns, name) for name in ch.FREMEN_FIELDS}
        return ch.fremen_counts(state, faction, field, given)

    return offer(build)


predicted_faction = offer(lambda state, faction, _: ch.predicted_factions(state, faction))
predicted_turn = offer(lambda state, faction, _: ch.predicted_turns(state, faction))
sietch_tabr = _fremen("sietch_tabr")
false_wall_south = _fremen("false_wall_south")
false_wall_west = _fremen("false_wall_west")
advisor_to = offer(lambda state, faction, _: ch.advisor_territories(state, faction))
advisor_sector = offer(
    lambda state, faction, ns: ch.advisor_sectors(state, faction, _text(ns, "to"))
)
worm = offer(lambda state, faction, _: ch.worm_territories(state, faction))
ride_to = offer(lambda state, faction, _: ch.ride_territories(state, faction))
ride_sector = offer(lambda state, faction, ns: ch.ride_sectors(state, faction, _text(ns, "to")))
ally = offer(lambda state, faction, _: ch.allies(state, faction))
bribe_to = offer(lambda state, faction, _: ch.bribe_targets(state, faction))
karama_worm = offer(lambda state, faction, _: ch.karama_worm_territories(state, faction))
