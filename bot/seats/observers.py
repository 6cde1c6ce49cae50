"""Observers per game: one user reads one game's spectators' channel, not every game's.

The access itself is Discord's state (a permission overwrite on the game's spectators'
channel, set by :mod:`cogs.seats.observe`), so it survives a restart without the store.
This module says which game and channel a request is about, and refuses in words: a game
that does not exist (or is another server's), a finished game, and a player of the game
(its table already shows them everything its spectators read)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.store import Store
from bot.store.errors import UnknownGameError
from rules.errors import MentatError
from rules.factions import Faction


class ObserverError(MentatError):
    """A request to observe a game, or to stop, that cannot be carried out."""


@dataclass(frozen=True, slots=True)
class Observed:
    """The game a request is about and its spectators' channel (None: none is bound)."""

    game_id: int
    spectators: int | None

    @property
    def name(self) -> str:
        return f"game #{self.game_id}"


async def to_observe(store: Store, guild_id: int, game_id: int, user_id: int) -> Observed:
    """The game ``user_id`` may start observing, or ObserverError saying why not."""
    observed = await _of_server(store, guild_id, game_id)
    record = await store.game(game_id)
    if not record.is_active:
        raise ObserverError(f"{observed.name} is finished: there is nothing left to watch")
    seats = await store.seats(game_id)
    played = next((f for f, user in seats.items() if user == user_id), None)
    if played is not None:
        raise ObserverError(_plays(observed, played))
    return observed


async def to_leave(store: Store, guild_id: int, game_id: int) -> Observed:
    """The game an observer stops observing (finished or not)."""
    return await _of_server(store, guild_id, game_id)


async def _of_server(store: Store, guild_id: int, game_id: int) -> Observed:
    try:
        record = await store.game(game_id)
    except UnknownGameError:
        record = None
    if record is None or record.guild_id != guild_id:
        raise ObserverError(f"there is no game #{game_id} in this server")
    spectators = record.channels.get("spectators")
    return Observed(game_id, int(spectators) if spectators else None)


def _plays(observed: Observed, faction: Faction) -> str:
    return (
        f"you play {faction.label} in {observed.name}: its table already shows you everything "
        "its spectators read, so there is nothing more to observe"
    )
