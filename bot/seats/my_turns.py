"""/my-turns: every game of a server that waits on the caller, with its deadline and the
open prompt (issue 25).

Built from public facts and the caller's own seats only: which games wait on which
factions (a session's current wait), each wait's deadline, and where the caller's own
prompt was posted (their private channel). Nothing about another faction is said."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from bot.session.prompts import deadline_text
from rules.factions import Faction

if TYPE_CHECKING:
    from bot.app import Mentat

LIMIT = 2000
"""Discord's limit on a message's content."""
ASKED = {
    "step": "your turn",
    "prompt": "a question for you",
    "choice": "your choice",
}
NOBODY_WAITS = "No game of this server waits on you now."


@dataclass(frozen=True, slots=True)
class MyTurn:
    """One game waiting on the caller's faction."""

    game_id: int
    faction: Faction
    kind: str  # the wait's kind (bot.waits.Wait)
    deadline: datetime | None
    paused_left: timedelta | None
    prompt: tuple[int, int] | None  # (channel id, message id) of the open prompt
    private: int | None  # the faction's private channel

    def sort_key(self) -> tuple[int, float, int]:
        if self.paused_left is not None or self.deadline is None:
            return (1, 0.0, self.game_id)
        return (0, self.deadline.timestamp(), self.game_id)


async def my_turns(app: Mentat, guild_id: int, user_id: int) -> list[MyTurn]:
    """The server's running games whose current wait includes ``user_id``'s faction,
    soonest deadline first (paused games last)."""
    found: list[MyTurn] = []
    for record in await app.store.games(guild_id):
        session = app.sessions.get(record.id)
        if session is None or session.state is None:
            continue
        faction = await app.faction_of(record.id, user_id)
        wait = session.current_wait() if faction is not None else None
        if faction is None or wait is None or faction not in wait.factions:
            continue
        timers = session.settings.timers
        found.append(
            MyTurn(
                record.id,
                faction,
                wait.kind,
                timers.deadline_of(faction),
                timers.paused_left,
                _message(timers.asked.get(faction)),
                session.settings.channels.private.get(faction),
            )
        )
    return sorted(found, key=MyTurn.sort_key)


def my_turns_text(turns: list[MyTurn], guild_id: int) -> str:
    """The list in words, within Discord's limit ("and N more" when it is cut)."""
    if not turns:
        return NOBODY_WAITS
    head = f"{_games(len(turns))} of this server {'waits' if len(turns) == 1 else 'wait'} on you:"
    lines = [_line(turn, guild_id) for turn in turns]
    for shown in range(len(lines), -1, -1):
        rest = len(lines) - shown
        tail = [f"…and {rest} more (the soonest deadlines are shown)."] if rest else []
        text = "\n".join([head, *lines[:shown], *tail])
        if len(text) <= LIMIT:
            return text
    return head[:LIMIT]


def _line(turn: MyTurn, guild_id: int) -> str:
    what = ASKED.get(turn.kind, "your answer")
    deadline = deadline_text(turn.deadline, turn.paused_left)
    if turn.prompt is not None:
        channel, message = turn.prompt
        where = f"https://discord.com/channels/{guild_id}/{channel}/{message}"
    elif turn.private is not None:
        where = f"<#{turn.private}>"
    else:
        where = "your private channel"
    return f"- Game #{turn.game_id}, {turn.faction.label}: {what}; deadline {deadline}. {where}"


def _message(ref: str | None) -> tuple[int, int] | None:
    """A posted message's reference ("channel:message") as ids; None if none or unreadable."""
    if not ref:
        return None
    parts = ref.split(":")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        return None
    return int(parts[0]), int(parts[1])


def _games(n: int) -> str:
    return "1 game" if n == 1 else f"{n} games"
