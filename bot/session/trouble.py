"""A session's channels that are gone: the moderators hear it; without a table, it pauses.

A mixin of :class:`bot.session.session.PhaseSession` (its repair, ``/mod channels``, rebinds the
game to new channels and sends them what they missed: the kept messages, and the open
prompts of a private channel made again).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Collection, Mapping
from dataclasses import replace
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from bot.clock import Clock
from bot.delivery import Delivery
from bot.publisher import AttachmentRefusedError, ChannelGoneError, ModeratorNotice, PrivateNotice
from bot.serial import SerialTask
from bot.session.prompts import PromptMessages, pings
from bot.settings import GameSettings
from bot.store import Store
from bot.waits import Wait
from bot.words import narrate
from rules.factions import Faction

log = logging.getLogger(__name__)


class TroubleControls:
    """Lost channels and their repair; the session provides what is declared here."""

    game_id: int
    store: Store
    clock: Clock
    delivery: Delivery
    settings: GameSettings
    paused_left: timedelta | None
    _serial: SerialTask
    _wait: Wait | None
    _deadline: datetime | None
    prompts: PromptMessages

    async def _call(self, run: Callable[[], Awaitable[Any]]) -> Any:
        raise NotImplementedError

    async def _save_settings(self) -> None:
        raise NotImplementedError

    def _show_deadline(self) -> None:
        raise NotImplementedError

    def _prompt(self, faction: Faction, wait: Wait) -> PrivateNotice:
        raise NotImplementedError

    def _posted(self, faction: Faction, token: str | None, ref: str) -> None:
        raise NotImplementedError

    @property
    def channels(self) -> Mapping[Faction, int]:
        """The factions' private channels."""
        return self.settings.channels.private

    def _on_trouble(self, gone: ChannelGoneError) -> None:
        """A channel is gone or closed to the bot: the moderators hear it; no table: pause."""
        notice = ModeratorNotice(narrate.channel_trouble(gone))
        self.delivery.moderators(notice, or_table=gone.role != "table")
        if gone.role == "table" and not isinstance(gone, AttachmentRefusedError):
            self._serial.later(self._pause_unseen)

    async def table_lost(self, why: str) -> None:
        """Discord said the table is gone (deleted, or the bot left the server): pause."""
        log.warning("game %d: the table is gone: %s", self.game_id, why)
        await self._call(self._pause_unseen)

    async def _pause_unseen(self) -> None:
        if self._wait is None or self.paused_left is not None or self._deadline is None:
            return
        self.paused_left = max(self._deadline - self.clock.now(), timedelta(0))
        await self._save_settings()
        self.delivery.moderators(ModeratorNotice(narrate.PAUSED_UNSEEN))
        self._show_deadline()

    async def rebind(
        self, channels: Mapping[str, int], private: Mapping[Faction, int]
    ) -> tuple[int, int]:
        """Bind repaired channels; returns how many kept messages are sent again and how
        many open prompts are posted again (in the private channels made again)."""

        async def run() -> tuple[int, int]:
            if channels:
                await self.store.set_channels(self.game_id, channels)
            if private:
                bound = replace(self.settings.channels, private={**self.channels, **private})
                self.settings = replace(self.settings, channels=bound)
                await self._save_settings()
            kept = self.delivery.redeliver()
            return kept, self._post_prompts_again(private)

        counts: tuple[int, int] = await self._call(run)
        return counts

    def _post_prompts_again(self, factions: Collection[Faction]) -> int:
        """The open prompts of the current wait whose channel was made again."""
        wait = self._wait
        if wait is None or not factions:
            return 0
        prompt = partial(self._prompt, wait=wait)
        return self.prompts.post_again(factions, prompt, self._posted, ping=pings(wait))
