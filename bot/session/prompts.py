"""The prompt messages of a game: who was asked for the current wait, in which message.

Each faction asked gets one message with its choices as buttons, bound to the wait's token;
the message is known once the delivery posted it, and it pings its player as the wait
begins (:func:`pings`). When the wait is over, each message is
edited to say how it closed (and a stale button is refused saying so). All of it is kept
with the game's settings, so a restart finds the messages again.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import replace
from datetime import datetime, timedelta

from bot.delivery import Delivery, Posted
from bot.publisher import Answer, PrivateNotice
from bot.settings import SessionTimers
from bot.waits import STEP, Wait
from bot.words import narrate
from bot.words.common import may_do
from bot.words.prompt_buttons import buttons
from bot.words.refusals import SessionError
from rules.actions import Pass
from rules.factions import Faction
from rules.game import GameState
from rules.model import Step

CLOSED_KEPT = 50  # how many closed prompts are remembered for stale buttons
Asker = Callable[[Faction], PrivateNotice]
"""What a faction is asked now (its prompt, with the current deadline)."""
Later = Callable[[Faction, str | None, str], None]
"""Told, in the session's turn, that a faction's prompt for a token was posted as a ref."""


class PromptMessages:
    def __init__(self, delivery: Delivery) -> None:
        self.delivery = delivery
        self.token: str | None = None  # the current wait's (the log seq it opened at)
        self.asked: dict[Faction, str | None] = {}  # faction: its prompt message, once posted
        self.closed: dict[str, str] = {}  # "token:faction": how that prompt closed

    def restore(
        self, token: str | None, asked: Mapping[Faction, str | None], closed: Mapping[str, str]
    ) -> None:
        self.token, self.asked, self.closed = token, dict(asked), dict(closed)

    def timers(self, paused_left: timedelta | None) -> SessionTimers:
        """The prompts' part of the saved timers (the session adds its deadline)."""
        asked, closed = dict(self.asked), dict(self.closed)
        return SessionTimers(paused_left=paused_left, token=self.token, asked=asked, closed=closed)

    def how_closed(self, token: str | None, faction: Faction) -> str:
        return self.closed.get(f"{token}:{faction.value}", "it is over")

    def ask(
        self, factions: tuple[Faction, ...], prompt: Asker, posted: Later, *, ping: bool = True
    ) -> None:
        """Each of ``factions`` hears its prompt privately, its player pinged (``ping``:
        see :func:`pings`); ``posted`` learns its message."""
        for faction in factions:
            self.asked[faction] = None
            notice = replace(prompt(faction), ping=ping)
            self.delivery.ask(notice, self._posted(faction, posted))

    def ask_again(
        self, factions: tuple[Faction, ...], prompt: Asker, posted: Later, *, ping: bool = True
    ) -> None:
        """After a restart: the prompts of the current wait that were never posted."""
        for faction, ref in self.asked.items():
            if ref is None and faction in factions:
                notice = replace(prompt(faction), ping=ping)
                self.delivery.ask(notice, self._posted(faction, posted))

    def post_again(
        self,
        factions: Collection[Faction],
        prompt: Asker,
        posted: Later,
        *,
        ping: bool,
        closed: str | None = None,
    ) -> int:
        """The open prompts of ``factions`` already posted are posted again, with buttons
        bound to the current wait (``ping``: pinging their player); returns how many. The
        old messages say ``closed`` if given (else they were lost with their channel). A
        prompt not posted yet is left to go out as it is (it pings whoever is seated then)."""
        again = [(f, ref) for f, ref in self.asked.items() if f in factions and ref is not None]
        for faction, ref in again:
            self.asked[faction] = None
            if closed is not None:
                self.delivery.close_prompt(faction, ref, f"Closed: {closed}.")
            notice = replace(prompt(faction), ping=ping)
            self.delivery.ask(notice, self._posted(faction, posted))
        return len(again)

    def _posted(self, faction: Faction, posted: Later) -> Posted:
        token = self.token

        def record(ref: str | None) -> None:
            if ref is not None:
                posted(faction, token, ref)

        return record

    def record(self, faction: Faction, token: str | None, ref: str) -> bool:
        """Keep a posted prompt's message (True: the settings changed), or close it at once
        if its wait is over."""
        if token == self.token and faction in self.asked and self.asked[faction] is None:
            self.asked[faction] = ref
            return True
        self.delivery.close_prompt(faction, ref, f"Closed: {self.how_closed(token, faction)}.")
        return False

    def close(self, keep: tuple[Faction, ...], cause: Callable[[Faction], str]) -> None:
        """Every faction's prompt but ``keep``'s is over: its message says how it closed."""
        for faction, ref in list(self.asked.items()):
            if faction in keep:
                continue
            how = cause(faction)
            del self.asked[faction]
            self.closed[f"{self.token}:{faction.value}"] = how
            while len(self.closed) > CLOSED_KEPT:
                del self.closed[next(iter(self.closed))]
            if ref is not None:
                self.delivery.close_prompt(faction, ref, f"Closed: {how}.")

    def show(self, prompt: Asker, only: Collection[Faction] | None = None) -> None:
        """The open prompt messages (of ``only`` those factions, if given) show what they
        ask now (e.g. a new deadline)."""
        for faction, ref in self.asked.items():
            if ref is not None and (only is None or faction in only):
                self.delivery.edit_prompt(ref, prompt(faction))


def pings(wait: Wait) -> bool:
    """Whether the prompts of a new ``wait`` ping their players: each player the game
    starts waiting on is pinged once, by the prompt message that asks them (its buttons are
    there), in their own private channel, so the ping tells nobody else anything; whoever
    the wait asks (one faction, or several at once) is pinged alike. Not a Shipment &
    Movement step: the table's message that begins the turn pings its player
    (:func:`bot.words.ceremony.turn_mention`). Reminders and edits of a prompt ping nobody."""
    return wait.kind != STEP


def deadline_text(deadline: datetime | None, paused_left: timedelta | None) -> str:
    """The deadline as Discord timestamps (each reader sees their own time zone)."""
    if paused_left is not None:
        return "paused by a moderator"
    if deadline is None:
        return "none"
    stamp = int(deadline.timestamp())
    return f"<t:{stamp}:f> (<t:{stamp}:R>)"


def prompt_for(
    state: GameState, faction: Faction, wait: Wait, token: str | None, deadline: str
) -> PrivateNotice:
    """What ``faction`` is asked now: the wait, its choices, its spice, the deadline; its
    buttons the engine's concrete actions (a step's pass, a prompt's answers but its pass)."""
    legal = state.legal_actions(faction, open_stage_only=True)
    mine = state.view_for(faction)
    text = (
        f"{narrate.describe_wait(mine.public)}\n{may_do(legal.kinds())} "
        f"You hold {mine.spice} spice. Deadline: {deadline}."
    )
    offered = [a for a in legal if wait.kind == STEP or not isinstance(a, Pass)]
    return PrivateNotice(faction, text, answers=buttons(state, offered), token=token)


def reminder_for(state: GameState, faction: Faction, wait: Wait, deadline: str) -> str:
    """A reminder that says what is awaited of ``faction`` and by when."""
    kinds = state.legal_actions(faction, open_stage_only=True).kinds()
    if wait.kind == "step":
        turn = state.phase.turn
        step = "shipment" if turn is not None and turn.step is Step.SHIP else "movement"
        what = f"Mentat awaits your {step}."
    else:
        mine = [p for p in state.public_view().prompts if faction in p.responders]
        what = " ".join(["Mentat awaits your answer.", *map(narrate.describe_prompt, mine)])
    return f"Reminder: {what} {may_do(kinds)} Deadline: {deadline}."


def chosen(
    notice: PrivateNotice | None, state: GameState, faction: Faction, key: str, said: str
) -> Answer:
    """The answer a button with ``key`` was made for: among ``notice``'s (the prompt as it
    reads now), else among the actions the engine lists for ``faction`` now (an answer
    given already and kept still is one: the session then says so); SessionError when
    neither offers it (the wait moved on)."""
    listed = buttons(state, state.legal_actions(faction)) if state.in_game(faction) else ()
    found = [a for a in (*(notice.answers if notice else ()), *listed) if a.key == key]
    if not found:
        raise SessionError(f"“{said}” is no longer open: see your newest prompt")
    return found[0]
