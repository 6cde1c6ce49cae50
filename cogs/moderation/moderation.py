"""/mod: the moderators' controls and corrections, each announced publicly."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.session.session import SessionError
from cogs.common import (
    MAX_CHOICES,
    FactionName,
    app_of,
    game_of,
    key_of,
    require_moderator,
    roles_of,
    session_of,
)
from cogs.errors import reply
from cogs.game.repair import repair_channels
from cogs.moderation.records import preview_record
from rules.actions import (
    Correction,
    GiveCard,
    PhaseDone,
    PlaceForces,
    RecordCardWon,
    RecordDiscard,
    RecordGhola,
    RecordIncome,
    RecordLeaderKilled,
    RecordLosses,
    RecordPayment,
    RemoveForces,
    SetSpice,
    SetStorm,
    TakeCard,
)
from rules.components import treachery_cards
from rules.factions import Faction

log = logging.getLogger(__name__)


async def card_choices(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The treachery cards whose name contains what was typed (at most Discord's 25)."""
    typed = current.strip().lower()
    cards = [c for c in treachery_cards() if typed in c.lower()]
    return [app_commands.Choice(name=c, value=c) for c in cards[:MAX_CHOICES]]


class Moderation(commands.Cog):
    """Undo, pause, deadlines, skipping, and corrections of the position."""

    mod = app_commands.Group(
        name="mod", description="Moderators of this game only.", guild_only=True
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def _game(self, interaction: discord.Interaction) -> int:
        game_id = game_of(interaction)
        await require_moderator(interaction, game_id)
        return game_id

    @mod.command(name="undo", description="Undo the last action.")
    async def mod_undo(self, interaction: discord.Interaction) -> None:
        game_id = await self._game(interaction)
        await session_of(interaction, game_id).undo(
            interaction.user.id, key_of(interaction), authorised=True
        )
        await reply(interaction, "Done: undone.")

    @mod.command(name="redo", description="Redo the last undone action.")
    async def mod_redo(self, interaction: discord.Interaction) -> None:
        game_id = await self._game(interaction)
        await session_of(interaction, game_id).redo(
            interaction.user.id, key_of(interaction), authorised=True
        )
        await reply(interaction, "Done: redone.")

    @mod.command(
        name="channels",
        description="Create again or give back the bot's access to this game's channels.",
    )
    async def mod_channels(self, interaction: discord.Interaction) -> None:
        game_id = await self._game(interaction)
        if interaction.guild is None:
            raise SessionError("this command works in the game's server only")
        app = app_of(interaction)
        repair = await repair_channels(interaction.guild, app, game_id)
        kept, prompts = await app.rebind_channels(game_id, repair.channels, repair.private)
        await reply(interaction, repair.describe(kept, prompts))

    @mod.command(name="pause", description="Freeze the deadlines.")
    async def mod_pause(self, interaction: discord.Interaction) -> None:
        game_id = await self._game(interaction)
        await session_of(interaction, game_id).pause(interaction.user.id)
        await reply(interaction, "Done: paused.")

    @mod.command(name="resume", description="Let the deadlines run again.")
    async def mod_resume(self, interaction: discord.Interaction) -> None:
        game_id = await self._game(interaction)
        await session_of(interaction, game_id).resume(interaction.user.id)
        await reply(interaction, "Done: resumed.")

    @mod.command(name="extend", description="Extend the current deadline (or one faction's).")
    @app_commands.describe(faction="Only this awaited faction gets more time (default: all).")
    async def mod_extend(
        self,
        interaction: discord.Interaction,
        minutes: app_commands.Range[int, 1, 10080],
        faction: FactionName | None = None,
    ) -> None:
        game_id = await self._game(interaction)
        whom = None if faction is None else Faction(faction)
        await session_of(interaction, game_id).extend(
            interaction.user.id, timedelta(minutes=minutes), whom
        )
        for_whom = "" if whom is None else f" for {whom.label}"
        await reply(interaction, f"Done: extended by {minutes} minutes{for_whom}.")

    @mod.command(name="skip", description="Apply the default to what is awaited now.")
    async def mod_skip(self, interaction: discord.Interaction) -> None:
        game_id = await self._game(interaction)
        await session_of(interaction, game_id).skip(interaction.user.id, key_of(interaction))
        await reply(interaction, "Done: skipped.")

    @mod.command(name="end-phase", description="Decline every prompt and pass every step left.")
    async def mod_end_phase(self, interaction: discord.Interaction) -> None:
        game_id = await self._game(interaction)
        await session_of(interaction, game_id).end_phase(interaction.user.id, key_of(interaction))
        await reply(interaction, "Done: the phase is over.")

    async def _correct(self, interaction: discord.Interaction, correction: Correction) -> None:
        """A correction is an action in the game's log: ``/mod undo`` takes it back."""
        game_id = await self._game(interaction)
        await app_of(interaction).correct(
            game_id,
            interaction.user.id,
            correction,
            key=key_of(interaction),
            roles=roles_of(interaction),
        )
        await reply(interaction, "Done: corrected and announced.")

    @mod.command(name="set-storm", description="Correct the storm's sector.")
    async def mod_set_storm(
        self, interaction: discord.Interaction, sector: app_commands.Range[int, 1, 18]
    ) -> None:
        await self._correct(interaction, SetStorm(sector))

    @mod.command(name="place", description="Put forces from reserves on the board.")
    async def mod_place(
        self,
        interaction: discord.Interaction,
        faction: FactionName,
        territory: str,
        forces: app_commands.Range[int, 0, 20],
        sector: int | None = None,
        special: app_commands.Range[int, 0, 20] = 0,
    ) -> None:
        placed = PlaceForces(Faction(faction), territory, sector, forces, special)
        await self._correct(interaction, placed)

    @mod.command(name="remove", description="Take forces off the board (to reserves or tanks).")
    async def mod_remove(
        self,
        interaction: discord.Interaction,
        faction: FactionName,
        territory: str,
        forces: app_commands.Range[int, 0, 20],
        sector: int | None = None,
        special: app_commands.Range[int, 0, 20] = 0,
        to: Literal["reserves", "tanks"] = "reserves",
    ) -> None:
        removed = RemoveForces(
            Faction(faction), territory, sector, forces, special, to_tanks=to == "tanks"
        )
        await self._correct(interaction, removed)

    @mod.command(name="spice", description="Set a faction's spice.")
    async def mod_spice(
        self,
        interaction: discord.Interaction,
        faction: FactionName,
        amount: app_commands.Range[int, 0, 200],
    ) -> None:
        await self._correct(interaction, SetSpice(Faction(faction), amount))

    @mod.command(name="card", description="Give or take a treachery card.")
    @app_commands.autocomplete(card=card_choices)
    async def mod_card(
        self,
        interaction: discord.Interaction,
        faction: FactionName,
        card: str,
        give: bool = True,
    ) -> None:
        change = GiveCard if give else TakeCard
        await self._correct(interaction, change(Faction(faction), card))

    # -- what the moderators record (who fought whom: cogs.battle.record); corrections ------

    record = app_commands.Group(
        name="record", description="Record a battle; correct bidding or revival.", parent=mod
    )

    @record.command(name="card", description="Bidding correction: a faction won a card.")
    async def record_card(
        self,
        interaction: discord.Interaction,
        faction: FactionName,
        price: app_commands.Range[int, 0, 200],
        ally_pays: app_commands.Range[int, 0, 200] = 0,
    ) -> None:
        await preview_record(interaction, RecordCardWon(Faction(faction), price, ally_pays))

    @record.command(name="ghola", description="Correction: a Tleilaxu Ghola played.")
    async def record_ghola(
        self,
        interaction: discord.Interaction,
        faction: FactionName,
        forces: app_commands.Range[int, 0, 20] = 0,
        special: app_commands.Range[int, 0, 20] = 0,
        leader: str | None = None,
    ) -> None:
        await preview_record(interaction, RecordGhola(Faction(faction), forces, special, leader))

    @record.command(name="losses", description="Battle: forces lost to the Tleilaxu Tanks.")
    async def record_losses(
        self,
        interaction: discord.Interaction,
        faction: FactionName,
        territory: str,
        forces: app_commands.Range[int, 0, 20],
        sector: app_commands.Range[int, 1, 18] | None = None,
        special: app_commands.Range[int, 0, 20] = 0,
        advisors: app_commands.Range[int, 0, 20] = 0,
    ) -> None:
        action = RecordLosses(Faction(faction), territory, sector, forces, special, advisors)
        await preview_record(interaction, action)

    @record.command(name="leader", description="Battle: a leader killed.")
    async def record_leader(
        self,
        interaction: discord.Interaction,
        faction: FactionName,
        leader: str,
    ) -> None:
        await preview_record(interaction, RecordLeaderKilled(Faction(faction), leader))

    @record.command(name="discard", description="Battle: a treachery card discarded.")
    @app_commands.autocomplete(card=card_choices)
    async def record_discard(
        self,
        interaction: discord.Interaction,
        faction: FactionName,
        card: str,
    ) -> None:
        await preview_record(interaction, RecordDiscard(Faction(faction), card))

    @record.command(name="payment", description="Battle: spice paid (to the bank or a faction).")
    async def record_payment(
        self,
        interaction: discord.Interaction,
        faction: FactionName,
        amount: app_commands.Range[int, 0, 200],
        to: FactionName | None = None,
    ) -> None:
        await preview_record(interaction, RecordPayment(Faction(faction), amount, to))

    @record.command(name="income", description="Battle: spice a faction receives from the bank.")
    async def record_income(
        self,
        interaction: discord.Interaction,
        faction: FactionName,
        amount: app_commands.Range[int, 0, 200],
    ) -> None:
        await preview_record(interaction, RecordIncome(Faction(faction), amount))

    @record.command(name="done", description="Close the phase being recorded.")
    async def record_done(self, interaction: discord.Interaction) -> None:
        await preview_record(interaction, PhaseDone())
