"""The whole turn's player choices: set-up, spice blow and Nexus, and those of any phase (a
bribe, the Fremen's Karama worm and their ally's worm). The traitors kept at set-up are the
battle's: ``/traitor`` is in :mod:`cogs.battle.battle`; the Storm phase's ``/dial``,
``/weather-control``, ``/family-atomics`` and ``/fremen storm-losses`` are in
:mod:`cogs.storm`; CHOAM Charity's ``/charity`` is in :mod:`cogs.choam_charity`.

Thin glue: each command finds the channel's game and the faction the caller acts for
(its seated player, or a moderator naming it with ``faction:``), builds the engine's
action and submits it through the game's session; the engine's refusal (citing its
rule) or the session's comes back as an ephemeral answer through ``cogs.errors``.
Every answer is ephemeral and in words; secrets (the prediction, the Karama worm's
territory, the ally's worm) are told only to the one who chose them.
A pass (done with the Nexus, no worm ride) is ``/pass``.
"""

from __future__ import annotations

from collections.abc import Callable

import discord
from discord import app_commands
from discord.ext import commands

from bot.ledger import SubmitResult
from cogs.common import FactionName, act_for
from cogs.errors import clip, reply
from cogs.turn import autocomplete as ac
from cogs.turn.choices import forces_words
from rules.actions import (
    Ally,
    BreakAlliance,
    Bribe,
    FactionAction,
    FremenAllyWorm,
    KaramaWorm,
    PlaceAdvisor,
    PlaceFremen,
    PlaceWorm,
    Predict,
    RideWorm,
)
from rules.events import AllianceFormed
from rules.factions import Faction
from rules.game import GameState

Count = app_commands.Range[int, 0, 20]
Sector = app_commands.Range[int, 1, 18]


class Turn(commands.Cog):
    """The choices of the phases the engine runs around Shipment & Movement."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def _act(
        self,
        interaction: discord.Interaction,
        faction: str | None,
        build: Callable[..., FactionAction],
        *fields: object,
    ) -> SubmitResult:
        """Submit ``build(who, *fields)`` for the faction the caller acts for."""
        return (await act_for(interaction, faction, build, *fields))[1]

    # -- set-up ---------------------------------------------------------------------

    @app_commands.command(
        name="predict",
        description="Bene Gesserit, set-up: secretly predict the winner and the turn.",
    )
    @app_commands.describe(winner="The faction you predict will win.", turn="The turn it wins.")
    @app_commands.autocomplete(winner=ac.predicted_faction, turn=ac.predicted_turn)
    async def predict(
        self,
        interaction: discord.Interaction,
        winner: str,
        turn: app_commands.Range[int, 1, 20],
        faction: FactionName | None = None,
    ) -> None:
        await self._act(interaction, faction, Predict, winner, turn)
        named = Faction.parse(winner)
        label = named.label if named else clip(winner)
        await reply(
            interaction,
            f"Done: you predict that {label} will win on turn {turn}. "
            "Nobody else is told until it comes true.",
        )

    @app_commands.command(
        name="place-advisor",
        description="Advanced Bene Gesserit, set-up: place your one advisor on the board.",
    )
    @app_commands.autocomplete(to=ac.advisor_to, sector=ac.advisor_sector)
    async def place_advisor(
        self,
        interaction: discord.Interaction,
        to: str,
        sector: Sector | None = None,
        faction: FactionName | None = None,
    ) -> None:
        result = await self._act(interaction, faction, PlaceAdvisor, to, sector)
        where = territory_named(result.state, to)
        await reply(interaction, f"Done: your force is placed in {where}.")

    fremen = app_commands.Group(
        name="fremen", description="Fremen: placement, storm losses, the worm."
    )

    @fremen.command(name="place", description="Set-up: place your 10 forces.")
    @app_commands.autocomplete(
        sietch_tabr=ac.sietch_tabr,
        false_wall_south=ac.false_wall_south,
        false_wall_west=ac.false_wall_west,
    )
    async def fremen_place(
        self,
        interaction: discord.Interaction,
        sietch_tabr: Count,
        false_wall_south: Count,
        false_wall_west: Count,
        faction: FactionName | None = None,
    ) -> None:
        counts = (sietch_tabr, false_wall_south, false_wall_west)
        await self._act(interaction, faction, PlaceFremen, *counts)
        await reply(
            interaction,
            f"Done: {forces_words(sietch_tabr)} in Sietch Tabr, {forces_words(false_wall_south)} "
            f"in False Wall South and {forces_words(false_wall_west)} in False Wall West.",
        )

    @fremen.command(name="worm", description="Place the Shai-Hulud in a sand territory.")
    @app_commands.autocomplete(territory=ac.worm)
    async def fremen_worm(
        self, interaction: discord.Interaction, territory: str, faction: FactionName | None = None
    ) -> None:
        result = await self._act(interaction, faction, PlaceWorm, territory)
        where = territory_named(result.state, territory)
        await reply(interaction, f"Done: the worm comes up in {where}.")

    @fremen.command(name="ride", description="After the Nexus: ride the worm to a territory.")
    @app_commands.autocomplete(to=ac.ride_to, sector=ac.ride_sector)
    async def fremen_ride(
        self,
        interaction: discord.Interaction,
        to: str,
        sector: Sector | None = None,
        faction: FactionName | None = None,
    ) -> None:
        result = await self._act(interaction, faction, RideWorm, to, sector)
        where = territory_named(result.state, to)
        await reply(interaction, f"Done: your forces ride the worm to {where}.")

    @fremen.command(
        name="karama-worm",
        description="Advanced, once a game: a Karama for a worm at the next spice blow.",
    )
    @app_commands.describe(territory="The sand territory (kept secret until the worm comes up).")
    @app_commands.autocomplete(territory=ac.karama_worm)
    async def fremen_karama_worm(
        self, interaction: discord.Interaction, territory: str, faction: FactionName | None = None
    ) -> None:
        result = await self._act(interaction, faction, KaramaWorm, territory)
        where = territory_named(result.state, territory)
        await reply(
            interaction,
            f"Done: Karama played for a worm. Only you know it comes up in {where} "
            "at the next spice blow.",
        )

    @fremen.command(
        name="ally-worm", description="Whether the worm spares your ally (secret until it comes)."
    )
    async def fremen_ally_worm(
        self, interaction: discord.Interaction, protect: bool, faction: FactionName | None = None
    ) -> None:
        await self._act(interaction, faction, FremenAllyWorm, protect)
        what = "spares" if protect else "does not spare"
        await reply(interaction, f"Done: from now on the worm {what} your ally. Only you know.")

    # -- Nexus and any time --------------------------------------------------------

    @app_commands.command(name="ally", description="In a Nexus: ask a faction to ally with you.")
    @app_commands.rename(with_="with")
    @app_commands.describe(with_="The faction you ask (you are allied once it asks you too).")
    @app_commands.autocomplete(with_=ac.ally)
    async def ally(
        self, interaction: discord.Interaction, with_: str, faction: FactionName | None = None
    ) -> None:
        result = await self._act(interaction, faction, Ally, with_)
        other = Faction.parse(with_)
        label = other.label if other else clip(with_)
        if any(isinstance(e, AllianceFormed) for e in result.events):
            await reply(interaction, f"Done: you are now allied with {label}.")
        else:
            await reply(interaction, f"Done: you ask {label} to ally; it must ask you too.")

    @app_commands.command(name="ally-break", description="In a Nexus: leave your alliance.")
    async def ally_break(
        self, interaction: discord.Interaction, faction: FactionName | None = None
    ) -> None:
        await self._act(interaction, faction, BreakAlliance)
        await reply(interaction, "Done: you have left your alliance.")

    @app_commands.command(
        name="bribe", description="Give spice to another faction, in the open (1.12)."
    )
    @app_commands.describe(
        to="The faction you give it to.",
        amount="It lies in front of their shield, for everyone to see, until the Mentat Pause.",
    )
    @app_commands.autocomplete(to=ac.bribe_to)
    async def bribe(
        self,
        interaction: discord.Interaction,
        to: str,
        amount: app_commands.Range[int, 1, 200],
        faction: FactionName | None = None,
    ) -> None:
        await self._act(interaction, faction, Bribe, to, amount)
        other = Faction.parse(to)
        label = other.label if other else clip(to)
        await reply(
            interaction,
            f"Done: you give {amount} spice to {label}; it lies in front of their shield, "
            "for everyone to see, until the Mentat Pause.",
        )


def territory_named(state: GameState, typed: str) -> str:
    """The board's name for what the player typed (accepted, so the board knows it)."""
    found = state.board.resolve(typed)
    return found.name if found is not None else clip(typed)
