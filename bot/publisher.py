"""How the session tells the world what happened, without knowing about Discord.

Hidden information is a type here too: the public log and spectators only
accept a :class:`PublicNotice`, which can only be built from public events and
a :class:`~rules.view.PublicView`; a faction's secrets travel in a
:class:`PrivateNotice` addressed to that faction alone.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Protocol

from rules.factions import Faction

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class PublicNotice:
    """Text (and maybe a map) that anyone may see. Build it with :mod:`bot.narrate`."""

    text: str
    picture: bytes | None = None
    game_id: int = 0


@dataclass(frozen=True, slots=True)
class PrivateNotice:
    """Something for one faction only: its prompts, its spice, its standing orders."""

    faction: Faction
    text: str
    prompt: str | None = None  # the kind of prompt this asks about, if any
    choices: tuple[str, ...] = ()  # action names the faction may answer with
    picture: bytes | None = None


@dataclass(frozen=True, slots=True)
class ModeratorNotice:
    text: str


class Publisher(Protocol):
    """Implemented by the Discord cogs (and by the console for the demo)."""

    async def public(self, game_id: int, notice: PublicNotice) -> None:
        """The table channel: the public log and maps."""
        ...

    async def spectators(self, game_id: int, notice: PublicNotice) -> None:
        """The read-only spectator channel."""
        ...

    async def private(self, game_id: int, notice: PrivateNotice) -> None:
        """The private channel of ``notice.faction``."""
        ...

    async def moderators(self, game_id: int, notice: ModeratorNotice) -> None:
        """The moderators' channel."""
        ...


@dataclass
class RecordingPublisher:
    """Keeps everything published, per audience (tests, the demo's files)."""

    public_notices: list[tuple[int, PublicNotice]] = field(default_factory=list)
    spectator_notices: list[tuple[int, PublicNotice]] = field(default_factory=list)
    private_notices: list[tuple[int, PrivateNotice]] = field(default_factory=list)
    moderator_notices: list[tuple[int, ModeratorNotice]] = field(default_factory=list)

    async def public(self, game_id: int, notice: PublicNotice) -> None:
        self.public_notices.append((game_id, notice))

    async def spectators(self, game_id: int, notice: PublicNotice) -> None:
        self.spectator_notices.append((game_id, notice))

    async def private(self, game_id: int, notice: PrivateNotice) -> None:
        self.private_notices.append((game_id, notice))

    async def moderators(self, game_id: int, notice: ModeratorNotice) -> None:
        self.moderator_notices.append((game_id, notice))

    def private_for(self, faction: Faction) -> list[PrivateNotice]:
        return [n for _, n in self.private_notices if n.faction is faction]
