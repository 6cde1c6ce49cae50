"""Autopilot (issue 25): a faction whose player missed N deadlines in a row plays its
defaults at once, without waiting for deadlines, until its player acts again or a
substitute takes the seat.

A missed deadline is public (the table reads "Time ran out: ..."), so whom the game still
waits on stays a function of public facts. The answers are the rules' defaults for a
choice (:func:`rules.defaults.default_action`) and, in the Shipment & Movement phase, a
pass of the faction's step and a decline of its prompts; a secret window is left to run
its time (its decline is kept, as a standing order's would be). A faction's standing
orders answer first, where they answer.

When every faction of the game is on autopilot, the game would play itself: it is paused
instead and reported to the moderators as stalled.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timedelta

from bot.words.common import duration
from rules.actions import Decline, FactionAction, Pass
from rules.defaults import default_action
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from rules.model import Prompt

Skip = Callable[[Prompt, FactionAction], bool]
"""Which answers to a prompt may not be given now (a window's decline: it runs its time)."""


class Autopilot:
    """Each faction's deadlines missed in a row, and which of them play on autopilot."""

    def __init__(self, after: int = 0, missed: Mapping[Faction, int] | None = None) -> None:
        self.after = after  # 0: never
        self.missed: dict[Faction, int] = dict(missed or {})

    def restore(self, after: int, missed: Mapping[Faction, int]) -> None:
        """As the game's settings say (at start): its limit, the deadlines missed so far."""
        self.after, self.missed = after, dict(missed)

    def on(self, faction: Faction) -> bool:
        return self.after > 0 and self.missed.get(faction, 0) >= self.after

    def flying(self) -> list[Faction]:
        """The factions on autopilot now, in a fixed order."""
        return sorted((f for f in self.missed if self.on(f)), key=lambda f: f.value)

    def miss(self, factions: Iterable[Faction]) -> list[Faction]:
        """A deadline ran out on ``factions``: the ones that go on autopilot with it."""
        started = []
        for faction in dict.fromkeys(factions):
            was = self.on(faction)
            self.missed[faction] = self.missed.get(faction, 0) + 1
            if self.on(faction) and not was:
                started.append(faction)
        return started

    def back(self, faction: Faction) -> bool:
        """Its player acted, or a new player took the seat: True if it was on autopilot."""
        was = self.on(faction)
        self.missed.pop(faction, None)
        return was

    def everyone(self, factions: Iterable[Faction]) -> bool:
        """Every faction of the game is on autopilot (the game would play itself)."""
        seated = list(factions)
        return bool(seated) and all(self.on(f) for f in seated)

    def answer(self, state: GameState, skip: Skip) -> FactionAction | None:
        """The first default a faction on autopilot gives now (None: none to give)."""
        for faction in self.flying():
            if faction in state.factions:
                action = default_now(state, faction, skip)
                if action is not None and state.is_legal(action):
                    return action
        return None


def default_now(state: GameState, faction: Faction, skip: Skip) -> FactionAction | None:
    """What ``faction`` answers by default to what the game asks it now (None: nothing
    asked of it, or a window left to run its time)."""
    if faction not in state.waiting_on():
        return None
    chosen = default_action(state, faction)  # a choice's, or a Truthtrance question's
    if chosen is not None or state.game_phase is not GamePhase.SHIPMENT_MOVEMENT:
        return chosen
    for prompt in state.open_prompts():
        if faction in prompt.waiting_on():
            decline = Decline(faction, prompt.kind)
            return None if skip(prompt, decline) else decline
    return Pass(faction) if state.to_act() is faction else None


def _deadlines(after: int) -> str:
    return "a deadline" if after == 1 else f"{after} deadlines in a row"


def started_words(faction: Faction, after: int) -> str:
    """For the table, once: a faction goes on autopilot."""
    return (
        f"{faction.label} missed {_deadlines(after)}: from now on the game answers for them "
        "at once with their defaults (and standing orders), until their player says `/back` "
        "or acts, or a substitute takes the seat."
    )


def moderators_words(faction: Faction, after: int) -> str:
    """For the moderators, once: a faction went on autopilot; find a substitute."""
    return (
        f"{faction.label} went on autopilot: it missed {_deadlines(after)}. Find them a "
        f"substitute: `/substitute open faction:{faction.value}`."
    )


def back_words(faction: Faction) -> str:
    """For the table: the faction's player is back (or a new one sits)."""
    return f"{faction.label} is off autopilot: the game waits for their player again."


def stalled_words(game_id: int) -> str:
    """For the moderators (and the table): every faction is on autopilot."""
    return (
        f"Game #{game_id} is stalled: every faction is on autopilot, so it is paused. Seat "
        "substitutes (`/substitute open`), then `/mod resume`."
    )


def no_progress_words(game_id: int, since: datetime, now: datetime, waits_on: str) -> str:
    """For the moderators, once per stall: no action accepted for a long time."""
    hours = int((now - since).total_seconds() // 3600)
    return (
        f"Game #{game_id} has made no progress for {duration(timedelta(hours=hours))}: it "
        f"waits on {waits_on} since <t:{int(since.timestamp())}:R>. Nudge the players, "
        "extend or skip the wait (`/mod extend`, `/mod skip`), or open a seat "
        "(`/substitute open`)."
    )
