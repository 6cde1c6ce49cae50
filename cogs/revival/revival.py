"""The Revival phase's commands (1.05): ``/revive``, ``/revive-ally``, ``/ghola``, and the
subcommands this cog adds to other cogs' groups (:mod:`cogs.groups`): ``/karama revive``
(the Emperor's once-a-game power), ``/mod record revival`` (the moderators' record) and
``/orders revival`` (the standing order).

Thin glue, as :mod:`cogs.turn.turn`: each command finds the channel's game and the faction
the caller acts for (its seated player, or a current moderator naming it with
``faction:``), builds the engine's action and submits it through the game's session; the
engine's refusal (citing its rule) or the session's comes back as an ephemeral answer
through :mod:`cogs.errors`. Every answer is ephemeral (the command tree deferred it): a
revival and a faction's spice are told only to the one who acted; the table hears the
revival itself from the session.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.ledger import SubmitResult
from bot.words.revival import ally_forces, revive_words
from cogs.common import FactionName, act_for
from cogs.errors import reply
from cogs.groups import Guests, Subcommand, join, leave
from cogs.moderation.records import preview_record
from cogs.orders.orders import GROUP, give_order
from cogs.play.karama import play
from cogs.revival import autocomplete as ac
from rules.actions import PlayGhola
from rules.events import SpicePaid
from rules.factions import Faction
from rules.revival.actions import PayAllyRevival, RecordRevival, Revive
from rules.revival.events import Revived

Forces = app_commands.Range[int, 0, 20]
Leader = app_commands.Range[str, 1, 100]
REVIVAL_ORDERS = [
    Choice(name="Free revival only: never ask me", value="free"),
    Choice(name="Ask me each time (withdraws the order)", value="ask"),
]

KARAMA = ("karama",)
RECORD = ("mod", "record")
"""The groups this cog's guest subcommands sit in."""


def paid(result: SubmitResult) -> int:
    """What the accepted revival cost, in spice."""
    return sum(e.cost for e in result.events if isinstance(e, Revived))


# -- guests of other cogs' groups ---------------------------------------------------------


@app_commands.autocomplete(
    forces=ac.karama_forces, special=ac.karama_special, leader=ac.karama_leader
)
async def karama_revive(
    interaction: discord.Interaction,
    forces: app_commands.Range[int, 0, 3] = 0,
    special: app_commands.Range[int, 0, 3] = 0,
    leader: app_commands.Range[str, 1, 100] | None = None,
    faction: FactionName | None = None,
) -> None:
    data = {"action": "karama_revive", "forces": forces, "special": special, "leader": leader}
    await play(interaction, data, "Karama played: you revive for free", faction)


async def record_revival(
    interaction: discord.Interaction,
    faction: FactionName,
    forces: app_commands.Range[int, 0, 20] = 0,
    special: app_commands.Range[int, 0, 20] = 0,
    leader: str | None = None,
    emperor_pays: app_commands.Range[int, 0, 20] = 0,
) -> None:
    action = RecordRevival(Faction(faction), forces, special, leader, emperor_pays)
    await preview_record(interaction, action)


@app_commands.describe(order="Take only your free revival each turn, or be asked.")
@app_commands.choices(order=REVIVAL_ORDERS)
async def orders_revival(
    interaction: discord.Interaction,
    order: str,
    faction: FactionName | None = None,
) -> None:
    await give_order(interaction, "revival", order, faction)


GUESTS: Guests = (
    (
        KARAMA,
        Subcommand(
            "revive",
            "Emperor, once a game, in the Revival phase: 3 forces or a leader, free.",
            karama_revive,
        ),
    ),
    (
        RECORD,
        Subcommand("revival", "Revival correction: forces or a leader.", record_revival),
    ),
    (
        GROUP,
        Subcommand("revival", "Revival in advance (only you see it).", orders_revival),
    ),
)
"""The Revival cog's subcommands of other cogs' groups, each with its group."""


class Revivals(commands.Cog):
    """Revival (1.05), as the engine runs it; the Tleilaxu Ghola, at any time."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        join(self.bot.tree, GUESTS)

    async def cog_unload(self) -> None:
        leave(self.bot.tree, GUESTS)

    _act = staticmethod(act_for)

    @app_commands.command(
        name="revive", description="Revival: your whole revival this turn, free ones included."
    )
    @app_commands.describe(
        forces="Forces revived in all, your free revival included (the list gives the price).",
        special="Sardaukar or Fedaykin among them (at most 1 a turn).",
        leader="One leader from the tanks (the list gives the price).",
    )
    @app_commands.autocomplete(
        forces=ac.revive_forces, special=ac.revive_special, leader=ac.revive_leader
    )
    async def revive(
        self,
        interaction: discord.Interaction,
        forces: Forces,
        special: Forces = 0,
        leader: Leader | None = None,
        faction: FactionName | None = None,
    ) -> None:
        action, result = await self._act(interaction, faction, Revive, forces, special, leader)
        assert isinstance(action, Revive)
        await reply(interaction, f"Done: you revive {revive_words(action, paid(result))}.")

    @app_commands.command(
        name="revive-ally",
        description="Emperor: pay for up to 3 of your ally's forces beyond its limit (2.03.07).",
    )
    @app_commands.describe(
        forces="Your ally's forces you pay for, 2 spice each (the list gives the price).",
        special="Sardaukar or Fedaykin among them (at most 1 a turn).",
    )
    @app_commands.autocomplete(forces=ac.ally_forces, special=ac.ally_special)
    async def revive_ally(
        self,
        interaction: discord.Interaction,
        forces: Forces,
        special: Forces = 0,
        faction: FactionName | None = None,
    ) -> None:
        action, result = await self._act(interaction, faction, PayAllyRevival, forces, special)
        assert isinstance(action, PayAllyRevival)
        what = ally_forces(action.forces, action.special)
        cost = sum(e.amount for e in result.events if isinstance(e, SpicePaid))
        await reply(
            interaction, f"Done: you pay {cost} spice for {what} of your ally beyond its limit."
        )

    @app_commands.command(
        name="ghola", description="Tleilaxu Ghola, at any time: one leader or up to 5 forces, free."
    )
    @app_commands.autocomplete(
        forces=ac.ghola_forces, special=ac.ghola_special, leader=ac.ghola_leader
    )
    async def ghola(
        self,
        interaction: discord.Interaction,
        forces: Forces = 0,
        special: Forces = 0,
        leader: Leader | None = None,
        faction: FactionName | None = None,
    ) -> None:
        action, _ = await self._act(
            interaction, faction, PlayGhola, forces=forces, special=special, leader=leader
        )
        assert isinstance(action, PlayGhola)
        what = revive_words(action)
        await reply(interaction, f"Done: Tleilaxu Ghola played: you revive {what}, free.")
