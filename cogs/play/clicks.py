"""What every prompt button does with a click: check the clicker's seat and that its prompt
is still open, submit the engine action it stands for, and close a stale message saying how
its prompt closed. Each button (:mod:`cogs.play.views`, :mod:`cogs.play.bids`) only says
which action it stands for and how to answer."""

from __future__ import annotations

import logging
from collections.abc import Callable

import discord

from bot.ledger import SubmitResult
from bot.session.session import PhaseSession, PromptClosedError
from cogs.common import acknowledge_click, app_of, key_of, roles_of
from cogs.errors import report
from rules.actions import FactionAction
from rules.factions import Faction

log = logging.getLogger(__name__)


async def submit_click(
    interaction: discord.Interaction,
    game_id: int,
    faction: Faction,
    token: str,
    action_of: Callable[[PhaseSession], FactionAction],
) -> SubmitResult | None:
    """Submit ``action_of(session)`` (the action the button was made for) for ``faction``
    from a button bound to the prompt ``token``; None when it was refused (the clicker
    already told why, a stale message closed)."""
    try:
        await acknowledge_click(interaction, ephemeral=True, thinking=True)
        app = app_of(interaction)
        await app.require_player(game_id, interaction.user.id, faction, roles=roles_of(interaction))
        session = app.session(game_id)
        assert session.state is not None
        session.check_open(faction, token)  # a stale button says how it closed
        action = action_of(session)
        result: SubmitResult = await session.submit(
            faction, action, actor=interaction.user.id, key=key_of(interaction), token=token
        )
    except PromptClosedError as error:
        await close_stale(interaction, error.how)
        await report(interaction, error)
        return None
    except Exception as error:
        await report(interaction, error)
        return None
    return result


async def close_stale(interaction: discord.Interaction, how: str) -> None:
    """A stale prompt message (e.g. one the session could not edit) is closed now."""
    message = interaction.message
    if message is None or not message.components:
        return
    try:
        text = closed_text(message.content, f"Closed: {how}.")
        await message.edit(content=text, view=None)
    except discord.HTTPException as error:
        log.warning("could not close a stale prompt message: %s", error)


def closed_text(content: str, how: str) -> str:
    """A closed prompt's message: what it asked, then how it closed (within Discord's limit)."""
    line = f"**{how}**"
    return f"{content[: 2000 - len(line) - 1]}\n{line}"
