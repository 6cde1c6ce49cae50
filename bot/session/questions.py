"""Asking the awaited factions: the wait a session asks now, and its prompt messages.

:class:`Questions` holds the wait the session asked (and timed) last, and its
:class:`bot.session.prompts.PromptMessages`. Each faction the wait awaits hears its prompt
privately, with its choices and the deadline (a choice's question, a whole offer of
prompts, a turn's step); a wait on the moderators tells them what to record instead.
It asks again after a restart (the prompts never posted), for a new player of a seat or a
channel made again (posted again below), shows the prompts anew (a new deadline, a
changed question) and reminds. A posted prompt's message is recorded in the session's
turn and saved with the game.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection
from functools import partial

from bot.delivery import Delivery
from bot.publisher import ModeratorNotice, PrivateNotice
from bot.session.prompts import PromptMessages, pings, prompt_for, reminder_for
from bot.session.windows import offer_prompt
from bot.waits import CHOICE, MODERATORS, PROMPT, Wait
from bot.words.choices import choice_prompt, to_record
from bot.words.refusals import PromptClosedError
from rules.factions import Faction
from rules.game import GameState
from rules.model import Prompt

SEATED = "asked again below, for the player who holds the seat now"
Offered = Callable[[Faction], list[tuple[Prompt, bool]]]
"""The prompts of the offer a faction is asked about, each with whether its stage is open."""
Later = Callable[[Callable[[], Awaitable[None]]], None]
"""Runs a step in the session's turn, after the current one."""


class Questions:
    """The wait asked now and its messages; see the module's docstring."""

    def __init__(
        self,
        delivery: Delivery,
        *,
        state: Callable[[], GameState | None],
        deadline: Callable[[Faction], str],
        offered: Offered,
        later: Later,
        save: Callable[[], Awaitable[None]],
    ) -> None:
        self.delivery = delivery
        self.prompts = PromptMessages(delivery)
        self.wait: Wait | None = None  # the wait asked (and timed) now
        self._state = state
        self._deadline = deadline  # a faction's deadline in words (its own, if extended)
        self._offered = offered
        self._later = later
        self._save = save

    def state(self) -> GameState:
        """The position the questions are asked in (the session's, now)."""
        state = self._state()
        assert state is not None, "the session is not started"
        return state

    # -- what a faction reads -------------------------------------------------------------

    def prompt(self, faction: Faction, wait: Wait) -> PrivateNotice:
        """What ``wait`` asks ``faction``, with its choices and the deadline now."""
        state, token, deadline = self.state(), self.prompts.token, self._deadline(faction)
        if wait.kind == CHOICE:
            return choice_prompt(state, faction, wait, token, deadline)
        if wait.kind == PROMPT:
            return offer_prompt(state, faction, self._offered(faction), token, deadline)
        return prompt_for(state, faction, wait, token, deadline)

    def prompt_now(self, faction: Faction, current: Wait | None) -> PrivateNotice | None:
        """``faction``'s prompt as it reads now, if the wait asked is still ``current`` and
        asks it."""
        wait = self.wait
        if wait is None or faction not in wait.factions or wait != current:
            return None
        return self.prompt(faction, wait)

    def check_open(self, faction: Faction, token: str, current: Wait | None) -> None:
        """Refuse (saying how it closed) unless the prompt or step ``token`` is still open
        for ``faction``: the wait asked is ``current``, and bound to ``token``."""
        asked = self.wait
        if (
            current is not None
            and asked is not None
            and current.key == asked.key
            and token == self.prompts.token
            and faction in current.factions
        ):
            return
        raise PromptClosedError(self.prompts.how_closed(token, faction))

    # -- asking -------------------------------------------------------------------------------

    def ask(self, wait: Wait, token: str) -> None:
        """A new wait: each faction that may act or answer hears it privately, with its
        choices (a phase that waits on the moderators: they hear what to record)."""
        self.wait, self.prompts.token = wait, token
        if wait.kind == MODERATORS:
            self._tell_moderators("")
        self.prompts.ask(
            wait.factions, partial(self.prompt, wait=wait), self._posted, ping=pings(wait)
        )

    def changed(self, new: Wait) -> None:
        """The same wait, still asked: a faction newly awaited is asked; one whose question
        changed (it answered part of it) sees the new question in its message."""
        old, self.wait = self.wait, new
        if new.kind == MODERATORS or old is None:
            return
        fresh = tuple(f for f in new.factions if f not in old.factions)
        if fresh:
            self.prompts.ask(fresh, lambda f: self.prompt(f, new), self._posted)
        changed = {
            f for f in new.factions if f in old.factions and new.question(f) != old.question(f)
        }
        if changed:
            self.prompts.show(lambda f: self.prompt(f, new), only=changed)

    def over(self) -> None:
        """Nothing is awaited any more."""
        self.wait, self.prompts.token = None, None

    def ask_again(self) -> None:
        """After a restart: the prompts of the current wait that were never posted."""
        if self.wait is not None:
            wait = self.wait
            prompt = partial(self.prompt, wait=wait)
            self.prompts.ask_again(wait.factions, prompt, self._posted, ping=pings(wait))

    def seated(self, faction: Faction) -> None:
        """A new player holds ``faction``'s seat: its open prompt is posted again below,
        pinging them once."""
        if self.wait is not None:
            prompt = partial(self.prompt, wait=self.wait)
            self.prompts.post_again((faction,), prompt, self._posted, ping=True, closed=SEATED)

    def post_again(self, factions: Collection[Faction]) -> int:
        """The open prompts of ``factions`` whose channel was made again; returns how many."""
        wait = self.wait
        if wait is None or not factions:
            return 0
        prompt = partial(self.prompt, wait=wait)
        return self.prompts.post_again(factions, prompt, self._posted, ping=pings(wait))

    def show(self) -> None:
        """The open prompts show what they ask now (after a pause, resume or extension:
        the new deadline)."""
        if self.wait is not None:
            wait = self.wait
            self.prompts.show(lambda f: self.prompt(f, wait))

    def remind(self) -> None:
        """Each faction awaited hears what is awaited of it and by when (the moderators,
        what to record)."""
        wait = self.wait
        if wait is None:
            return
        if wait.kind == MODERATORS:
            self._tell_moderators("Reminder: ")
            return
        state = self.state()
        for faction in wait.factions:
            text = reminder_for(state, faction, wait, self._deadline(faction))
            self.delivery.private(PrivateNotice(faction, text))

    def _tell_moderators(self, prefix: str) -> None:
        """What the moderators are to record for the phase that waits on them."""
        game = self.state().game
        text = f"{prefix}{to_record(game.phase.value, game.turn)}"
        self.delivery.moderators(ModeratorNotice(text))

    def _posted(self, faction: Faction, token: str | None, ref: str) -> None:
        async def record() -> None:
            if self.prompts.record(faction, token, ref):
                await self._save()

        self._later(record)
