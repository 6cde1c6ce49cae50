"""A game that made no progress for a set time is reported stalled (issue 25).

When no action has been accepted into a game's log for its ``stall_after_hours`` (a game
setting; 0: never) while the game is not over, paused or not, its moderators are told once,
in words; again only after progress (a new log entry) and a new stall. The pinger's round
(:mod:`bot.seats.pinger`) looks every minute.

The time of the last progress is, at the first look after a start, the log's last
entry's (so a restart finds it again; a log time ahead of the application's clock, a test's
fake clock, counts from then); afterwards, a new entry counts from the look that saw it (a
minute after it at most), by the application's clock. The report is kept as a ping mark
of the game itself (user 0, kind ``stalled``, keyed by the log entry it was about), so a
restart never repeats it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from bot.pings import PingMark
from bot.publisher import ModeratorNotice
from bot.session.autopilot import no_progress_words
from bot.waits import MODERATORS, Wait, game_over

if TYPE_CHECKING:
    from bot.app import Mentat
    from bot.session.session import PhaseSession

STALLED = "stalled"
GAME = 0  # the ping marks' user of a mark about the game itself


@dataclass(frozen=True, slots=True)
class Progress:
    """A game's last log entry (``seq``) and since when it is the last."""

    seq: int
    since: datetime


def stalled(now: datetime, since: datetime, after_hours: int) -> bool:
    """No progress since ``since`` for ``after_hours`` hours now (0: never stalled)."""
    return after_hours > 0 and now - since >= timedelta(hours=after_hours)


def waits_on(wait: Wait | None, paused: bool) -> str:
    """What the game waits on, in public words."""
    if wait is None:
        what = "nobody"
    elif wait.kind == MODERATORS:
        what = "the moderators (a phase to record)"
    else:
        labels = [f.label for f in wait.factions]
        what = " and ".join([", ".join(labels[:-1]), labels[-1]] if len(labels) > 1 else labels)
    return f"{what}, paused by a moderator" if paused else what


class StallWatch:
    """Each running game's last progress, and its report once stalled."""

    def __init__(self, app: Mentat) -> None:
        self.app = app
        self._progress: dict[int, Progress] = {}

    async def check(self, game_id: int, session: PhaseSession) -> str | None:
        """Tell the game's moderators it is stalled, once per stall; returns what was said."""
        state, ledger = session.state, session.ledger
        after = session.settings.seating.stall_after_hours
        if state is None or ledger is None or game_over(state) or after <= 0:
            return None
        now = self.app.clock.now()
        progress = await self._last_progress(game_id, ledger.seq, now)
        if not stalled(now, progress.since, after):
            return None
        key = str(progress.seq)
        marks = await self.app.store.ping_marks(game_id)
        told = marks.get((GAME, STALLED))
        if told is not None and told.key == key:
            return None
        await self.app.store.keep_ping_marks([PingMark(game_id, GAME, STALLED, key, now)])
        what = waits_on(session.current_wait(), session.deadline.paused)
        text = no_progress_words(game_id, progress.since, now, what)
        await self.app.publisher.moderators(game_id, ModeratorNotice(text))
        return text

    async def _last_progress(self, game_id: int, seq: int, now: datetime) -> Progress:
        known = self._progress.get(game_id)
        if known is not None and known.seq == seq:
            return known
        if known is not None:  # progress since the last look (a minute ago at most)
            self._progress[game_id] = found = Progress(seq, now)
            return found
        log = await self.app.store.log(game_id)  # the first look (after a start): the log's
        last = max((e for e in log if e.seq <= seq), key=lambda e: e.seq, default=None)
        since = now if last is None else min(last.created_at, now)
        self._progress[game_id] = found = Progress(seq, since)
        return found
