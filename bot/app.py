"""The application: every active game's session, over one store and one publisher.

This is what a front end (the Discord cogs, the demo) talks to. It never
imports discord: channels are plain integer ids, players are user ids.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.clock import Clock, SystemClock
from bot.maps import MapMaker
from bot.publisher import Publisher
from bot.session import PhaseSession, SessionError, Timing
from bot.store import GameRecord, Store
from rules.factions import Faction
from rules.game import GameState

log = logging.getLogger(__name__)

CHANNEL_ROLES = ("table", "spectators", "moderators", "category")


@dataclass(frozen=True, slots=True)
class Seat:
    game_id: int
    faction: Faction | None  # None: not seated (a moderator or a spectator)
    moderator: bool


class Mentat:
    """Runs the sessions of every active game; finds a game from a channel."""

    def __init__(self, store: Store, publisher: Publisher, clock: Clock | None = None) -> None:
        self.store = store
        self.publisher = publisher
        self.clock = clock or SystemClock()
        self.sessions: dict[int, PhaseSession] = {}
        self._channels: dict[int, int] = {}

    async def start(self) -> None:
        """Load every active game and start its session."""
        for record in await self.store.games():
            try:
                await self._start_session(record)
            except Exception:
                log.exception("could not start game %d", record.id)

    async def stop(self) -> None:
        for session in self.sessions.values():
            await session.stop()
        self.sessions.clear()

    async def create_game(
        self,
        guild_id: int,
        start: GameState,
        *,
        channels: Mapping[str, int],
        options: Mapping[str, Any] | None = None,
        moderators: tuple[int, ...] = (),
    ) -> PhaseSession:
        """Store a new game at the start of its Shipment & Movement phase and run it."""
        game_id = await self.store.create_game(
            guild_id,
            start,
            channels=channels,
            options=options or {},
            variants=[k for k, v in start.rules.to_dict()["variants"].items() if v],
            moderators=moderators,
        )
        return await self._start_session(await self.store.game(game_id))

    async def _start_session(self, record: GameRecord) -> PhaseSession:
        options = dict(record.options)
        session = PhaseSession(
            record.id,
            store=self.store,
            publisher=self.publisher,
            clock=self.clock,
            timing=Timing.from_options(options),
            renderer=MapMaker(str(options.get("maps", "action")), turn=options.get("turn")),
        )
        await session.start()
        self.sessions[record.id] = session
        for channel in record.channels.values():
            self._channels[int(channel)] = record.id
        for channel in options.get("private_channels", {}).values():
            self._channels[int(channel)] = record.id
        return session

    def game_in(self, channel_id: int) -> int:
        """The game a channel belongs to; SessionError if none."""
        game_id = self._channels.get(channel_id)
        if game_id is None:
            raise SessionError("this channel belongs to no Mentat game")
        return game_id

    def session(self, game_id: int) -> PhaseSession:
        try:
            return self.sessions[game_id]
        except KeyError:
            raise SessionError(f"game #{game_id} is not running") from None

    def register_channel(self, channel_id: int, game_id: int) -> None:
        self._channels[channel_id] = game_id

    async def seat_of(self, game_id: int, user_id: int) -> Seat:
        seats = await self.store.seats(game_id)
        faction = next((f for f, u in seats.items() if u == user_id), None)
        moderator = await self.store.is_moderator(game_id, user_id)
        return Seat(game_id, faction, moderator)

    async def require_player(self, game_id: int, user_id: int, faction: Faction) -> None:
        """Only the seated player of a faction, or a moderator, acts for it."""
        seat = await self.seat_of(game_id, user_id)
        if seat.faction is not faction and not seat.moderator:
            raise SessionError(f"you do not hold the {faction.label} seat in this game")

    async def require_moderator(self, game_id: int, user_id: int) -> None:
        if not await self.store.is_moderator(game_id, user_id):
            raise SessionError("only this game's moderators may do that")
