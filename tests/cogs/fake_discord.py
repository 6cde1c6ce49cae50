"""A loopback fake of Discord: just enough REST API v10 and gateway for smoke tests.

An aiohttp application on 127.0.0.1 (a random free port) that answers the calls
discord.py makes to log in, sync slash commands, answer an interaction, send a
follow-up and post a channel message, and a JSON (uncompressed) websocket
gateway that says HELLO, takes IDENTIFY, sends READY with the guilds of the shard it
names and can push an INTERACTION_CREATE to the connection of the guild's shard (as
Discord does: ``(guild_id >> 22) % shard_count``). Everything it receives is recorded for
the test to assert.

It never listens anywhere but 127.0.0.1, and it stops by itself after
``lifetime`` seconds even if the test forgets to stop it.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import BodyPartReader, WSMsgType, web

HOST = "127.0.0.1"
API = "/api/v10"
ALL_PERMISSIONS = str((1 << 50) - 1)
MAX_BODY = 32 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Upload:
    """One file of a multipart request."""

    filename: str
    content_type: str
    data: bytes


@dataclass(frozen=True, slots=True)
class Request:
    """One recorded REST call: its route, JSON payload and uploaded files."""

    method: str
    path: str
    payload: Any
    files: tuple[Upload, ...] = ()
    authorization: str | None = None


@dataclass
class Channel:
    id: int
    name: str


@dataclass
class FakeDiscord:
    """The fake server; ``async with FakeDiscord() as fake:`` starts and stops it."""

    token: str = "fake-token"
    lifetime: float = 60.0
    application_id: int = 900_000_000_000_000_001
    bot_id: int = 900_000_000_000_000_002
    guild_id: int = 900_000_000_000_000_100
    channels: list[Channel] = field(
        default_factory=lambda: [
            Channel(900_000_000_000_000_101 + i, name)
            for i, name in enumerate(("dune-table", "dune-spectators", "dune-moderators", "dune"))
        ]
    )
    requests: list[Request] = field(default_factory=list)
    identify: dict[str, Any] | None = None
    port: int = 0
    extra_guilds: int = 0
    """More guilds, each with channels named like the first's (ids one shard step apart)."""
    shard_count: int = 1

    def __post_init__(self) -> None:
        self._ids = itertools.count(910_000_000_000_000_000)
        self._sequence = itertools.count(1)
        self._sockets: list[web.WebSocketResponse] = []
        self.guild_channels: dict[int, list[Channel]] = {self.guild_id: self.channels}
        for n in range(1, self.extra_guilds + 1):
            guild = self.guild_id + (n << 22)  # the next shard's
            self.guild_channels[guild] = [
                Channel(guild + 1 + i, c.name) for i, c in enumerate(self.channels)
            ]
        self.shard_sockets: dict[int, web.WebSocketResponse] = {}
        self.identifies: list[dict[str, Any]] = []
        self._runner: web.AppRunner | None = None
        self._reaper: asyncio.Task[None] | None = None
        self._changed = asyncio.Condition()
        self.ready_sent = asyncio.Event()

    # -- life cycle ---------------------------------------------------------------

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def start(self) -> None:
        app = web.Application(client_max_size=MAX_BODY)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", API + "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, HOST, 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        self._reaper = asyncio.create_task(self._stop_later(), name="fake-discord-lifetime")

    async def stop(self) -> None:
        if self._reaper is not None and self._reaper is not asyncio.current_task():
            self._reaper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reaper
        self._reaper = None
        for ws in list(self._sockets):
            with contextlib.suppress(Exception):
                await ws.close()
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    async def _stop_later(self) -> None:
        await asyncio.sleep(self.lifetime)
        await self.stop()

    @property
    def api_base(self) -> str:
        return f"http://{HOST}:{self.port}{API}"

    @property
    def gateway_url(self) -> str:
        return f"ws://{HOST}:{self.port}/gateway"

    @property
    def guild_ids(self) -> list[int]:
        return list(self.guild_channels)

    def shard_of(self, guild_id: int) -> int:
        return (guild_id >> 22) % self.shard_count

    def channel(self, name: str, guild_id: int | None = None) -> Channel:
        channels = self.guild_channels[guild_id or self.guild_id]
        return next(c for c in channels if c.name == name)

    def guild_of(self, channel_id: int) -> int:
        found = (g for g, cs in self.guild_channels.items() if any(c.id == channel_id for c in cs))
        return next(found, self.guild_id)

    def new_id(self) -> int:
        return next(self._ids)

    # -- what the test asserts on ---------------------------------------------------

    def calls(self, method: str, path_part: str) -> list[Request]:
        return [r for r in self.requests if r.method == method and path_part in r.path]

    async def wait_for(
        self, found: Callable[[], Any], *, timeout: float = 10.0, what: str = "a request"
    ) -> Any:
        """Wait until ``found()`` is truthy (re-checked after every request)."""

        async def poll() -> Any:
            async with self._changed:
                while not (result := found()):
                    await self._changed.wait()
                return result

        try:
            return await asyncio.wait_for(poll(), timeout)
        except TimeoutError:
            seen = [f"{r.method} {r.path}" for r in self.requests]
            raise AssertionError(f"timed out waiting for {what}; requests: {seen}") from None

    async def _record(self, request: Request) -> None:
        async with self._changed:
            self.requests.append(request)
            self._changed.notify_all()

    # -- REST ------------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        payload, files = await _body(request)
        await self._record(
            Request(request.method, path, payload, files, request.headers.get("Authorization"))
        )
        parts = path.strip("/").split("/")
        method = request.method
        if method == "GET" and path == "/users/@me":
            return self._authorized(request, self.user())
        if method == "GET" and path == "/oauth2/applications/@me":
            return self._authorized(request, self.application())
        if method == "GET" and path in ("/gateway", "/gateway/bot"):
            return _json(
                {
                    "url": self.gateway_url,
                    "shards": self.shard_count,
                    "session_start_limit": {
                        "total": 1000,
                        "remaining": 999,
                        "reset_after": 0,
                        "max_concurrency": 1,
                    },
                }
            )
        if method == "PUT" and parts[0] == "applications" and parts[-1] == "commands":
            guild = int(parts[3]) if len(parts) == 5 else None
            return _json([self._command(c, guild) for c in payload or []])
        if method == "POST" and parts[0] == "interactions" and parts[-1] == "callback":
            return _json(self._callback(int(parts[1]), payload, files))
        if method == "POST" and parts[0] == "webhooks" and len(parts) == 3:
            return _json(self.message(self.channels[0].id, payload, files))
        if method == "PATCH" and parts[0] == "webhooks" and parts[-2] == "messages":
            return _json(self.message(self.channels[0].id, payload, files))
        if method == "POST" and parts[0] == "channels" and parts[-1] == "messages":
            return _json(self.message(int(parts[1]), payload, files))
        if method == "PATCH" and parts[0] == "channels" and parts[-2] == "messages":
            return _json(self.message(int(parts[1]), payload, files) | {"id": parts[-1]})
        if method == "GET" and parts[0] == "channels" and len(parts) == 2:
            found = [c for cs in self.guild_channels.values() for c in cs if c.id == int(parts[1])]
            if found:
                return _json(self.channel_payload(found[0]))
        return _json({"message": "Unknown route (fake)", "code": 0}, status=404)

    def _authorized(self, request: web.Request, body: dict[str, Any]) -> web.Response:
        if request.headers.get("Authorization") != f"Bot {self.token}":
            return _json({"message": "401: Unauthorized", "code": 0}, status=401)
        return _json(body)

    def _command(self, command: dict[str, Any], guild_id: int | None) -> dict[str, Any]:
        out = {
            "id": str(self.new_id()),
            "application_id": str(self.application_id),
            "version": str(self.new_id()),
            "type": 1,
            "options": [],
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            **command,
        }
        if guild_id is not None:
            out["guild_id"] = str(guild_id)
        return out

    def _callback(
        self, interaction_id: int, payload: Any, files: tuple[Upload, ...]
    ) -> dict[str, Any]:
        kind = int((payload or {}).get("type", 4))
        data = (payload or {}).get("data") or {}
        ephemeral = bool(int(data.get("flags", 0) or 0) & 64)
        out: dict[str, Any] = {
            "interaction": {
                "id": str(interaction_id),
                "type": 2,
                "response_message_id": str(self.new_id()),
                "response_message_loading": kind == 5,
                "response_message_ephemeral": ephemeral,
            }
        }
        if kind in (4, 5):
            out["resource"] = {
                "type": kind,
                "message": self.message(self.channels[0].id, data, files),
            }
        return out

    # -- payloads -----------------------------------------------------------------------

    def user(self) -> dict[str, Any]:
        return {
            "id": str(self.bot_id),
            "username": "Mentat",
            "discriminator": "0",
            "global_name": None,
            "avatar": None,
            "bot": True,
            "flags": 0,
            "verified": True,
            "mfa_enabled": False,
        }

    def application(self) -> dict[str, Any]:
        return {
            "id": str(self.application_id),
            "name": "Mentat",
            "description": "",
            "icon": None,
            "bot_public": False,
            "bot_require_code_grant": False,
            "owner": {**self.user(), "id": str(self.new_id()), "bot": False, "username": "owner"},
            "verify_key": "0" * 64,
            "flags": 0,
        }

    def channel_payload(self, channel: Channel) -> dict[str, Any]:
        guild = self.guild_of(channel.id)
        return {
            "id": str(channel.id),
            "type": 0,
            "guild_id": str(guild),
            "name": channel.name,
            "position": self.guild_channels[guild].index(channel),
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
        }

    def guild(self, guild_id: int | None = None) -> dict[str, Any]:
        now = datetime.now(UTC).isoformat()
        guild_id = guild_id or self.guild_id
        return {
            "id": str(guild_id),
            "name": "Arrakis",
            "icon": None,
            "owner_id": str(self.new_id()),
            "unavailable": False,
            "member_count": 1,
            "large": False,
            "features": [],
            "emojis": [],
            "stickers": [],
            "roles": [
                {
                    "id": str(guild_id),
                    "name": "@everyone",
                    "permissions": ALL_PERMISSIONS,
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "channels": [self.channel_payload(c) for c in self.guild_channels[guild_id]],
            "threads": [],
            "members": [
                {
                    "user": self.user(),
                    "roles": [],
                    "joined_at": now,
                    "deaf": False,
                    "mute": False,
                    "flags": 0,
                }
            ],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "system_channel_flags": 0,
        }

    def message(
        self, channel_id: int, payload: Any, files: tuple[Upload, ...] = ()
    ) -> dict[str, Any]:
        payload = payload if isinstance(payload, dict) else {}
        return {
            "id": str(self.new_id()),
            "channel_id": str(channel_id),
            "guild_id": str(self.guild_of(channel_id)),
            "author": self.user(),
            "content": payload.get("content") or "",
            "timestamp": datetime.now(UTC).isoformat(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [
                {
                    "id": str(self.new_id()),
                    "filename": f.filename,
                    "size": len(f.data),
                    "url": f"http://{HOST}:{self.port}/attachments/{f.filename}",
                    "proxy_url": f"http://{HOST}:{self.port}/attachments/{f.filename}",
                    "content_type": f.content_type,
                }
                for f in files
            ],
            "embeds": [],
            "pinned": False,
            "type": 0,
            "flags": int(payload.get("flags", 0) or 0),
            "components": [],
        }

    # -- the gateway ---------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._sockets.append(ws)
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": 45_000}, "s": None, "t": None})
        shard: int | None = None
        try:
            async for message in ws:
                if message.type != WSMsgType.TEXT:
                    break
                frame = json.loads(message.data)
                if frame.get("op") == 1:  # heartbeat
                    await ws.send_json({"op": 11, "d": None, "s": None, "t": None})
                elif frame.get("op") == 2:  # identify
                    self.identify = frame["d"]
                    if frame["d"].get("token") != self.token:
                        await ws.close(code=4004, message=b"Authentication failed.")
                        break
                    shard, count = frame["d"].get("shard") or (0, 1)
                    if count != self.shard_count or not 0 <= shard < count:
                        await ws.close(code=4010, message=b"Invalid shard.")
                        break
                    async with self._changed:
                        self.identifies.append(frame["d"])
                        self.shard_sockets[shard] = ws
                        self._changed.notify_all()
                    await self._dispatch(ws, "READY", self._ready(shard))
                    self.ready_sent.set()
        finally:
            self._sockets.remove(ws)
            if shard is not None and self.shard_sockets.get(shard) is ws:
                del self.shard_sockets[shard]
        return ws

    def _ready(self, shard: int) -> dict[str, Any]:
        return {
            "v": 10,
            "user": self.user(),
            "guilds": [self.guild(g) for g in self.guild_channels if self.shard_of(g) == shard],
            "session_id": f"fake-session-{shard}",
            "resume_gateway_url": self.gateway_url,
            "shard": [shard, self.shard_count],
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }

    async def _dispatch(self, ws: web.WebSocketResponse, event: str, data: Any) -> None:
        await ws.send_json({"op": 0, "t": event, "s": next(self._sequence), "d": data})

    async def push_slash(
        self,
        name: str,
        *,
        channel: str = "dune-table",
        user_id: int,
        options: list[dict[str, Any]] | None = None,
        command_id: int | None = None,
        guild_id: int | None = None,
    ) -> tuple[int, str]:
        """Send an INTERACTION_CREATE for ``/name`` from ``user_id`` in ``guild_id`` (the
        first guild by default) to the connection of its shard; its id and token."""
        guild_id = guild_id or self.guild_id
        socket = self.shard_sockets.get(self.shard_of(guild_id))
        if socket is None:
            raise AssertionError(f"no gateway connection for the shard of guild {guild_id}")
        interaction_id, token = self.new_id(), f"interaction-token-{self.new_id()}"
        where = self.channel(channel, guild_id)
        now = datetime.now(UTC).isoformat()
        user = {**self.user(), "id": str(user_id), "username": f"user{user_id}", "bot": False}
        data = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": 2,
            "token": token,
            "version": 1,
            "guild_id": str(guild_id),
            "channel_id": str(where.id),
            "channel": self.channel_payload(where),
            "member": {
                "user": user,
                "roles": [],
                "joined_at": now,
                "deaf": False,
                "mute": False,
                "flags": 0,
                "permissions": ALL_PERMISSIONS,
            },
            "app_permissions": ALL_PERMISSIONS,
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild_id)},
            "context": 0,
            "attachment_size_limit": 26_214_400,
            "data": {
                "id": str(command_id or self.new_id()),
                "name": name,
                "type": 1,
                "guild_id": str(guild_id),
                "options": options or [],
            },
        }
        await self._dispatch(socket, "INTERACTION_CREATE", data)
        return interaction_id, token


def _json(body: Any, *, status: int = 200) -> web.Response:
    """A JSON answer with Discord's exact content type (discord.py compares it verbatim)."""
    return web.Response(
        body=json.dumps(body).encode(), status=status, headers={"Content-Type": "application/json"}
    )


async def _body(request: web.Request) -> tuple[Any, tuple[Upload, ...]]:
    """The JSON payload of a request and its files (multipart: ``payload_json`` + files)."""
    if request.content_type.startswith("multipart/"):
        payload: Any = None
        files: list[Upload] = []
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader):
                continue
            data = await part.read(decode=False)
            if part.filename:
                kind = part.headers.get("Content-Type", "application/octet-stream")
                files.append(Upload(part.filename, kind, bytes(data)))
            elif part.name == "payload_json":
                payload = json.loads(bytes(data))
        return payload, tuple(files)
    raw = await request.read()
    if not raw:
        return None, ()
    try:
        return json.loads(raw), ()
    except ValueError:
        return raw.decode("utf-8", "replace"), ()
