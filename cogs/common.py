"""Helpers every cog uses: the game of a channel, who acts for which faction, and the
acknowledgement of every slash command before its body runs."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.app import Mentat
from bot.ledger import SubmitResult
from bot.session.session import PhaseSession, SessionError
from rules.actions import FactionAction
from rules.errors import MentatError, quote
from rules.factions import Faction
from rules.game import GameState

log = logging.getLogger(__name__)

MAX_CHOICES = 25
"""Discord's limit on the choices of one autocomplete answer."""


class FactionChoice(app_commands.Transformer):
    """The ``faction:`` option: the six factions offered by name ("Bene Gesserit"), their
    ids only as the values Discord sends back."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.string

    @property
    def choices(self) -> list[app_commands.Choice[int | float | str]]:
        return [app_commands.Choice(name=f.label, value=f.value) for f in Faction]

    async def transform(self, interaction: discord.Interaction, value: Any, /) -> str:
        faction = Faction.parse(str(value)[:40])
        if faction is None:  # refused at the door, like any option Discord would not send
            raise app_commands.CheckFailure(f"there is no faction {quote(str(value))}")
        return faction.value


FactionName = app_commands.Transform[str, FactionChoice]
"""A faction option, read as its id (``"bene_gesserit"``)."""


def app_of(interaction: discord.Interaction) -> Mentat:
    """The application of the bot the interaction reached (``MentatBot.app``)."""
    app = getattr(interaction.client, "app", None)
    if not isinstance(app, Mentat):
        raise TypeError(f"{type(interaction.client).__name__} carries no Mentat application")
    return app


def game_of(interaction: discord.Interaction) -> int:
    """The game of the channel the command is used in (SessionError if none)."""
    return app_of(interaction).game_in(interaction.channel_id or 0)


def state_of(interaction: discord.Interaction, game_id: int) -> GameState:
    state = session_of(interaction, game_id).state
    if state is None:
        raise SessionError("this game has not started")
    return state


def session_of(interaction: discord.Interaction, game_id: int) -> PhaseSession:
    return app_of(interaction).session(game_id)


async def acting_faction(
    interaction: discord.Interaction, game_id: int, named: str | None = None
) -> Faction:
    """The caller's own faction, or the one named (its seated player or a moderator)."""
    app = app_of(interaction)
    if named is not None:
        faction = Faction.parse(named[:40])
        if faction is None:
            raise SessionError(f"there is no faction {quote(named)}")
        await app.require_player(game_id, interaction.user.id, faction, roles=roles_of(interaction))
        return faction
    seated = await app.faction_of(game_id, interaction.user.id)
    if seated is None:
        raise SessionError(
            "you hold no seat in this game (a moderator names the faction with `faction:`)"
        )
    return seated


async def seated_faction(interaction: discord.Interaction, game_id: int) -> Faction | None:
    """For autocomplete: the caller's own faction (None without a seat).

    The faction typed in ``faction:`` counts only for a current moderator of the
    game, as in the commands themselves: anyone else gets their own faction's
    choices, so that no one reads another faction's spice from the choices offered.
    """
    app = app_of(interaction)
    own = await app.faction_of(game_id, interaction.user.id)
    named = getattr(interaction.namespace, "faction", None)
    typed = Faction.parse(str(named)) if named else None
    if typed is None or typed is own:
        return own
    if await app.is_moderator(game_id, interaction.user.id, roles_of(interaction)):
        return typed
    return own


async def caller_position(interaction: discord.Interaction) -> tuple[GameState, Faction] | None:
    """For autocomplete: the channel's live position and the faction whose choices the
    caller may see (:func:`seated_faction`); None when there is nothing to offer (no game
    here, not started, no seat, a faction not in the game)."""
    try:
        app = app_of(interaction)
        game_id = app.game_in(interaction.channel_id or 0)
        state = app.session(game_id).state
        faction = await seated_faction(interaction, game_id)
    except MentatError:
        return None
    if state is None or faction is None or not state.in_game(faction):
        return None
    return state, faction


async def act_for(
    interaction: discord.Interaction,
    faction: str | None,
    build: Callable[..., FactionAction],
    *fields: object,
    **named: object,
) -> tuple[FactionAction, SubmitResult]:
    """Submit ``build(who, *fields, **named)`` for the faction the caller acts for (a
    player for its own, a moderator for any); the tree has acknowledged the command."""
    game_id = game_of(interaction)
    who = await acting_faction(interaction, game_id, faction)
    action = build(who, *fields, **named)
    result = await app_of(interaction).submit(
        game_id, action, actor=interaction.user.id, key=key_of(interaction)
    )
    return action, result


def key_of(interaction: discord.Interaction) -> str:
    """The idempotency key of a request: Discord's interaction id."""
    return f"discord:{interaction.id}"


def roles_of(interaction: discord.Interaction) -> tuple[int, ...]:
    """The ids of the caller's roles in the guild (none in a DM): the application
    compares them with the game's moderator role."""
    user = interaction.user
    return tuple(r.id for r in user.roles) if isinstance(user, discord.Member) else ()


async def require_moderator(interaction: discord.Interaction, game_id: int) -> None:
    """Moderators are the game's listed users or members of its moderator role."""
    await app_of(interaction).require_moderator(
        game_id, interaction.user.id, roles=roles_of(interaction)
    )


# -- acknowledgement: within Discord's 3 seconds, before any slow call ---------------------

PUBLIC = "mentat:public-answer"
"""The key, in a command's ``extras``, of :func:`public_answer`'s test."""

Options = Mapping[str, Any]
C = TypeVar("C", bound=app_commands.Command[Any, ..., Any])


def public_answer(when: Callable[[Options], bool] = lambda options: True) -> Callable[[C], C]:
    """Mark a command (put it above ``@app_commands.command``) whose answer everyone in
    the channel sees when ``when(options)`` holds (options by name, as typed); every other
    command's answer is ephemeral, from the acknowledgement on."""

    def mark(command: C) -> C:
        command.extras[PUBLIC] = when
        return command

    return mark


async def acknowledge(interaction: discord.Interaction) -> None:
    """Defer a slash command at once ("Mentat is thinking…"), before the command's body runs
    and makes any slow call (a store read behind another game's write, a request waiting its
    turn in the game's queue, a map to draw, Discord's channel calls).

    The command tree calls it for every slash command (:class:`cogs.client.MentatTree`), so
    a body never answers through ``interaction.response``: it answers with
    :func:`cogs.errors.reply` or ``interaction.followup``. Ephemeral unless the command is
    marked :func:`public_answer`. A failed acknowledgement is logged and the body still runs:
    the action is never lost with its answer."""
    if interaction.type is not discord.InteractionType.application_command:
        return
    if interaction.response.is_done():
        return
    command = interaction.command
    public = command.extras.get(PUBLIC) if command is not None else None
    ephemeral = not (public is not None and public(options_of(interaction)))
    try:
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    except discord.HTTPException as error:
        log.warning("could not acknowledge an interaction in time: %s", error)


async def acknowledge_click(
    interaction: discord.Interaction, *, ephemeral: bool = False, thinking: bool = False
) -> None:
    """Defer a button or menu click at once, before any slow call: every button and menu of
    the bot calls it first. As for a slash command, a failed acknowledgement (a 5xx, a 429,
    a network error) is logged and the click's action still runs: its answer then goes out
    as the interaction's first response, when Discord takes it (:func:`cogs.errors.reply`);
    the action is never lost with its acknowledgement."""
    if interaction.response.is_done():
        return
    try:
        await interaction.response.defer(ephemeral=ephemeral, thinking=thinking)
    except discord.HTTPException as error:
        log.warning("could not acknowledge a click in time: %s", error)


def options_of(interaction: discord.Interaction) -> dict[str, Any]:
    """The options of a slash command's (sub)command as typed, by name."""
    data: Mapping[str, Any] = interaction.data or {}
    options: list[Mapping[str, Any]] = list(data.get("options", []))
    while options and options[0].get("type") in (1, 2):  # a subcommand (group)
        options = list(options[0].get("options", []))
    return {str(o["name"]): o.get("value") for o in options}
