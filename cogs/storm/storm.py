"""The Storm phase's commands (1.01): ``/dial``, ``/weather-control`` and
``/family-atomics``, and the subcommands this cog adds to other cogs' groups
(:mod:`cogs.groups`): ``/fremen storm-losses`` (the advanced Fremen's choice of their storm
losses, 2.04.16) and ``/orders storm`` (the standing order: never play a storm card). A
pass (no storm card) is ``/pass``.

Thin glue, as :mod:`cogs.turn.turn`: each command finds the channel's game and the faction
the caller acts for (its seated player, or a current moderator naming it with
``faction:``), builds the engine's action and submits it through the game's session; the
engine's refusal (citing its rule) or the session's comes back as an ephemeral answer
through :mod:`cogs.errors`. Every answer is ephemeral: a dial is told only to the one who
dialed, until the dials are revealed together.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from cogs.common import FactionName, act_for
from cogs.errors import reply
from cogs.groups import Guests, Subcommand, join, leave
from cogs.orders.orders import GROUP, give_order
from cogs.storm import autocomplete as ac
from cogs.turn.turn import territory_named
from rules.storm.actions import Dial, FamilyAtomics, FremenStormLosses, WeatherControl

STORM_ORDERS = [
    Choice(name="Never play a storm card: pass at once when asked", value="pass"),
    Choice(name="Ask me each time (withdraws the order)", value="ask"),
]
FREMEN = ("fremen",)
"""The group ``/fremen storm-losses`` sits in (the turn cog's)."""


# -- guests of other cogs' groups ---------------------------------------------------------


@app_commands.autocomplete(
    territory=ac.loss_territory, sector=ac.loss_sector, special=ac.loss_special
)
async def fremen_storm_losses(
    interaction: discord.Interaction,
    territory: str,
    sector: app_commands.Range[int, 1, 18],
    special: app_commands.Range[int, 0, 20],
    faction: FactionName | None = None,
) -> None:
    _, result = await act_for(interaction, faction, FremenStormLosses, territory, sector, special)
    where = territory_named(result.state, territory)
    await reply(interaction, f"Done: {special} Fedaykin among your losses in {where}.")


@app_commands.describe(order="Never play Weather Control or Family Atomics, or be asked.")
@app_commands.choices(order=STORM_ORDERS)
async def orders_storm(
    interaction: discord.Interaction, order: str, faction: FactionName | None = None
) -> None:
    await give_order(interaction, "storm", order, faction)


GUESTS: Guests = (
    (
        FREMEN,
        Subcommand(
            "storm-losses", "Say how many of your storm losses are Fedaykin.", fremen_storm_losses
        ),
    ),
    (GROUP, Subcommand("storm", "Storm cards in advance (only you see it).", orders_storm)),
)
"""The Storm cog's subcommands of other cogs' groups, each with its group."""


class Storm(commands.Cog):
    """The Storm phase (1.01), as the engine runs it."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        join(self.bot.tree, GUESTS)

    async def cog_unload(self) -> None:
        leave(self.bot.tree, GUESTS)

    @app_commands.command(
        name="dial", description="Dial the storm: secret until the dials are revealed together."
    )
    @app_commands.autocomplete(value=ac.dial)
    async def dial(
        self,
        interaction: discord.Interaction,
        value: app_commands.Range[int, 0, 20],
        faction: FactionName | None = None,
    ) -> None:
        await act_for(interaction, faction, Dial, value)
        await reply(
            interaction,
            f"Done: you dialed {value}. It stays secret until the dials are revealed together.",
        )

    @app_commands.command(
        name="weather-control", description="Play Weather Control: move the storm 0 to 10."
    )
    @app_commands.autocomplete(sectors=ac.weather_control)
    async def weather_control(
        self,
        interaction: discord.Interaction,
        sectors: app_commands.Range[int, 0, 10],
        faction: FactionName | None = None,
    ) -> None:
        await act_for(interaction, faction, WeatherControl, sectors)
        moves = "stays where it is" if sectors == 0 else f"moves {sectors} sectors"
        await reply(interaction, f"Done: Weather Control played; the storm {moves}.")

    @app_commands.command(
        name="family-atomics", description="Play Family Atomics: destroy the Shield Wall."
    )
    async def family_atomics(
        self, interaction: discord.Interaction, faction: FactionName | None = None
    ) -> None:
        await act_for(interaction, faction, FamilyAtomics)
        await reply(interaction, "Done: Family Atomics played.")
