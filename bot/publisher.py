"""How the session tells the world what happened, without knowing about Discord.

Hidden information is a type here too: the public log and spectators only
accept a :class:`PublicNotice`, which can only be built from public events and
a :class:`~rules.view.PublicView`; a faction's secrets travel in a
:class:`PrivateNotice` addressed to that faction alone.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from rules.actions import FactionAction, action_to_dict
from rules.factions import Faction

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SceneWords:
    """What a scene shows, in words."""

    name: str  # what its files and addresses are called: "battle" (battle.png, battle-001.png)
    title: str  # the scene in a few words: "The battle in Arrakeen"
    alt: str  # what the picture shows, for those who cannot see it
    caption: str  # its place in the game's story: "Battle 2: the result"

    def __post_init__(self) -> None:
        if not self.name.isalpha() or not self.name.islower():
            raise ValueError(f"a scene's name is one lowercase word, not {self.name!r}")


class ScenePicture(bytes):
    """A scene's PNG with its words: a picture pipeline that carries PNG bytes carries its
    words with it. Equal to its bytes (the words describe it, they are not it)."""

    words: SceneWords

    def __new__(cls, png: bytes, words: SceneWords) -> ScenePicture:
        picture = super().__new__(cls, png)
        picture.words = words
        return picture

    def __reduce__(self) -> tuple[type[ScenePicture], tuple[bytes, SceneWords]]:
        return ScenePicture, (bytes(self), self.words)


def scene_picture(png: bytes | None) -> ScenePicture | None:
    """``png`` as the scene's picture it is (None: no picture). Raises TypeError for bare
    bytes: a scene's picture never travels without its words."""
    if png is None or isinstance(png, ScenePicture):
        return png
    raise TypeError("a scene's picture comes with its words (ScenePicture), not as bare bytes")


@dataclass(frozen=True, slots=True)
class PublicNotice:
    """Text (and maybe a map) that anyone may see. Build it with :mod:`bot.words.narrate`."""

    text: str
    picture: bytes | None = None
    game_id: int = 0
    closeup: bytes | None = None  # the territories the action touched, legible on a phone
    mention: Faction | None = None  # whose player the table's message pings: whose turn it is
    scene: ScenePicture | None = None  # a phase's picture of the moment, with its words
    charts: bytes | None = None  # the game's charts at its end (charts.png, bot.render.charts)
    caption: str | None = None  # what the close-up shows, in words


PLAYER_MARK = re.compile(r"\{player:([a-z_]+)\}")


def player(faction: Faction) -> str:
    """Where a public text names the player seated at ``faction``: the publisher writes
    them (on Discord, a mention that pings only as the notice's ``mention`` allows)."""
    return f"{{player:{faction.value}}}"


def fill_players(text: str, name: Callable[[Faction], str]) -> str:
    """``text`` with each :func:`player` mark replaced by ``name`` of its faction."""
    return PLAYER_MARK.sub(lambda m: name(Faction(m.group(1))), text)


@dataclass(frozen=True, slots=True)
class Answer:
    """One button of a prompt: the engine's concrete action it submits, in the words of its
    phase (:mod:`bot.words.answers`). A click finds it again by its :attr:`key` among the
    answers of the prompt as it reads at the click, and submits that very action."""

    action: FactionAction
    label: str  # the button's words: "Decline: advisor", "Bid 4 (+1)"
    done: str  # the click's reply, in the button's own words: "Declined", "You bid 4"
    quiet: bool = False  # a pass or a decline: the grey button

    @property
    def key(self) -> str:
        """The action's identity, short enough for a button's custom id (12 hex digits of
        a hash of its whole record: two different actions never share a prompt's key)."""
        record = json.dumps(action_to_dict(self.action), sort_keys=True)
        return hashlib.sha1(record.encode(), usedforsecurity=False).hexdigest()[:12]


@dataclass(frozen=True, slots=True)
class PrivateNotice:
    """Something for one faction only: its prompts, its spice, its standing orders."""

    faction: Faction
    text: str
    answers: tuple[Answer, ...] = ()  # its buttons: the concrete actions it offers
    picture: bytes | None = None
    token: str | None = None  # the wait a prompt was made for: its answers are bound to it
    ping: bool = False  # a prompt that pings its player: the wait asking them began


@dataclass(frozen=True, slots=True)
class ModeratorNotice:
    text: str


class DeliveryError(Exception):
    """A message did not go out. ``retryable``: trying again later may work (a 5xx, a
    429: ``retry_after`` seconds, when Discord said); else it will not until someone acts."""

    def __init__(self, why: str, *, retryable: bool, retry_after: float | None = None) -> None:
        super().__init__(why)
        self.why = why
        self.retryable = retryable
        self.retry_after = retry_after


class ChannelGoneError(DeliveryError):
    """The game's channel for ``role`` ("table", "spectators", "moderators", "private":
    ``faction``'s) is deleted, unreachable, or the bot may not post there."""

    def __init__(self, role: str, why: str, *, faction: Faction | None = None) -> None:
        super().__init__(why, retryable=False)
        self.role = role
        self.faction = faction

    @property
    def where(self) -> str:
        """The channel in words ("the Atreides' private channel", "the table channel")."""
        if self.faction is not None:
            return f"the {self.faction.label} private channel"
        return f"the {self.role} channel"


class DirectMessagesClosedError(DeliveryError):
    """The user takes no direct messages from the bot (Discord's 50007): a digest goes to
    their private channel instead (:mod:`bot.seats.pinger`)."""

    def __init__(self, why: str) -> None:
        super().__init__(why, retryable=False)


class AttachmentRefusedError(ChannelGoneError):
    """The channel takes no files from the bot (no Attach Files): the text alone may still
    go out there."""


class Publisher(Protocol):
    """Implemented by the Discord cogs (and by the console for the demo).

    A message that does not go out raises :class:`DeliveryError` (or one of its kinds);
    the session never calls a publisher directly but through :class:`bot.delivery.Delivery`.
    """

    async def public(self, game_id: int, notice: PublicNotice) -> str | None:
        """The table channel: the public log and maps. Returns a reference that finds the
        posted message again (for :meth:`attach_map`), or None."""
        ...

    async def spectators(self, game_id: int, notice: PublicNotice) -> str | None:
        """The read-only spectator channel (returns as :meth:`public` does)."""
        ...

    async def attach_map(self, game_id: int, ref: str, notice: PublicNotice) -> None:
        """The public message ``ref`` (from :meth:`public` or :meth:`spectators`) now shows
        ``notice``: its text as posted, with ``notice.scene``, ``notice.picture`` and
        ``notice.closeup`` attached (those it has); without any, the text's added note (why
        no picture came) instead.
        Raises :class:`AttachmentRefusedError` when the channel takes no files."""
        ...

    async def private(self, game_id: int, notice: PrivateNotice) -> None:
        """The private channel of ``notice.faction``."""
        ...

    async def moderators(self, game_id: int, notice: ModeratorNotice) -> None:
        """The moderators' channel."""
        ...

    async def ask(self, game_id: int, notice: PrivateNotice) -> str | None:
        """A prompt in the private channel of ``notice.faction``: its text and its
        ``choices`` as answers bound to ``notice.token``. Returns a reference that finds
        the message again (kept by the session, across restarts), or None."""
        ...

    async def edit_prompt(self, game_id: int, ref: str, notice: PrivateNotice) -> None:
        """The prompt message ``ref`` now shows ``notice.text`` (e.g. a new deadline)."""
        ...

    async def close_prompt(self, game_id: int, ref: str, text: str) -> None:
        """The prompt message ``ref`` says how it closed (``text``) and offers no answers."""
        ...


@dataclass
class RecordingPublisher:
    """Keeps everything published, per audience (tests, the demo's files)."""

    public_notices: list[tuple[int, PublicNotice]] = field(default_factory=list)
    spectator_notices: list[tuple[int, PublicNotice]] = field(default_factory=list)
    private_notices: list[tuple[int, PrivateNotice]] = field(default_factory=list)
    moderator_notices: list[tuple[int, ModeratorNotice]] = field(default_factory=list)
    prompts: dict[str, PrivateNotice] = field(default_factory=dict)  # ref: as shown now
    closed: dict[str, str] = field(default_factory=dict)  # ref: how it closed
    attached: list[str] = field(default_factory=list)  # refs of public notices, as edited

    async def public(self, game_id: int, notice: PublicNotice) -> str | None:
        """The notice as shown now (a map attached later replaces it in place)."""
        self.public_notices.append((game_id, notice))
        return f"public:{len(self.public_notices) - 1}"

    async def spectators(self, game_id: int, notice: PublicNotice) -> str | None:
        self.spectator_notices.append((game_id, notice))
        return f"spectators:{len(self.spectator_notices) - 1}"

    async def attach_map(self, game_id: int, ref: str, notice: PublicNotice) -> None:
        audience, index = ref.split(":")
        notices = self.public_notices if audience == "public" else self.spectator_notices
        notices[int(index)] = (game_id, notice)
        self.attached.append(ref)

    async def private(self, game_id: int, notice: PrivateNotice) -> None:
        self.private_notices.append((game_id, notice))

    async def moderators(self, game_id: int, notice: ModeratorNotice) -> None:
        self.moderator_notices.append((game_id, notice))

    async def ask(self, game_id: int, notice: PrivateNotice) -> str | None:
        self.private_notices.append((game_id, notice))
        ref = str(len(self.prompts))
        self.prompts[ref] = notice
        return ref

    async def edit_prompt(self, game_id: int, ref: str, notice: PrivateNotice) -> None:
        self.prompts[ref] = notice

    async def close_prompt(self, game_id: int, ref: str, text: str) -> None:
        self.closed[ref] = text

    def open_prompts_for(self, faction: Faction) -> list[PrivateNotice]:
        """The faction's prompts not closed yet, as they read now."""
        return [n for r, n in self.prompts.items() if n.faction is faction and r not in self.closed]

    def private_for(self, faction: Faction) -> list[PrivateNotice]:
        return [n for _, n in self.private_notices if n.faction is faction]
