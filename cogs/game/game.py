"""/game: a game's channels, seats and start."""

from __future__ import annotations

import json
import logging
from datetime import timedelta
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import standard_start, whole_game_start
from bot.seats.briefing import brief
from bot.session.session import SessionError
from bot.settings import Channels, GameSettings, Seating, Timing
from cogs.client import MentatBot
from cogs.common import (
    FactionName,
    app_of,
    game_of,
    key_of,
    require_moderator,
    roles_of,
    session_of,
)
from cogs.errors import reply
from cogs.game.pins import live_page_base, pin_live_page
from rules.errors import quote
from rules.factions import Faction
from rules.model import RuleSet
from rules.scenario import ScenarioError, load_scenario
from rules.variants import FremenStormMovement

log = logging.getLogger(__name__)

Overwrites = dict[discord.Role | discord.Member | discord.Object, discord.PermissionOverwrite]
DEFAULT_SEATS = "atreides,bene_gesserit,emperor,fremen,harkonnen,spacing_guild"


def parse_seats(text: str) -> tuple[Faction | None, ...]:
    """Six comma-separated faction ids in seat order (seat k at sector 3k+1); ``-`` is empty."""
    names = [n.strip() for n in text.split(",")]
    if len(names) > 6:
        raise SessionError("at most six seats")
    seats: list[Faction | None] = []
    for name in names:
        faction = None if name in ("", "-") else Faction.parse(name)
        if faction is None and name not in ("", "-"):
            raise SessionError(f"unknown faction {quote(name)}; use {DEFAULT_SEATS}")
        seats.append(faction)
    return tuple(seats + [None] * (6 - len(seats)))


STORM_MODES = {
    FremenStormMovement.BLOCKED: "Blocked by the storm",
    FremenStormMovement.FREE: "Free through the storm",
    FremenStormMovement.HALF_LOSS: "Through the storm, losing half",
}
"""``/game new``'s choices for the Fremen through the storm: every value of the switch."""


class Game(commands.Cog):
    """Set up a game: its category and channels, who plays which faction, the start."""

    game = app_commands.Group(
        name="game",
        description="Set up and start a game of Dune (a whole game or one phase).",
        default_permissions=discord.Permissions(manage_channels=True),
        guild_only=True,
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @game.command(name="new", description="Create a game: its category, channels and position.")
    @app_commands.describe(
        kind="A whole game from its set-up (the default), or one Shipment & Movement phase.",
        storm="One phase only: the storm's sector (a whole game starts at the Storm Start).",
        window_minutes="How long every Karama window stays open, whoever holds a card.",
        required_level="Seat only players of this reliability in this server (see /profile).",
        players_may_leave="Players may open their own seat to volunteers with /leave.",
        first_volunteer="The first volunteer takes an open seat (no moderator's Accept).",
        autopilot_after="Deadlines missed in a row before a faction plays its defaults (0: never).",
        stall_after_hours="Hours without progress before the moderators hear of it (0: never).",
    )
    @app_commands.choices(
        kind=[
            app_commands.Choice(name="A whole game", value="whole_game"),
            app_commands.Choice(name="One Shipment & Movement phase", value="one_phase"),
        ],
        fremen_storm_movement=[
            app_commands.Choice(name=name, value=mode.value) for mode, name in STORM_MODES.items()
        ],
        required_level=[
            app_commands.Choice(name="Anyone", value="anyone"),
            app_commands.Choice(name="New or Reliable (not Unreliable)", value="not_unreliable"),
            app_commands.Choice(name="Reliable only", value="reliable"),
        ],
    )
    async def game_new(
        self,
        interaction: discord.Interaction,
        kind: str = "whole_game",
        seats: str = DEFAULT_SEATS,
        advanced: bool = True,
        storm: app_commands.Range[int, 1, 18] = 1,
        maps: Literal["action", "turn", "never"] = "action",
        step_minutes: app_commands.Range[int, 1, 10080] = 720,
        prompt_minutes: app_commands.Range[int, 1, 10080] = 120,
        window_minutes: app_commands.Range[int, 1, 1440] = 5,
        moderator_role: discord.Role | None = None,
        ornithopters_from_shipment: bool = True,
        fremen_storm_movement: str = "blocked",
        guild_ally_pays: Literal["guild", "bank"] = "guild",
        required_level: str = "anyone",
        players_may_leave: bool = False,
        first_volunteer: bool = False,
        autopilot_after: app_commands.Range[int, 0, 20] = 0,
        stall_after_hours: app_commands.Range[int, 0, 2160] = 72,
    ) -> None:
        guild = interaction.guild
        assert guild is not None
        rules = RuleSet.parse(
            advanced,
            {
                "ornithopters_from_shipment": ornithopters_from_shipment,
                "fremen_storm_movement": fremen_storm_movement,
                "guild_ally_pays": guild_ally_pays,
            },
        )
        if kind == "whole_game":
            start = whole_game_start(parse_seats(seats), rules=rules)
        else:
            start = standard_start(parse_seats(seats), storm_sector=storm, rules=rules)
        channels, private = await create_channels(
            guild, list(start.factions), moderator_role, creator=interaction.user
        )
        timing = Timing(
            step=timedelta(minutes=step_minutes),
            prompt=timedelta(minutes=prompt_minutes),
            reminder=timedelta(seconds=min(step_minutes, prompt_minutes) * 30),
            window=timedelta(minutes=window_minutes),
        )
        settings = GameSettings(
            channels=Channels(private, moderator_role.id if moderator_role else None),
            timing=timing,
            maps=maps,
            required_level=None if required_level == "anyone" else required_level,
            seating=Seating(players_may_leave, first_volunteer, autopilot_after, stall_after_hours),
        )
        app = app_of(interaction)
        session = await app.create_game(
            guild.id, start, channels=channels, settings=settings, moderators=(interaction.user.id,)
        )
        await session.pause(interaction.user.id)
        what = "A whole game" if kind == "whole_game" else "A Shipment & Movement phase"
        await reply(
            interaction,
            f"Game #{session.game_id} is set up in <#{channels['table']}>: {what.lower()}. "
            "Seat the players with `/game seat`, then `/game start`.",
        )

    @game.command(name="seat", description="Give a faction's seat to a player.")
    async def game_seat(
        self, interaction: discord.Interaction, player: discord.Member, faction: FactionName
    ) -> None:
        game_id = game_of(interaction)
        await require_moderator(interaction, game_id)
        app = app_of(interaction)
        previous = await app.seat(game_id, player.id, Faction(faction))
        settings = await app.store.settings(game_id)
        channel_id = settings.channels.private.get(Faction(faction))
        channel = (
            interaction.guild.get_channel(channel_id) if interaction.guild and channel_id else None
        )
        note = " Their private channel is gone: `/mod channels` creates it again."
        if isinstance(channel, discord.TextChannel):
            note = await _handed_over(channel, player, previous)
            if not note and previous not in (None, player.id):  # a substitute: briefed
                await brief(app, game_id, Faction(faction), player.id, previous)
                note = " They were briefed in their private channel."
        if previous != player.id:  # once they read the channel: pinged if the game waits
            await session_of(interaction, game_id).seated(Faction(faction))
        await reply(interaction, f"{player.mention} plays {Faction(faction).label}.{note}")

    @game.command(name="start", description="Start the phase (optionally from a scenario file).")
    async def game_start(
        self, interaction: discord.Interaction, position: discord.Attachment | None = None
    ) -> None:
        game_id = game_of(interaction)
        await require_moderator(interaction, game_id)
        app = app_of(interaction)
        if position is not None:
            try:
                state = load_scenario(json.loads(await position.read())).initial_state()
            except json.JSONDecodeError as error:
                raise ScenarioError(f"the position is not JSON: {error}") from error
            await app.begin_phase(
                game_id,
                interaction.user.id,
                state,
                key=key_of(interaction),
                note="The moderator set up the position.",
                roles=roles_of(interaction),
            )
        session = session_of(interaction, game_id)
        await session.begin(interaction.user.id)  # a phase played alone: its opening
        if interaction.guild is not None:  # the live page's link, pinned at the table
            channels = dict((await app.store.game(game_id)).channels)
            base = live_page_base(self.bot)
            await pin_live_page(interaction.guild, base, game_id, channels)
        await reply(interaction, "The game is running.")

    @commands.command(name="sync")
    @commands.is_owner()
    async def sync(self, ctx: commands.Context[commands.Bot], guild_id: int | None = None) -> None:
        """Owner only: ``@Mentat sync [guild id]`` syncs the slash commands."""
        bot = self.bot
        if not isinstance(bot, MentatBot):  # the cog is Mentat's, loaded by MentatBot
            raise commands.CommandError(f"{type(bot).__name__} cannot sync Mentat's commands")
        count = await bot.sync_commands(guild_id)
        await ctx.reply(f"Synced {count} commands.")


async def _handed_over(
    channel: discord.TextChannel, player: discord.Member, previous: int | None
) -> str:
    """:func:`hand_over`, or what went wrong, for the moderator (a note to the answer)."""
    try:
        await hand_over(channel, player, previous)
    except discord.HTTPException as error:
        log.warning("private channel %d not handed over: %s", channel.id, error)
        return (
            f" Their private channel could not be opened to them ({error.text[:80]}): "
            "`/mod channels` repairs the game's channels."
        )
    return ""


async def hand_over(
    channel: discord.TextChannel, player: discord.Member, previous: int | None
) -> None:
    """The faction's private channel: its new player reads it, the one before no longer."""
    overwrites = {
        target: overwrite
        for target, overwrite in channel.overwrites.items()
        if previous is None or previous == player.id or target.id != previous
    }
    overwrites[player] = discord.PermissionOverwrite(view_channel=True, send_messages=True)
    await channel.edit(overwrites=overwrites)


async def create_channels(
    guild: discord.Guild,
    factions: list[Faction],
    moderator_role: discord.Role | None,
    *,
    creator: discord.Member | discord.User | None = None,
) -> tuple[dict[str, int], dict[Faction, int]]:
    """The category, the table, the spectators' (hidden: ``/observe join`` opens it to one
    user, read only), the moderators' and one private channel per faction (its player is
    added by ``/game seat``).

    The moderators' channel is for the game's creator (its first moderator) and the
    moderator role's holders, whatever their server permissions."""
    me = guild.me
    everyone = guild.default_role
    bot_can = discord.PermissionOverwrite(view_channel=True, send_messages=True, attach_files=True)
    hidden: Overwrites = {everyone: discord.PermissionOverwrite(view_channel=False), me: bot_can}
    category = await guild.create_category("Dune")
    table = await guild.create_text_channel("dune-table", category=category)
    spectators = await guild.create_text_channel(
        "dune-spectators",
        category=category,
        overwrites=dict(hidden),  # each observer is let in by /observe join, one by one
    )
    mods = dict(hidden)
    moderator_can = discord.PermissionOverwrite(view_channel=True, send_messages=True)
    if moderator_role is not None:
        mods[moderator_role] = moderator_can
    if isinstance(creator, discord.Member):
        mods[creator] = moderator_can
    moderators = await guild.create_text_channel(
        "dune-moderators", category=category, overwrites=mods
    )
    private: dict[Faction, int] = {}
    for faction in factions:
        channel = await guild.create_text_channel(
            f"dune-{faction.value.replace('_', '-')}",
            category=category,
            overwrites=hidden,
        )
        private[faction] = channel.id
    channels = {
        "category": category.id,
        "table": table.id,
        "spectators": spectators.id,
        "moderators": moderators.id,
    }
    return channels, private
