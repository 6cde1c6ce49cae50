"""Pings that follow the person (issue 25): one task of the application that, every
minute, asks :mod:`bot.seats.ping_schedule` which pings each running game owes and sends
them (and tells the moderators of a game without progress, :mod:`bot.seats.stall`); the
hushing of the pings a game makes itself (its prompts' and the table's
mentions) in a user's quiet hours; and the digest by direct message.

Read from outside the sessions: a game's wait through its public ``current_wait()``, its
deadline through its settings' timers; whom a wait asks and the storm order are public.
Each ping goes to its player's own private channel (or their direct messages); a digest
holds the public record's words and the player's own wait only.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from bot.pings import PingMark, PingPrefs, PingsError, hours
from bot.publisher import DeliveryError, DirectMessagesClosedError, PrivateNotice, fill_players
from bot.seats.my_turns import ASKED
from bot.seats.ping_schedule import (
    HEADS_UP,
    HUSHED,
    OWED,
    QUIET_OVER,
    GameWait,
    Ping,
    next_in_storm_order,
    plan,
)
from bot.seats.stall import StallWatch
from bot.session.prompts import deadline_text
from bot.store.history import History
from bot.waits import MODERATORS, STEP
from bot.words import ceremony
from rules.events import Event
from rules.factions import Faction
from rules.view import PublicView

if TYPE_CHECKING:
    from bot.app import Mentat
    from bot.session.session import PhaseSession

log = logging.getLogger(__name__)

EVERY = 60.0
"""Seconds of real time between two looks at the games (decisions use the app's clock)."""
LIMIT = 2000
DMS_CLOSED = (
    "Your direct messages are closed to Mentat, so your digest comes here. No direct "
    "message is tried again until you set `/pings digest on:True` again."
)


@runtime_checkable
class DirectMessages(Protocol):
    """A publisher that can also write to one user directly."""

    async def direct(self, user_id: int, text: str) -> None:
        """Raises :class:`DirectMessagesClosedError` when the user's DMs are closed."""
        ...


class Pinger:
    """The application's pings: one task for all its games."""

    def __init__(self, app: Mentat) -> None:
        self.app = app
        self._task: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        self.stalls = StallWatch(app)  # a game without progress, told to its moderators

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._loop(), name="mentat-pings")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _loop(self) -> None:
        """Every minute; a fake clock's sleepers are the sessions' own, so this sleeps in
        real time and tests call :meth:`tick` after moving their clock."""
        while True:
            await asyncio.sleep(EVERY)
            try:
                await self.tick()
            except Exception:
                log.exception("the pings' round failed")

    # -- the preferences -----------------------------------------------------------------

    async def prefs(self, guild_id: int, user_id: int) -> PingPrefs:
        return (await self.app.store.ping_prefs(guild_id)).get(user_id, PingPrefs())

    async def change(self, guild_id: int, user_id: int, **changes: object) -> PingPrefs:
        """One user's preferences with ``changes`` (refused whole by :class:`PingsError`)."""
        now = replace(await self.prefs(guild_id, user_id), **changes)  # type: ignore[arg-type]
        if now.digest and now.interval is None:
            raise PingsError(
                "a digest comes at your reminder interval: set one first "
                "(`/pings interval every:4h`), then the digest"
            )
        await self.app.store.set_ping_prefs(guild_id, user_id, now)
        return now

    # -- hushing -------------------------------------------------------------------------

    async def hush(self, game_id: int, user_id: int) -> bool:
        """Whether a ping of ``user_id`` by the game now falls in their quiet hours: then
        it is sent without pinging and one ping is owed once they end."""
        guild_id = (await self.app.store.game(game_id)).guild_id
        if not (await self.prefs(guild_id, user_id)).quiet_at(self.app.clock.now()):
            return False
        mark = PingMark(game_id, user_id, HUSHED, OWED, self.app.clock.now())
        await self.app.store.keep_ping_marks([mark])
        return True

    # -- the round -----------------------------------------------------------------------

    async def tick(self) -> list[Ping]:
        """Send the pings every running game owes now; returns them."""
        async with self._lock:
            sent: list[Ping] = []
            prefs: dict[int, dict[int, PingPrefs]] = {}
            for game_id, session in list(self.app.sessions.items()):
                try:
                    sent += await self._game(game_id, session, prefs)
                except Exception:
                    log.exception("game %d: its pings failed", game_id)
                try:
                    await self.stalls.check(game_id, session)
                except Exception:
                    log.exception("game %d: its stall check failed", game_id)
            return sent

    async def _game(
        self, game_id: int, session: PhaseSession, prefs: dict[int, dict[int, PingPrefs]]
    ) -> list[Ping]:
        if session.state is None or session.ledger is None or session.deadline.paused:
            return []
        wait = session.current_wait()
        if wait is None or wait.kind == MODERATORS:
            return []
        guild_id = session.ledger.record.guild_id
        if guild_id not in prefs:
            prefs[guild_id] = await self.app.store.ping_prefs(guild_id)
        seats = await self.app.seats(game_id)
        view = session.state.public_view()
        next_up: dict[int, Faction] = {}
        if wait.kind == STEP:
            after = next_in_storm_order(view.storm_order, view.to_act, view.done)
            if after is not None and after in seats:
                next_up[seats[after]] = after
        waiting = {seats[f]: f for f in wait.factions if f in seats}
        marks = await self.app.store.ping_marks(game_id)
        owed = plan(
            self.app.clock.now(),
            GameWait(game_id, wait.key, waiting, next_up),
            prefs[guild_id],
            marks,
        )
        if owed.marks:
            await self.app.store.keep_ping_marks(owed.marks)  # before: each said once
        for ping in owed.pings:
            mine = prefs[guild_id].get(ping.user_id, PingPrefs())
            try:
                await self._send(session, guild_id, ping, mine, view, wait.kind)
            except DeliveryError as failed:
                log.warning("game %d: a ping to %d was not sent: %s", game_id, ping.user_id, failed)
        return list(owed.pings)

    async def _send(
        self,
        session: PhaseSession,
        guild_id: int,
        ping: Ping,
        prefs: PingPrefs,
        view: PublicView,
        kind: str,
    ) -> None:
        game_id, publisher = session.game_id, self.app.publisher
        timers = session.settings.timers
        deadline = deadline_text(timers.deadline_of(ping.faction), timers.paused_left)
        if ping.kind == HEADS_UP:
            before = view.to_act.label if view.to_act is not None else "the player before you"
            text = (
                f"Heads-up, game #{game_id}: {before}, the player before you in storm order, "
                f"has started their turn; yours ({ping.faction.label}) comes next."
            )
            await publisher.private(game_id, PrivateNotice(ping.faction, text, ping=True))
            return
        what = ASKED.get(kind, "your answer")
        if ping.kind == QUIET_OVER:
            text = (
                f"Your quiet hours are over: game #{game_id} waits on you ({what}); "
                f"deadline {deadline}."
            )
            await publisher.private(game_id, PrivateNotice(ping.faction, text, ping=True))
            return
        reminder = f"Game #{game_id} still waits on you ({what}); deadline {deadline}."
        if not prefs.digest_by_dm or not isinstance(publisher, DirectMessages):
            await publisher.private(game_id, PrivateNotice(ping.faction, reminder, ping=True))
            return
        digest = await self.digest(session, ping.faction, what, deadline)
        try:
            await publisher.direct(ping.user_id, digest)
        except DirectMessagesClosedError:
            await self.app.store.set_ping_prefs(
                guild_id, ping.user_id, replace(prefs, dm_closed=True)
            )
            text = f"{DMS_CLOSED}\n{digest}"[:LIMIT]
            await publisher.private(game_id, PrivateNotice(ping.faction, text, ping=True))

    async def digest(
        self, session: PhaseSession, faction: Faction, what: str, deadline: str
    ) -> str:
        """ "Since your last action: ...; the game waits on you for X, deadline ...": the
        public record's words since ``faction``'s last action, and its own wait."""
        assert session.state is not None
        view = session.state.public_view()
        seats = await self.app.seats(session.game_id)
        events = await _since_last_action(self.app, session.game_id, faction)
        lines = [fill_players(line, lambda f: _named(seats, f)) for line in _public(events, view)]
        head = f"**Game #{session.game_id}, {faction.label}: since your last action**"
        tail = f"The game waits on you ({what}); deadline {deadline}."
        shown = lines
        while shown:
            text = "\n".join([head, *(f"- {line}" for line in shown), tail])
            if len(text) <= LIMIT:
                break
            shown = shown[1:]
        if not lines:
            return f"{head}\nNothing new at the table.\n{tail}"[:LIMIT]
        cut = len(lines) - len(shown)
        earlier = [f"- …and {cut} earlier events (the table channel has them all)."] if cut else []
        body = [head, *earlier, *(f"- {line}" for line in shown), tail]
        return "\n".join(body)[:LIMIT]


async def _since_last_action(app: Mentat, game_id: int, faction: Faction) -> list[Event]:
    """The events of the log's entries in effect after ``faction``'s last action."""
    log_entries = await app.store.log(game_id)
    history = History.of((e.seq, e.kind, e.target) for e in log_entries)
    by_seq = {e.seq: e for e in log_entries}
    effective = [by_seq[seq] for seq in history.effective[1:]]
    last = max(
        (
            i
            for i, e in enumerate(effective)
            if isinstance(e.body, dict) and e.body.get("faction") == faction.value
        ),
        default=-1,
    )
    return [event for entry in effective[last + 1 :] for event in entry.events]


def _public(events: list[Event], view: PublicView) -> list[str]:
    """The events' public lines, as the table reads them."""
    return ceremony.lines(events, view)


def _named(seats: dict[Faction, int], faction: Faction) -> str:
    user = seats.get(faction)
    return f"<@{user}>" if user is not None else faction.label


def describe(prefs: PingPrefs, now: datetime) -> str:
    """``/pings show``: one's pings in this server, in words."""
    if prefs.quiet is None:
        quiet = "Quiet hours: none."
    else:
        state = "quiet now" if prefs.quiet.contains(now) else "not quiet now"
        stamp = int(prefs.quiet.ends_after(now).timestamp()) if prefs.quiet.contains(now) else 0
        until = f", until <t:{stamp}:t>" if stamp else ""
        quiet = f"Quiet hours: {prefs.quiet.words()} ({state}{until}). Deadlines do not move."
    every = (
        f"Reminders: every {hours(prefs.interval)} while a game waits on you."
        if prefs.interval
        else "Reminders: none (only the prompt's own ping)."
    )
    before = "on" if prefs.before_me else "off"
    if not prefs.digest:
        digest = "Digest by direct message: off."
    elif prefs.dm_closed:
        digest = (
            "Digest by direct message: paused, your direct messages were closed (the digest "
            "comes to your private channel; `/pings digest on:True` tries them again)."
        )
    else:
        digest = "Digest by direct message: on, at your reminder interval."
    return "\n".join(
        [
            "**Your pings in this server** (every game of yours here):",
            f"- {quiet}",
            f"- {every}",
            f"- Heads-up when the player before you in storm order starts: {before}.",
            f"- {digest}",
        ]
    )
