"""/karama: cancel, prevent or stop with a Karama card, and its standing order."""

from __future__ import annotations

from collections.abc import Mapping

from discord import Interaction, app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.orders import saved
from bot.words.common import ability_word
from cogs.auction import autocomplete as auction_ac
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


class Karama(commands.Cog):
    """The Karama card's uses in the Shipment & Movement phase."""

    karama = app_commands.Group(name="karama", description="Play a Karama card.")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def _play(
        self, interaction: Interaction, data: Mapping[str, object], done: str, faction: str | None
    ) -> None:
        game_id = game_of(interaction)
        who = await acting_faction(interaction, game_id, faction)
        action = action_from_dict({**data, "faction": who.value})  # the engine reads the names
        assert isinstance(action, FactionAction)
        await app_of(interaction).submit(
            game_id, action, actor=interaction.user.id, key=key_of(interaction)
        )
        await reply(interaction, f"Done: {done}.")

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
        await self._play(interaction, data, f"Karama played to cancel {what}", faction)

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
        await self._play(interaction, data, f"Karama played to prevent {what}", faction)

    @karama.command(name="stop-shipment", description="Guild: stop an off-planet shipment.")
    async def stop_shipment(
        self, interaction: Interaction, faction: FactionName | None = None
    ) -> None:
        data: dict[str, object] = {"action": "karama_stop_shipment"}
        await self._play(interaction, data, "Karama played to stop the shipment", faction)

    @karama.command(name="buy", description="Bidding: take the card on offer with Karama, free.")
    async def buy(self, interaction: Interaction, faction: FactionName | None = None) -> None:
        data: dict[str, object] = {"action": "karama_buy"}
        await self._play(
            interaction, data, "you take the card on offer with a Karama card", faction
        )

    @karama.command(
        name="take-hand",
        description="Harkonnen, once a game, in the Bidding phase: take a whole hand (1.14.04).",
    )
    @app_commands.describe(target="Whose hand (you then give back as many cards).")
    @app_commands.autocomplete(target=auction_ac.take_hand)
    async def take_hand(
        self,
        interaction: Interaction,
        target: app_commands.Range[str, 1, 40],
        faction: FactionName | None = None,
    ) -> None:
        data: dict[str, object] = {"action": "karama_take_hand", "target": target}
        done = "you take the hand; give back as many cards with /give-back"
        await self._play(interaction, data, done, faction)

    @karama.command(
        name="revive",
        description="Emperor, once a game, in the Revival phase: 3 forces or a leader, free.",
    )
    @app_commands.autocomplete(
        forces=auction_ac.karama_forces,
        special=auction_ac.karama_special,
        leader=auction_ac.karama_leader,
    )
    async def revive(
        self,
        interaction: Interaction,
        forces: app_commands.Range[int, 0, 3] = 0,
        special: app_commands.Range[int, 0, 3] = 0,
        leader: app_commands.Range[str, 1, 100] | None = None,
        faction: FactionName | None = None,
    ) -> None:
        data = {
            "action": "karama_revive",
            "forces": forces,
            "special": special,
            "leader": leader,
        }
        await self._play(interaction, data, "Karama played: you revive for free", faction)

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
