"""The Battle phase's commands: ``/battle``, ``/battle-plan``, ``/voice``,
``/prescience``, ``/keep-cards``, ``/capture`` and ``/traitor`` (``keep``: the traitor kept at
set-up; ``call``: reveal it in a battle).

Thin glue, as :mod:`cogs.auction.auction`: each command finds the channel's game and the
faction the caller acts for (its seated player, or a current moderator naming it with
``faction:``), builds the engine's action and submits it through the game's session; the
engine's refusal (citing its rule) comes back as an ephemeral answer through
:mod:`cogs.errors`. Every answer is ephemeral (the command tree deferred it): a plan is
built in a private message only its owner sees, and the table hears only what the
engine's public events say (a plan is in; both plans at the reveal).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.words.battle import battle_answer
from bot.words.battle.plan_builder import first_draft, summary
from cogs.battle import choices as ch
from cogs.battle.plan_view import PlanBuilder
from cogs.battle.record import RECORD, RECORDS
from cogs.common import FactionName, act_for, acting_faction, game_of, session_of
from cogs.errors import reply
from cogs.groups import contribute, withdraw
from cogs.turn.autocomplete import _text, offer
from cogs.turn.choices import leader_words
from rules.battle.actions import (
    CallTraitor,
    Capture,
    KeepCards,
    KeepTraitor,
    Prescience,
    StartBattle,
    Voice,
)
from rules.battle.plans import PLAN_RULE, options_now
from rules.errors import NotYourTurnError

Name = app_commands.Range[str, 1, 100]
COMMANDS = [
    Choice(name="Must play it (if they can)", value="play"),
    Choice(name="Must not play it", value="not_play"),
]
ASKS = [
    Choice(name="Their leader", value="leader"),
    Choice(name="Their weapon", value="weapon"),
    Choice(name="Their defense", value="defense"),
    Choice(name="The number they dial", value="number"),
    Choice(name="Their whole plan (with a Karama card)", value="plan"),
]

territory_ac = offer(lambda state, faction, _: ch.territories(state, faction))
sector_ac = offer(lambda state, faction, ns: ch.sectors(state, faction, _text(ns, "territory")))
opponent_ac = offer(lambda state, faction, ns: ch.opponents(state, faction, _text(ns, "territory")))
voice_ac = offer(lambda state, faction, _: ch.voice_kinds(state, faction))
keep_ac = offer(lambda state, faction, ns: ch.keepable(state, faction, _text(ns, "cards") or ""))
captive_ac = offer(lambda state, faction, _: ch.captives(state, faction))
traitor_ac = offer(lambda state, faction, _: ch.traitors(state, faction))


class Battles(commands.Cog):
    """The Battle phase (1.07), as the engine runs it."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        contribute(self.bot.tree, RECORD, *RECORDS)  # /mod record battle

    async def cog_unload(self) -> None:
        withdraw(self.bot.tree, RECORD, *RECORDS)

    async def _answer(
        self,
        interaction: discord.Interaction,
        faction: str | None,
        action_of: type,
        *fields: object,
    ) -> None:
        action, _ = await act_for(interaction, faction, action_of, *fields)
        await reply(interaction, f"Done: {battle_answer(action) or 'answered'}.")

    # -- the traitors: kept at set-up, called in a battle -------------------------------

    traitor = app_commands.Group(name="traitor", description="Your traitors.")

    @traitor.command(name="keep", description="Set-up: keep one of the traitors dealt to you.")
    @app_commands.describe(leader="One of the four leaders dealt to you (only you see them).")
    @app_commands.autocomplete(leader=traitor_ac)
    async def traitor_keep(
        self, interaction: discord.Interaction, leader: str, faction: FactionName | None = None
    ) -> None:
        await act_for(interaction, faction, KeepTraitor, leader)
        await reply(
            interaction,
            f"Done: you keep {leader_words(leader)} as your traitor. Only you know whom you hold.",
        )

    @traitor.command(name="call", description="Battle: reveal the opposing leader as your traitor.")
    async def traitor_call(
        self, interaction: discord.Interaction, faction: FactionName | None = None
    ) -> None:
        await act_for(interaction, faction, CallTraitor)
        await reply(interaction, "Done: you call a traitor.")

    # -- the battles -----------------------------------------------------------------

    @app_commands.command(name="battle", description="Battle: name your next battle (aggressor).")
    @app_commands.describe(
        territory="Where you fight (the list gives your battles).",
        opponent="Whom you attack there.",
        sector="Where the storm splits the territory: the part you fight in, by sector.",
    )
    @app_commands.autocomplete(territory=territory_ac, opponent=opponent_ac, sector=sector_ac)
    async def battle(
        self,
        interaction: discord.Interaction,
        territory: Name,
        opponent: Name,
        sector: app_commands.Range[int, 1, 18] | None = None,
        faction: FactionName | None = None,
    ) -> None:
        await self._answer(interaction, faction, StartBattle, territory, opponent, sector)

    @app_commands.command(
        name="battle-plan", description="Battle: build your secret plan (only you see it)."
    )
    @app_commands.describe(
        spice="Advanced game: spice paid for the dial to start with (the builder's Spice… menu "
        "changes it).",
        kwisatz_haderach="Atreides: the Kwisatz Haderach goes with your leader to start with "
        "(the leader menu changes it).",
    )
    async def battle_plan(
        self,
        interaction: discord.Interaction,
        spice: app_commands.Range[int, 0, 99] = 0,
        kwisatz_haderach: bool = False,
        faction: FactionName | None = None,
    ) -> None:
        game_id = game_of(interaction)
        who = await acting_faction(interaction, game_id, faction)
        state = session_of(interaction, game_id).state
        options = options_now(state, who) if state is not None else None
        if state is None or options is None:
            raise NotYourTurnError(f"{who.label} has no battle plan to make now", rule=PLAN_RULE)
        draft = first_draft(options, spice=spice, kwisatz_haderach=kwisatz_haderach)
        live: set[str] = getattr(interaction.client, "live_previews", set())
        view = PlanBuilder(game_id, who, state, options, draft, live=live)
        await reply(interaction, summary(state, who, options, view.draft), view=view)

    @app_commands.command(name="voice", description="Bene Gesserit: command your opponent.")
    @app_commands.describe(command="Play it, or not play it.", kind="The kind of card, or a card.")
    @app_commands.choices(command=COMMANDS)
    @app_commands.autocomplete(kind=voice_ac)
    async def voice(
        self,
        interaction: discord.Interaction,
        command: str,
        kind: Name,
        faction: FactionName | None = None,
    ) -> None:
        await self._answer(interaction, faction, Voice, command, kind)

    @app_commands.command(
        name="prescience", description="Atreides: see one element of your opponent's plan."
    )
    @app_commands.choices(ask=ASKS)
    async def prescience(
        self, interaction: discord.Interaction, ask: str, faction: FactionName | None = None
    ) -> None:
        await self._answer(interaction, faction, Prescience, ask)

    @app_commands.command(
        name="keep-cards", description="Battle won: keep these of the cards you played."
    )
    @app_commands.describe(cards="The cards to keep, separated by commas; none: discard all.")
    @app_commands.autocomplete(cards=keep_ac)
    async def keep_cards(
        self,
        interaction: discord.Interaction,
        cards: app_commands.Range[str, 1, 200],
        faction: FactionName | None = None,
    ) -> None:
        await self._answer(interaction, faction, KeepCards, ch.kept_cards(cards))

    @app_commands.command(
        name="capture", description="Harkonnen: capture the leader you drew, or kill it."
    )
    @app_commands.describe(leader="The leader you drew.", kill="Kill it for 2 spice instead.")
    @app_commands.autocomplete(leader=captive_ac)
    async def capture(
        self,
        interaction: discord.Interaction,
        leader: Name,
        kill: bool = False,
        faction: FactionName | None = None,
    ) -> None:
        await self._answer(interaction, faction, Capture, leader, kill)
