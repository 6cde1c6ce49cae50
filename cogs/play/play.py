"""Player commands: each turns its options into an engine action for the session."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any, Literal

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.orders import OrderError, saved
from bot.render import render_map
from bot.seats.briefing import seat_line
from bot.session.passes import pass_words
from bot.session.session import SessionError
from bot.words.common import possessive, split_place
from bot.words.preview import preview
from bot.words.status import status_text
from cogs.common import (
    FactionName,
    acting_faction,
    app_of,
    game_of,
    key_of,
    public_answer,
    roles_of,
    session_of,
    state_of,
)
from cogs.errors import clip, reply
from cogs.play import autocomplete as ac
from cogs.play.views import KEPT, ConfirmActionView
from cogs.turn.choices import stray_step
from rules.actions import (
    Advise,
    CrossShip,
    FactionAction,
    Flip,
    GuildDelay,
    GuildNow,
    Move,
    PlayHajr,
    Send,
    Ship,
    ShipToReserves,
)
from rules.errors import MentatError
from rules.factions import Faction
from rules.model import Side

log = logging.getLogger(__name__)

GUILD_ORDERS = [
    Choice(name="Act right before the faction named in before:", value="before"),
    Choice(name="Keep my place in storm order", value="in_order"),
    Choice(name="Delay to act last", value="last"),
    Choice(name="Ask me each time (withdraws the order)", value="ask"),
]
ADVISE_ORDERS = [
    Choice(name="Always to the Polar Sink", value="polar_sink"),
    Choice(name="To the shipment's territory when allowed, else the Polar Sink", value="territory"),
    Choice(name="Never send an advisor", value="never"),
    Choice(name="Ask me each time (withdraws the order)", value="ask"),
]
INTRUSION_ORDERS = [
    Choice(name="Never flip to advisors", value="never"),
    Choice(name="Ask me each time (withdraws the order)", value="ask"),
]


class Play(commands.Cog):
    """What players touch: shipments, moves, prompts' answers, their private view and the map."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    # -- shared -------------------------------------------------------------------

    async def _preview(
        self,
        interaction: discord.Interaction,
        game_id: int,
        action: FactionAction,
        note: str = "",
        ally_pays_given: int | None = None,
    ) -> None:
        text = preview(state_of(interaction, game_id), action, note)
        view = ConfirmActionView(
            game_id,
            action,
            interaction.user.id,
            ally_pays_given=ally_pays_given,
            live=getattr(interaction.client, "live_previews", set()),
        )
        await reply(interaction, text, view=view)

    async def _submit(
        self, interaction: discord.Interaction, game_id: int, action: FactionAction, done: str
    ) -> None:
        result = await app_of(interaction).submit(
            game_id, action, actor=interaction.user.id, key=key_of(interaction)
        )
        if result.kept:  # an answer to a later stage: applied when it opens
            await reply(interaction, f"Noted: {done}. {KEPT}")
            return
        await reply(interaction, f"Done: {done}.")

    # -- shipments and moves (previewed) ---------------------------------------------

    @app_commands.command(name="ship", description="Ship forces from your reserves to Arrakis.")
    @app_commands.autocomplete(to=ac.ship_to)
    @app_commands.autocomplete(sector=ac.ship_sector)
    async def ship(
        self,
        interaction: discord.Interaction,
        to: str,
        forces: app_commands.Range[int, 0, 20],
        sector: int | None = None,
        special: app_commands.Range[int, 0, 20] = 0,
        karama: bool = False,
        ally_pays: app_commands.Range[int, 0, 100] | None = None,
        faction: FactionName | None = None,
    ) -> None:
        game_id = game_of(interaction)
        who = await acting_faction(interaction, game_id, faction)
        app = app_of(interaction)
        moderator = await app.is_moderator(game_id, interaction.user.id, roles_of(interaction))
        action = app.with_ally_payment(
            game_id,
            Ship(who, *place(to, sector), forces, special, karama=karama),
            ally_pays,
            moderator=moderator,
        )
        offer = app.ally_offer(game_id, who)
        note = ""
        if ally_pays is None and offer is not None and action.ally_pays:
            note = (
                f"Ally payment: {offer.ally.label} pays {action.ally_pays} of it "
                f"(offered up to {offer.amount} with /ally-pay)."
            )
        await self._preview(interaction, game_id, action, note, ally_pays)

    @app_commands.command(
        name="ally-pay",
        description="Pay toward your ally's next shipment this turn (only you and it see this).",
    )
    async def ally_pay(
        self,
        interaction: discord.Interaction,
        amount: app_commands.Range[int, 0, 100],
        faction: FactionName | None = None,
    ) -> None:
        game_id = game_of(interaction)
        who = await acting_faction(interaction, game_id, faction)
        offer = await app_of(interaction).offer_ally_payment(game_id, who, amount)
        if amount:
            text = (
                f"Recorded: you pay up to {amount} spice of {possessive(offer.shipper)} next "
                f"shipment this turn. Only you and {offer.shipper.label} are told."
            )
        else:
            text = f"Recorded: you no longer pay toward {possessive(offer.shipper)} shipment."
        await reply(interaction, text)

    @app_commands.command(name="send", description="Fremen: send reserves near The Great Flat.")
    @app_commands.autocomplete(to=ac.send_to)
    @app_commands.autocomplete(sector=ac.send_sector)
    async def send(
        self,
        interaction: discord.Interaction,
        to: str,
        forces: app_commands.Range[int, 0, 20],
        sector: int | None = None,
        special: app_commands.Range[int, 0, 20] = 0,
        faction: FactionName | None = None,
    ) -> None:
        game_id = game_of(interaction)
        who = await acting_faction(interaction, game_id, faction)
        action = Send(who, *place(to, sector), forces, special)
        await self._preview(interaction, game_id, action)

    @app_commands.command(name="cross-ship", description="Guild: ship between two territories.")
    @app_commands.rename(origin="from")
    @app_commands.autocomplete(origin=ac.own_territory, to=ac.ship_to)
    @app_commands.autocomplete(from_sector=ac.own_sector, sector=ac.ship_sector)
    async def cross_ship(
        self,
        interaction: discord.Interaction,
        origin: str,
        to: str,
        forces: app_commands.Range[int, 0, 20],
        from_sector: int | None = None,
        sector: int | None = None,
        special: app_commands.Range[int, 0, 20] = 0,
        faction: FactionName | None = None,
    ) -> None:
        game_id = game_of(interaction)
        who = await acting_faction(interaction, game_id, faction)
        action = CrossShip(who, *place(origin, from_sector), *place(to, sector), forces, special)
        await self._preview(interaction, game_id, action)

    @app_commands.command(
        name="ship-to-reserves", description="Guild: ship forces back to reserves."
    )
    @app_commands.rename(origin="from")
    @app_commands.autocomplete(origin=ac.own_territory)
    @app_commands.autocomplete(from_sector=ac.own_sector)
    async def ship_to_reserves(
        self,
        interaction: discord.Interaction,
        origin: str,
        forces: app_commands.Range[int, 0, 20],
        from_sector: int | None = None,
        special: app_commands.Range[int, 0, 20] = 0,
        faction: FactionName | None = None,
    ) -> None:
        game_id = game_of(interaction)
        who = await acting_faction(interaction, game_id, faction)
        action = ShipToReserves(who, *place(origin, from_sector), forces, special)
        await self._preview(interaction, game_id, action)

    @app_commands.command(name="move", description="Move one group to another territory.")
    @app_commands.rename(origin="from")
    @app_commands.autocomplete(origin=ac.own_territory, to=ac.move_to)
    @app_commands.autocomplete(from_sector=ac.own_sector, sector=ac.move_sector)
    async def move(
        self,
        interaction: discord.Interaction,
        origin: str,
        to: str,
        forces: app_commands.Range[int, 0, 20],
        from_sector: int | None = None,
        sector: int | None = None,
        special: app_commands.Range[int, 0, 20] = 0,
        advisors: bool = False,
        take_up_arms: bool = False,
        faction: FactionName | None = None,
    ) -> None:
        game_id = game_of(interaction)
        who = await acting_faction(interaction, game_id, faction)
        there = place(to, sector)
        action = Move(
            who, *place(origin, from_sector), *there, forces, special, advisors, take_up_arms
        )
        await self._preview(interaction, game_id, action)

    # -- direct actions -----------------------------------------------------------

    @app_commands.command(
        name="pass",
        description="End your step (no shipment, no more moves), or decline your choice now.",
    )
    @app_commands.describe(step="The step you pass (default: the one you are in now).")
    async def pass_(
        self,
        interaction: discord.Interaction,
        step: Literal["shipment", "movement"] | None = None,
        faction: FactionName | None = None,
    ) -> None:
        game_id = game_of(interaction)
        who = await acting_faction(interaction, game_id, faction)
        state = state_of(interaction, game_id)
        if (stray := stray_step(state, step)) is not None:
            raise SessionError(stray)
        meaning = pass_words(state, who)  # outside 1.06, in words
        passed = await session_of(interaction, game_id).pass_step(
            who, step, actor=interaction.user.id, key=key_of(interaction)
        )
        if passed:
            await reply(interaction, f"Done: you passed your {passed}.")
        else:
            await reply(interaction, f"Done: {meaning}." if meaning else "Done.")

    @app_commands.command(name="hajr", description="Play Hajr for an extra move this turn.")
    async def hajr(
        self, interaction: discord.Interaction, faction: FactionName | None = None
    ) -> None:
        game_id = game_of(interaction)
        who = await acting_faction(interaction, game_id, faction)
        await self._submit(interaction, game_id, PlayHajr(who), "Hajr played")

    guild = app_commands.Group(name="guild", description="Spacing Guild: Ship As It Pleases You.")

    @guild.command(name="now", description="Take your whole turn now.")
    async def guild_now(
        self, interaction: discord.Interaction, faction: FactionName | None = None
    ) -> None:
        game_id = game_of(interaction)
        who = await acting_faction(interaction, game_id, faction)
        await self._submit(interaction, game_id, GuildNow(who), "the Guild acts now")

    @guild.command(name="delay", description="Delay your turn.")
    async def guild_delay(
        self, interaction: discord.Interaction, faction: FactionName | None = None
    ) -> None:
        game_id = game_of(interaction)
        who = await acting_faction(interaction, game_id, faction)
        await self._submit(interaction, game_id, GuildDelay(who), "the Guild delays")

    @guild.command(
        name="standing-order",
        description="Answer Guild timing in advance (only you see it; /status shows it).",
    )
    @app_commands.choices(order=GUILD_ORDERS)
    async def guild_standing_order(
        self,
        interaction: discord.Interaction,
        order: str,
        before: FactionName | None = None,
        faction: FactionName | None = None,
    ) -> None:
        game_id = game_of(interaction)
        who = await acting_faction(interaction, game_id, faction)
        value = guild_order(order, before)
        await app_of(interaction).set_standing_order(game_id, who, "guild_timing", value)
        await reply(interaction, saved("guild_timing", value))

    bg = app_commands.Group(name="bg", description="Bene Gesserit: advisors and flips.")

    @bg.command(name="advise", description="Send a spiritual advisor.")
    @app_commands.autocomplete(to=ac.advise_to)
    async def bg_advise(
        self, interaction: discord.Interaction, to: str, faction: FactionName | None = None
    ) -> None:
        game_id = game_of(interaction)
        who = await acting_faction(interaction, game_id, faction)
        await self._submit(interaction, game_id, Advise(who, to), f"advisor to {clip(to)}")

    @bg.command(
        name="standing-order",
        description="Answer advisor and Intrusion prompts in advance (only you see it).",
    )
    @app_commands.choices(advise=ADVISE_ORDERS, intrusion=INTRUSION_ORDERS)
    async def bg_standing_order(
        self,
        interaction: discord.Interaction,
        advise: str | None = None,
        intrusion: str | None = None,
        faction: FactionName | None = None,
    ) -> None:
        game_id = game_of(interaction)
        who = await acting_faction(interaction, game_id, faction)
        given = {k: v for k, v in (("advise", advise), ("intrusion", intrusion)) if v is not None}
        if not given:
            raise OrderError("name an order: advise:, intrusion: or both")
        for name, value in given.items():
            await app_of(interaction).set_standing_order(game_id, who, name, value)
        await reply(interaction, "\n".join(saved(k, v) for k, v in given.items()))

    @bg.command(name="flip", description="Flip your forces in a territory.")
    @app_commands.autocomplete(territory=ac.own_territory)
    async def bg_flip(
        self,
        interaction: discord.Interaction,
        territory: str,
        to: Literal["fighters", "advisors"],
        faction: FactionName | None = None,
    ) -> None:
        game_id = game_of(interaction)
        who = await acting_faction(interaction, game_id, faction)
        await self._submit(interaction, game_id, Flip(who, territory, Side(to)), f"flip to {to}")

    # -- looking ------------------------------------------------------------------

    @app_commands.command(
        name="status", description="Your private view: spice, cards, what you may do."
    )
    async def status(
        self, interaction: discord.Interaction, faction: FactionName | None = None
    ) -> None:
        game_id = game_of(interaction)
        who = await acting_faction(interaction, game_id, faction)
        view = state_of(interaction, game_id).view_for(who)
        orders = session_of(interaction, game_id).orders.get(who)  # its own, never another's
        held = await seat_line(app_of(interaction), game_id, who)  # the seat's tenures
        await reply(interaction, "\n".join(filter(None, [status_text(view, orders), held])))

    @public_answer(lambda options: not options.get("highlight"))  # the board, for everyone
    @app_commands.command(
        name="map", description="The board; with highlight, your legal destinations."
    )
    @app_commands.autocomplete(highlight=ac.highlight)
    async def map_(
        self,
        interaction: discord.Interaction,
        highlight: str | None = None,
        faction: FactionName | None = None,
    ) -> None:
        game_id = game_of(interaction)
        state = state_of(interaction, game_id)
        pieces: list[tuple[str, int | None]] = []
        if highlight:
            who = await acting_faction(interaction, game_id, faction)
            pieces = destinations(state, who, highlight)
        png = await asyncio.to_thread(render_map, state.public_view(), highlight=pieces)
        file = discord.File(io.BytesIO(png), filename="map.png")
        text = f"Legal destinations from {clip(highlight)}." if highlight else "The board now."
        await interaction.followup.send(text, file=file, ephemeral=bool(highlight))


def place(typed: str, sector: int | None) -> tuple[str, int | None]:
    """A territory option (which may name its sector, as autocomplete offers it: "Hagga
    Basin, sector 12") and the sector option, as one territory and sector."""
    territory, named = split_place(typed)
    if named is not None and sector is not None and named != sector:
        raise MentatError(
            f"{clip(typed)} names sector {named} but the sector option says {sector}; "
            "give the sector once"
        )
    return territory, sector if sector is not None else named


def guild_order(order: str, before: str | None) -> str:
    """The Guild timing order from ``order`` and ``before`` (which only goes with "before":
    "ask" withdraws the order)."""
    if before is None:
        if order == "before":
            raise OrderError("acting right before a faction needs that faction in before:")
        return order
    if order != "before":
        named = Faction.parse(before)
        raise OrderError(
            f"order: and before: {named.label if named else 'that faction'} say different "
            "things; give before: only with “act right before”, or the order alone"
        )
    return f"before:{before}"


def destinations(state: Any, faction: Faction, highlight: str) -> list[tuple[str, int | None]]:
    if highlight == "shipment":
        found = state.legal_ship_destinations(faction)
    else:
        found = state.legal_move_destinations(faction, highlight)
    return [(d.territory, s) for d in found for s in d.sectors]
