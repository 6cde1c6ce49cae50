"""/karama: cancel, prevent or stop with a Karama card, and its standing order (the
auction's and the revival's uses of the card are added by their cogs: :mod:`cogs.auction.karama`,
:mod:`cogs.revival.revival`)."""

from __future__ import annotations

from collections.abc import Mapping

from discord import Interaction, app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.orders import saved
from bot.words.common import ability_word
from cogs.common import FactionName, acting_faction, app_of, game_of, key_of
from cogs.errors import reply
from rules.actions import FactionAction, action_from_dict
from rules.karama import PREVENTABLE
from rules.karama_turn import TURN_ABILITIES
from rules.model import Ability


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _choices(abilities: list[Ability]) -> list[Choice[str]]:
    return [Choice(name=_capital(ability_word(a)), value=a.value) for a in abilities]


CANCELLED = _choices([a for a in Ability if a not in TURN_ABILITIES])
"""The ✷ abilities a Karama card cancels in a window, named as the rules print them."""
PREVENTED = _choices([a for a in Ability if a in PREVENTABLE or a in TURN_ABILITIES])
"""The ✷ abilities a Karama card prevents ahead (each list within Discord's 25 choices)."""

KARAMA_ORDERS = [
    Choice(name="Never: decline every Karama window at once", value="never"),
    Choice(name="Ask me each time (withdraws the order)", value="ask"),
]


async def play(
    interaction: Interaction, data: Mapping[str, object], done: str, faction: str | None
) -> None:
    """Play a Karama card as ``data`` says ("action" and its fields), for the faction the
    caller acts for, and say it is done."""
    game_id = game_of(interaction)
    who = await acting_faction(interaction, game_id, faction)
    action = action_from_dict({**data, "faction": who.value})  # the engine reads the names
    assert isinstance(action, FactionAction)
    await app_of(interaction).submit(
        game_id, action, actor=interaction.user.id, key=key_of(interaction)
    )
    await reply(interaction, f"Done: {done}.")


class Karama(commands.Cog):
    """The Karama card's uses in the Shipment & Movement phase and any time; its uses in a
    phase of its own are that phase's cog's subcommands of ``/karama`` (:mod:`cogs.groups`):
    the Bidding phase's in :mod:`cogs.auction.karama`, the Revival phase's in
    :mod:`cogs.revival.revival`."""

    karama = app_commands.Group(name="karama", description="Play a Karama card.")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @karama.command(name="cancel", description="Cancel the ✷ ability another faction just used.")
    @app_commands.describe(ability="The ability to cancel (default: the one just used).")
    @app_commands.choices(ability=CANCELLED)
    async def cancel(
        self,
        interaction: Interaction,
        ability: str | None = None,
        card: str | None = None,
        faction: FactionName | None = None,
    ) -> None:
        what = ability_word(ability) if ability else "the ability just used"
        data = {"action": "karama_cancel", "ability": ability, "card": card}
        await play(interaction, data, f"Karama played to cancel {what}", faction)

    @karama.command(name="prevent", description="Prevent a ✷ ability before it is used.")
    @app_commands.choices(ability=PREVENTED)
    async def prevent(
        self,
        interaction: Interaction,
        ability: str,
        card: str | None = None,
        faction: FactionName | None = None,
    ) -> None:
        data = {"action": "karama_prevent", "ability": ability, "card": card}
        what = ability_word(ability)
        await play(interaction, data, f"Karama played to prevent {what}", faction)

    @karama.command(name="stop-shipment", description="Guild: stop an off-planet shipment.")
    async def stop_shipment(
        self, interaction: Interaction, faction: FactionName | None = None
    ) -> None:
        data: dict[str, object] = {"action": "karama_stop_shipment"}
        await play(interaction, data, "Karama played to stop the shipment", faction)

    @karama.command(
        name="standing-order",
        description="Answer Karama windows in advance (only you see it; /status shows it).",
    )
    @app_commands.choices(order=KARAMA_ORDERS)
    async def standing_order(
        self, interaction: Interaction, order: str, faction: FactionName | None = None
    ) -> None:
        game_id = game_of(interaction)
        who = await acting_faction(interaction, game_id, faction)
        await app_of(interaction).set_standing_order(game_id, who, "karama", order)
        await reply(interaction, saved("karama", order))
