"""A session's channels that are gone: the moderators hear it; without a table, it pauses.

:class:`Trouble` is that part of :class:`bot.session.session.PhaseSession`. Its repair,
``/mod channels``, rebinds the game to new channels and sends them what they missed: the
kept messages, and the open prompts of a private channel made again.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta

from bot.delivery import Delivery
from bot.publisher import AttachmentRefusedError, ChannelGoneError, ModeratorNotice
from bot.session.kept import Kept
from bot.session.questions import Later, Questions
from bot.session.timing import Deadline
from bot.store import Store
from bot.words import narrate
from rules.factions import Faction


class Trouble:
    """Lost channels and their repair; see the module's docstring."""

    def __init__(
        self,
        game_id: int,
        *,
        store: Store,
        delivery: Delivery,
        deadline: Deadline,
        questions: Questions,
        kept: Kept,
        later: Later,
    ) -> None:
        self._game_id = game_id
        self._store = store
        self._delivery = delivery
        self._deadline = deadline
        self._questions = questions
        self._kept = kept
        self._later = later

    def on_trouble(self, gone: ChannelGoneError) -> None:
        """A channel is gone or closed to the bot: the moderators hear it; no table: pause."""
        notice = ModeratorNotice(narrate.channel_trouble(gone))
        self._delivery.moderators(notice, or_table=gone.role != "table")
        if gone.role == "table" and not isinstance(gone, AttachmentRefusedError):
            self._later(self.pause_unseen)

    async def pause_unseen(self) -> None:
        """The table is gone: the deadline is held, the moderators told (in the session's
        turn)."""
        deadline = self._deadline
        if self._questions.wait is None or deadline.paused or deadline.at is None:
            return
        deadline.freeze(max(deadline.at - deadline.clock.now(), timedelta(0)))
        await self._kept.save()
        self._delivery.moderators(ModeratorNotice(narrate.PAUSED_UNSEEN))
        self._questions.show()

    async def rebind(
        self, channels: Mapping[str, int], private: Mapping[Faction, int]
    ) -> tuple[int, int]:
        """Bind repaired channels (in the session's turn); returns how many kept messages
        are sent again and how many open prompts are posted again (in the private channels
        made again)."""
        if channels:
            await self._store.set_channels(self._game_id, channels)
        if private:
            self._kept.bind_private(private)
            await self._kept.save()
        kept = self._delivery.redeliver()
        return kept, self._questions.post_again(private)
