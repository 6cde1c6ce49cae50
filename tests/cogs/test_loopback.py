"""Smoke tests of the real discord.py client against a loopback fake Discord.

simcord stands in for Discord inside discord.py; these tests instead let
discord.py speak HTTP and websocket to :mod:`tests.cogs.fake_discord` on
127.0.0.1: the real login, the real command sync, the real interaction callback
and the real multipart file uploads.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import discord
import pytest
import yarl

from bot.app import standard_start
from bot.clock import FakeClock
from bot.settings import GameSettings
from bot.store import Store
from cogs.client import MentatBot, build
from rules.factions import Faction
from tests.cogs.fake_discord import FakeDiscord, Request

pytestmark = pytest.mark.timeout(60)

PNG = b"\x89PNG\r\n\x1a\n"
MODERATOR = 4242
STEP = 30.0  # seconds allowed for any one exchange with the fake server (a loaded 2-core CI)
COMMANDS = {
    "observe",
    "profile",
    "my-turns",
    "pings",
    "leave",
    "back",
    "substitute",
    "bid",
    "support-bids",
    "give-spice",
    "give-back",
    "orders",
    # the Revival phase (cogs.revival)
    "revive",
    "revive-ally",
    "ghola",
    # CHOAM Charity (cogs.choam_charity)
    "charity",
    "game",
    "mod",
    "ship",
    "send",
    "cross-ship",
    "ship-to-reserves",
    "move",
    "pass",
    "hajr",
    "karama",
    "guild",
    "bg",
    "status",
    "map",
    "ally-pay",
    # the Storm phase (cogs.storm)
    "dial",
    "weather-control",
    "family-atomics",
    # the whole turn's choices (cogs.turn)
    "traitor",
    "predict",
    "place-advisor",
    "fremen",
    "ally",
    "ally-break",
    "bribe",
    "truthtrance",
    # the Battle phase (cogs.battle)
    "battle",
    "battle-plan",
    "voice",
    "prescience",
    "keep-cards",
    "capture",
}


@dataclass
class Live:
    fake: FakeDiscord
    bot: MentatBot

    async def start_game(self) -> int:
        """A two-faction game in the fake guild's channels, run by ``MODERATOR``."""
        seats = (Faction.ATREIDES, None, Faction.HARKONNEN, None, None, None)
        channels = {
            "table": self.fake.channel("dune-table").id,
            "spectators": self.fake.channel("dune-spectators").id,
            "moderators": self.fake.channel("dune-moderators").id,
            "category": self.fake.channel("dune").id,
        }
        session = await self.bot.app.create_game(
            self.fake.guild_id,
            standard_start(seats),
            channels=channels,
            settings=GameSettings(maps="action"),
            moderators=(MODERATOR,),
        )
        return session.game_id


@pytest.fixture
async def live(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Live]:
    """The Mentat client logged in to the fake server and connected to its gateway."""
    async with FakeDiscord(lifetime=45) as fake:
        monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
        monkeypatch.setattr(
            discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url)
        )
        store = await Store.open(tmp_path / "mentat.db")
        bot = build(store, clock=FakeClock(), dev_guild_id=fake.guild_id)
        bot._connection.guild_ready_timeout = 0.05  # READY carries the guild: no wait
        connection: asyncio.Task[None] | None = None
        try:
            await asyncio.wait_for(bot.login(fake.token), STEP)
            await bot.app.start()
            connection = asyncio.create_task(bot.connect(reconnect=False))
            await _ready(bot, connection)
            yield Live(fake, bot)
        finally:
            await asyncio.wait_for(bot.close(), STEP)
            if connection is not None:
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await asyncio.wait_for(connection, STEP)
            await bot.app.stop()
            await store.close()


async def _ready(bot: MentatBot, connection: asyncio.Task[None]) -> None:
    """Wait for READY; if the connection dies first, fail with its error."""
    ready = asyncio.create_task(bot.wait_until_ready())
    done, _ = await asyncio.wait(
        {ready, connection}, timeout=STEP, return_when=asyncio.FIRST_COMPLETED
    )
    if ready not in done:
        ready.cancel()
        if connection in done:
            connection.result()  # raises the gateway error
        raise AssertionError("no READY from the fake gateway")


async def test_login_ready_and_command_sync(live: Live) -> None:
    fake, bot = live.fake, live.bot
    assert [r.authorization for r in fake.calls("GET", "/users/@me")] == [f"Bot {fake.token}"]
    assert fake.identify is not None and fake.identify["token"] == fake.token
    assert fake.ready_sent.is_set() and bot.is_ready()
    assert bot.user is not None and bot.user.id == fake.bot_id
    assert bot.application_id == fake.application_id
    guild = bot.get_guild(fake.guild_id)
    assert guild is not None and guild.get_channel(fake.channel("dune-table").id) is not None
    (sync,) = fake.calls("PUT", f"/applications/{fake.application_id}/guilds/{fake.guild_id}/")
    names = {command["name"] for command in sync.payload}
    assert names == COMMANDS
    assert not fake.calls("PUT", f"/applications/{fake.application_id}/commands")  # no global


async def test_map_interaction_defers_then_uploads_a_png(live: Live) -> None:
    fake = live.fake
    await live.start_game()
    interaction_id, token = await fake.push_slash("map", user_id=1234)

    callback: Request = await fake.wait_for(
        lambda: next(iter(fake.calls("POST", f"/interactions/{interaction_id}/{token}/")), None),
        timeout=STEP,
        what="the interaction callback",
    )
    assert callback.payload["type"] == 5  # deferred, "Mentat is thinking..."
    assert not int(callback.payload.get("data", {}).get("flags", 0)) & 64  # public

    followup: Request = await fake.wait_for(
        lambda: next(iter(fake.calls("POST", f"/webhooks/{fake.application_id}/{token}")), None),
        timeout=STEP,
        what="the follow-up with the map",
    )
    assert followup.payload["content"] == "The board now."
    assert [a["filename"] for a in followup.payload["attachments"]] == ["map.png"]
    (upload,) = followup.files
    assert upload.filename == "map.png" and upload.data.startswith(PNG)
    assert len(upload.data) > 10_000


async def test_an_action_is_answered_and_announced_with_a_map(live: Live) -> None:
    fake, bot = live.fake, live.bot
    game_id = await live.start_game()
    state = bot.app.session(game_id).state
    assert state is not None
    first = state.to_act()
    assert first is not None
    table = fake.channel("dune-table").id
    interaction_id, token = await fake.push_slash(
        "pass",
        user_id=MODERATOR,
        options=[{"name": "faction", "type": 3, "value": first.value}],
    )

    followup: Request = await fake.wait_for(
        lambda: next(iter(fake.calls("POST", f"/webhooks/{fake.application_id}/{token}")), None),
        timeout=STEP,
        what="the moderator's confirmation",
    )
    (callback,) = fake.calls("POST", f"/interactions/{interaction_id}/{token}/")
    assert callback.payload["type"] == 5 and int(callback.payload["data"]["flags"]) & 64
    assert followup.payload["content"] == "Done: you passed your shipment."
    assert int(followup.payload["flags"]) & 64  # ephemeral: only the moderator sees it

    said = f"{first.label} does not ship."
    announced: Request = await fake.wait_for(
        lambda: next(
            (
                r
                for r in fake.calls("POST", f"/channels/{table}/messages")
                if said in r.payload["content"]
            ),
            None,
        ),
        timeout=STEP,
        what="the public announcement",
    )
    assert not announced.files  # the words at once; the map comes to that message later
    mapped: Request = await fake.wait_for(
        lambda: next(
            (r for r in fake.calls("PATCH", f"/channels/{table}/messages/") if r.files), None
        ),
        timeout=STEP,
        what="the map attached to the announcement",
    )
    assert [f.filename for f in mapped.files] == ["map.png"]
    assert mapped.files[0].data.startswith(PNG)
    assert fake.requests.index(announced) < fake.requests.index(mapped)
    assert bot.app.session(game_id).state.public_view().step == "move"  # type: ignore[union-attr]


async def test_a_wrong_token_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with FakeDiscord(lifetime=20) as fake:
        monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
        store = await Store.open(tmp_path / "mentat.db")
        bot = build(store, clock=FakeClock(), dev_guild_id=fake.guild_id)
        try:
            with pytest.raises(discord.LoginFailure):
                await asyncio.wait_for(bot.login("not-the-token"), STEP)
            assert not fake.calls("PUT", "/commands")
        finally:
            await bot.close()
            await store.close()
