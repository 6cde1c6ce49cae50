"""``/karama buy`` and ``/karama take-hand``: the Karama card's uses in the Bidding phase,
subcommands the auction cog adds to the ``/karama`` group of :mod:`cogs.play.karama`
(:mod:`cogs.groups`)."""

from __future__ import annotations

from discord import Interaction, app_commands

from cogs.auction import autocomplete as ac
from cogs.common import FactionName
from cogs.groups import Subcommand
from cogs.play.karama import play

KARAMA = ("karama",)
"""The group these are subcommands of."""


async def buy(interaction: Interaction, faction: FactionName | None = None) -> None:
    data: dict[str, object] = {"action": "karama_buy"}
    await play(interaction, data, "you take the card on offer with a Karama card", faction)


@app_commands.describe(target="Whose hand (you then give back as many cards).")
@app_commands.autocomplete(target=ac.take_hand)
async def take_hand(
    interaction: Interaction,
    target: app_commands.Range[str, 1, 40],
    faction: FactionName | None = None,
) -> None:
    data: dict[str, object] = {"action": "karama_take_hand", "target": target}
    done = "you take the hand; give back as many cards with /give-back"
    await play(interaction, data, done, faction)


SUBCOMMANDS = (
    Subcommand("buy", "Bidding: take the card on offer with Karama, free.", buy),
    Subcommand(
        "take-hand",
        "Harkonnen, once a game, in the Bidding phase: take a whole hand (1.14.04).",
        take_hand,
    ),
)
"""The auction cog's subcommands of ``/karama``."""
