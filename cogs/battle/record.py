"""``/mod record battle``: the moderators record who fought whom, a subcommand the battle
cog adds to the moderation cog's ``/mod record`` group (:mod:`cogs.groups`)."""

from __future__ import annotations

import discord

from cogs.common import FactionName
from cogs.groups import Subcommand
from cogs.moderation.records import preview_record
from rules.battle.actions import RecordBattle
from rules.factions import Faction

RECORD = ("mod", "record")
"""The group the battle's records are subcommands of."""


async def record_battle(
    interaction: discord.Interaction, faction: FactionName, opponent: FactionName
) -> None:
    await preview_record(interaction, RecordBattle(Faction(faction), opponent))


RECORDS = (Subcommand("battle", "Battle: who fought whom.", record_battle),)
"""The battle's subcommands of ``/mod record``."""
