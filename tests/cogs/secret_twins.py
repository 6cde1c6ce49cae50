"""Two games that differ only in a secret, played side by side through Discord (simcord).

The reader's attack on a choice conditioned on a secret (issue 23 §1): play two games whose
positions differ only in something nobody else may know (a card in a hand, a faction's
spice), give both the same public inputs (the same players' answers, the same waits), and
compare everything a reader sees: the table's and the spectators' channels (each message's
text, in order, with each player's mention named by its faction, and the bytes of every map
and picture attached), and the public view the maps are drawn from (with its "to act"
marks). Up to the point the secret is played, the two must be identical.

Both games run in one simcord world on one fake clock, so their deadlines read alike; each
input is given to the first game, then to the second, and the channels compared after it.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import simcord

from rules.factions import Faction
from rules.game import GameState
from tests.cogs.conftest import Bots, Table, make_table
from tests.cogs.turn_helpers import start_at

USER = re.compile(r"<@!?(\d+)>")
CHANNEL = re.compile(r"<#(\d+)>")
Step = Callable[[Table], Awaitable[Any]]


@dataclass
class Twins:
    """Two tables (``first``, ``second``) whose games differ only in a secret."""

    env: simcord.Env
    bots: Bots
    first: Table
    second: Table

    @property
    def tables(self) -> tuple[Table, Table]:
        return self.first, self.second

    async def start(self, first: GameState, second: GameState) -> None:
        """Each table's game restarted at its position (``/game start position:``)."""
        await start_at(self.first, first)
        await start_at(self.second, second)
        self.check("the positions were given")

    async def each(self, step: Step, what: str, *, check: bool = True) -> None:
        """The same public input (``step``) in both games, then the comparison (without
        ``check``: a player still to answer by hand what an order answered at once)."""
        for t in self.tables:
            await step(t)
        if check:
            self.check(what)

    async def wait(self, seconds: float, what: str) -> None:
        """Time passes for both games alike (deadlines, reminders, defaults)."""
        sessions = [t.session for t in self.tables]

        def settle() -> Awaitable[None]:
            """Before a sleeper wakes (either game's): done once the woken game is idle."""
            woken = [asyncio.ensure_future(s.next_idle()) for s in sessions]

            async def settled() -> None:
                await asyncio.wait(woken, return_when=asyncio.FIRST_COMPLETED)
                for session in sessions:
                    await session.until_idle()

            return settled()

        for session in sessions:
            await session.until_idle()
        await self.bots.clock.advance(seconds, settle=settle)
        self.check(what)

    def check(self, what: str) -> None:
        """Everything public is the same in both games."""
        one, two = (seen(t) for t in self.tables)
        for n, (a, b) in enumerate(zip(one, two, strict=False)):
            assert a == b, f"after {what}: public message {n} differs:\n{a}\n---\n{b}"
        assert len(one) == len(two), f"after {what}: {len(one)} public messages against {len(two)}"
        views = [t.state().public_view().to_dict() for t in self.tables]
        assert views[0] == views[1], f"after {what}: the public views (the maps' input) differ"

    def waiting(self) -> tuple[Faction, ...]:
        """Whom both games wait on (the same, or the check failed)."""
        found: tuple[Faction, ...] = self.first.state().public_view().game.waiting
        return found


async def twin_tables(env: simcord.Env, bots: Bots) -> Twins:
    """Two whole games with six players, a map after every action."""
    first = await make_table(env, kind="whole_game", maps="action")
    second = await make_table(env, kind="whole_game", maps="action")
    return Twins(env, bots, first, second)


def seen(t: Table) -> list[str]:
    """Every message of the table's and the spectators' channels, in order: its channel,
    its text (a player's mention named by its faction, a channel by its name), and the
    bytes of each attachment (the maps, the battles' pictures)."""
    names = {str(member.id): f"@{f.value}" for f, member in t.players.items()}
    names[str(t.moderator.id)] = "@moderator"
    channels = {str(c.id): f"#{name}" for name, c in t.guild.channels.items()}
    out = []
    for label, channel in (("table", t.table), ("spectators", t.spectators)):
        for message in channel.history():
            if message.flags.ephemeral:
                continue
            text = USER.sub(lambda m: names.get(m[1], "@someone"), message.content or "")
            text = CHANNEL.sub(lambda m: channels.get(m[1], "#channel"), text)
            files = [attachment_bytes(t, a) for a in message.attachments]
            out.append(f"[{label}] {text} {files}")
    return out


def attachment_bytes(t: Table, attachment: Any) -> str:
    """An attachment as its name and a digest of its bytes (the picture itself)."""
    data = bytes(t.env.backend.cdn.get(attachment.url) or b"")
    return f"{attachment.filename}:{len(data)}:{hashlib.sha256(data).hexdigest()}"
