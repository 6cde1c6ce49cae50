"""Finding a prompt's button by the concrete action it submits (a button's custom id
carries its action's key: :class:`bot.publisher.Answer`)."""

from __future__ import annotations

from collections.abc import Callable

import discord

from rules.actions import Decline, FactionAction
from rules.factions import Faction
from tests.cogs.conftest import Table


def custom_ids(message: discord.Message) -> list[str]:
    return [c["custom_id"] for row in message.components for c in row.to_dict()["components"]]


def actions_asked(t: Table, faction: Faction) -> dict[str, FactionAction]:
    """The faction's prompt as it reads now: its buttons' keys and their actions."""
    notice = t.session.prompt_now(faction)
    return {a.key: a.action for a in notice.answers} if notice is not None else {}


def button_for(
    t: Table, faction: Faction, wanted: Callable[[FactionAction], bool]
) -> tuple[discord.Message, str] | None:
    """The faction's newest message with a button whose action is ``wanted``, and its id."""
    asked = actions_asked(t, faction)
    for message in reversed(t.private(faction).history()):
        for custom_id in custom_ids(message):
            parts = custom_id.split(":")
            action = asked.get(parts[3]) if len(parts) == 5 else None
            if action is not None and wanted(action):
                return message, custom_id
    return None


def named(name: str, prompt: str | None = None) -> Callable[[FactionAction], bool]:
    """An action of kind ``name`` (a decline: of the prompt ``prompt``, if given)."""

    def wanted(action: FactionAction) -> bool:
        if action.name != name:
            return False
        return prompt is None or (isinstance(action, Decline) and action.prompt == prompt)

    return wanted
