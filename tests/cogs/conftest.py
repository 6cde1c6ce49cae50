"""The bot against simcord's in-memory Discord, over a real store in a tmp dir."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot.clock import FakeClock
from bot.store import Store
from cogs.client import MentatBot, build
from rules.factions import Faction

SEATS = "atreides,bene_gesserit,emperor,fremen,harkonnen,spacing_guild"
SETTLE_SECONDS = 30.0
"""Real seconds simcord waits for the bot to settle after an event. Its default (5 s) is
too short when the machine is loaded (CI on two cores, parallel runs): the virtual clock
is unaffected; only a bot that never settles waits this long to be reported."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every simcord test here gets SETTLE_SECONDS unless it sets its own options."""
    for item in items:
        if "tests/cogs" in str(item.path) and item.get_closest_marker("simcord") is None:
            item.add_marker(pytest.mark.simcord(settle_timeout=SETTLE_SECONDS))


@dataclass
class Bots:
    """Every bot built in a test, and their stores, so teardown closes them all."""

    path: Path
    clock: FakeClock = field(default_factory=FakeClock)
    made: list[MentatBot] = field(default_factory=list)

    async def new(self) -> MentatBot:
        store = await Store.open(self.path)
        bot = build(store, clock=self.clock)
        self.made.append(bot)
        await bot.app.start()
        return bot

    async def close(self) -> None:
        for bot in self.made:
            await bot.app.stop()
            await bot.app.store.close()


@pytest.fixture
async def bots(tmp_path: Path) -> AsyncIterator[Bots]:
    made = Bots(tmp_path / "mentat.db")
    try:
        yield made
    finally:
        await made.close()


@pytest.fixture
async def simcord_bot(bots: Bots) -> MentatBot:
    return await bots.new()


@dataclass
class Table:
    """A guild with a game set up: its moderator, six players and the channels."""

    env: simcord.Env
    guild: simcord.GuildHandle
    lobby: simcord.ChannelHandle
    moderator: simcord.MemberActor
    players: dict[Faction, simcord.MemberActor]
    outsider: simcord.MemberActor
    game_id: int = 0
    role: simcord.RoleHandle | None = None  # the game's moderator role, if any
    role_holder: simcord.MemberActor | None = None  # holds it, never listed as moderator

    @property
    def bot(self) -> MentatBot:
        bot: MentatBot = self.env.bot  # type: ignore[assignment]
        return bot

    def channel(self, name: str) -> simcord.ChannelHandle:
        return self.guild.channels[name]

    @property
    def table(self) -> simcord.ChannelHandle:
        return self.channel("dune-table")

    @property
    def spectators(self) -> simcord.ChannelHandle:
        return self.channel("dune-spectators")

    def private(self, faction: Faction) -> simcord.ChannelHandle:
        return self.channel(f"dune-{faction.value.replace('_', '-')}")

    @property
    def session(self) -> Any:
        return self.bot.app.session(self.game_id)

    def state(self) -> Any:
        return self.session.state


async def make_table(
    env: simcord.Env,
    *,
    start: bool = True,
    moderator_role: str | None = None,
    seats: str = SEATS,
    kind: str = "one_phase",
    **options: Any,
) -> Table:
    """A guild, ``/game new`` by the moderator, every faction seated, ``/game start``.

    ``kind`` "one_phase" (a Shipment & Movement phase; these tests' default) or "whole_game".

    With ``moderator_role``, a role of that name is the game's moderator role and
    ``table.role_holder`` a member who holds it (and nothing else).
    """
    guild = env.create_guild()
    lobby = guild.create_text_channel("lobby")
    admins = guild.create_role("Admins", permissions=discord.Permissions(administrator=True))
    moderator = guild.add_member(env.create_user("moderator"), roles=[admins])
    players = {f: guild.add_member(env.create_user(f.value)) for f in Faction}
    outsider = guild.add_member(env.create_user("outsider"))
    await env.bot.sync_commands(guild.id)  # type: ignore[attr-defined]
    table = Table(env, guild, lobby, moderator, players, outsider)
    if moderator_role is not None:
        manage = discord.Permissions(manage_channels=True)  # /game's default permission
        table.role = guild.create_role(moderator_role, permissions=manage)
        table.role_holder = guild.add_member(env.create_user("role-holder"), roles=[table.role])
        options["moderator_role"] = table.role
    result = await moderator.slash(lobby, "game new", kind=kind, seats=seats, **options)
    assert result.ephemeral, result
    table.game_id = table.bot.app.game_in(table.table.id)
    for faction in table.state().factions:
        player = players[faction]
        await moderator.slash(table.table, "game seat", player=player, faction=faction.value)
    if start:
        await moderator.slash(table.table, "game start")
    return table


def position(**fields: Any) -> tuple[str, bytes]:
    """A scenario file for ``/game start position:``: three factions, no Guild, basic game,
    Atreides (allied to Harkonnen) to ship first; ``fields`` override the defaults."""
    factions = {f: {"spice": 10, "reserves": 10} for f in ("atreides", "emperor", "harkonnen")}
    data: dict[str, Any] = {
        "format": "dune-scenario/1",
        "advanced": False,
        "variants": {},
        "storm_sector": 10,
        "seats": ["atreides", "emperor", "harkonnen", None, None, None],
        "alliances": [["atreides", "harkonnen"]],
        "factions": factions,
        "board": [],
        **fields,
    }
    return "position.json", json.dumps(data).encode()


def text_of(result: simcord.InteractionResult) -> str:
    """What the user finally read: the last follow-up, else the (edited) response."""
    if result.followups:
        return result.followups[-1].content
    assert result.response is not None, result
    return result.response.content


def final(result: simcord.InteractionResult) -> simcord.ResponseMessage:
    message = result.followups[-1] if result.followups else result.response
    assert message is not None, result
    return message


def is_ephemeral(result: simcord.InteractionResult) -> bool:
    if result.followups:
        return all(f.ephemeral for f in result.followups)
    return result.ephemeral


def refusals(env: simcord.Env) -> list[BaseException]:
    """The errors that went through the central handler (acknowledging them)."""
    return [getattr(e, "original", e) for e in env.errors]
