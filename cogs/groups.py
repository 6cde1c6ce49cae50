"""Subcommands a cog adds to a group another cog owns (``/mod record battle``, ``/karama buy``).

discord.py gives each group to one cog; a phase's cog that has a subcommand of another
cog's group (the moderators' record of a battle under ``/mod record``, a Karama card's use
in the auction under ``/karama``) adds it when it loads and takes it back when it
unloads, so the owning cog never names the phase. The owner is loaded first
(:data:`cogs.client.EXTENSIONS`). Each load builds fresh commands from module-level
callbacks, decorated as usual (``describe``, ``autocomplete``, ``choices``).
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from discord import app_commands

Callback = Callable[..., Coroutine[Any, Any, None]]


@dataclass(frozen=True, slots=True)
class Subcommand:
    """A subcommand of another cog's group: its name, description and callback."""

    name: str
    description: str
    callback: Callback


def group_at(tree: app_commands.CommandTree[Any], path: tuple[str, ...]) -> app_commands.Group:
    """The loaded group at ``path`` (("mod", "record") is ``/mod record``)."""
    found: object = tree.get_command(path[0])
    for name in path[1:]:
        found = found.get_command(name) if isinstance(found, app_commands.Group) else None
    if not isinstance(found, app_commands.Group):
        raise LookupError(f"/{' '.join(path)} is not loaded: its cog loads before its guests")
    return found


def contribute(
    tree: app_commands.CommandTree[Any], path: tuple[str, ...], *subcommands: Subcommand
) -> None:
    """Add ``subcommands`` to the group at ``path`` (a name taken already is a mistake)."""
    group = group_at(tree, path)
    for sub in subcommands:
        group.add_command(
            app_commands.Command(name=sub.name, description=sub.description, callback=sub.callback)
        )


def withdraw(
    tree: app_commands.CommandTree[Any], path: tuple[str, ...], *subcommands: Subcommand
) -> None:
    """Take ``subcommands`` back from the group at ``path`` (its cog may be gone already)."""
    try:
        group = group_at(tree, path)
    except LookupError:
        return
    for sub in subcommands:
        group.remove_command(sub.name)


Guests = tuple[tuple[tuple[str, ...], Subcommand], ...]
"""A cog's subcommands of other cogs' groups, each with the path of its group."""


def join(tree: app_commands.CommandTree[Any], guests: Guests) -> None:
    """Add each of a cog's ``guests`` to its group (when the cog loads)."""
    for path, subcommand in guests:
        contribute(tree, path, subcommand)


def leave(tree: app_commands.CommandTree[Any], guests: Guests) -> None:
    """Take each of a cog's ``guests`` back from its group (when the cog unloads)."""
    for path, subcommand in guests:
        withdraw(tree, path, subcommand)
