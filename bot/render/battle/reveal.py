"""A battle's reveal as everyone saw it, for its picture (:mod:`bot.render.battle.plans`).

Hidden information is a type here too: a :class:`BattleReveal` holds only public events
(the two :class:`~rules.events.PlanRevealed` of the reveal and the resolution's events:
traitors called, the explosion, weapons, the winner, leaders killed, forces lost, spice
paid) and the territory, read from public events or a :class:`~rules.view.PublicView`.
Nothing secret can be put in one: :func:`check_reveal` refuses anything else, and the
renderer calls it before drawing.

:class:`RevealWatch` follows a game's announcements in their order and says when a
picture is due: at the reveal (with the result when it came at once), and at the
resolution when the traitor question came between (the plans remembered from the reveal),
even when the same action ends the battles or the phase.
A restarted bot has no memory: a battle revealed before the restart and resolved after it
gets its result in words only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from rules.battle.events import (
    BattleStarted,
    BattleWon,
    KwisatzHaderachKilled,
    LasgunShield,
    PlanRevealed,
    TraitorCalled,
    WeaponStruck,
)
from rules.battle.view import battle_of
from rules.events import Event, ForcesLost, LeaderKilled, SpicePaid, SpiceReceived
from rules.factions import Faction
from rules.view import PublicView

OUTCOME_EVENTS: tuple[type[Event], ...] = (
    TraitorCalled,
    LasgunShield,
    WeaponStruck,
    BattleWon,
    LeaderKilled,
    KwisatzHaderachKilled,
    ForcesLost,
    SpicePaid,
    SpiceReceived,
)
"""The public events of a resolution the picture shows (1.07.06)."""

ENDS = ("battle_started", "battles_over", "phase_began", "phase_complete", "undone")
"""Events after which nothing belongs to the battle revealed last."""


@dataclass(frozen=True, slots=True)
class BattleReveal:
    """Both plans as revealed (the aggressor's first) and the resolution so far."""

    territory: str
    plans: tuple[PlanRevealed, PlanRevealed]
    outcome: tuple[Event, ...] = ()
    turn: int | None = None

    @property
    def resolved(self) -> bool:
        """The battle is decided: a winner, the explosion, or two traitors."""
        called = sum(isinstance(e, TraitorCalled) for e in self.outcome)
        return called == 2 or any(isinstance(e, BattleWon | LasgunShield) for e in self.outcome)

    def side(self, faction: Faction) -> PlanRevealed:
        return next(p for p in self.plans if p.faction is faction)


def check_reveal(reveal: object, who: str = "render_battle") -> BattleReveal:
    """``reveal`` if it is exactly a :class:`BattleReveal` of public events; else TypeError
    (a private view, a game state or a plan's secret dict must never become a picture)."""
    if type(reveal) is not BattleReveal:
        raise TypeError(
            f"{who} draws only a BattleReveal, not {type(reveal).__name__}: "
            "private information must never reach a picture"
        )
    if len(reveal.plans) != 2 or any(type(p) is not PlanRevealed for p in reveal.plans):
        raise TypeError(f"{who}: a BattleReveal's plans are two PlanRevealed events")
    strange = [type(e).__name__ for e in reveal.outcome if type(e) not in OUTCOME_EVENTS]
    if strange:
        raise TypeError(f"{who}: {', '.join(strange)} is not a resolution's public event")
    return reveal


def reveal_of(view: PublicView, events: Sequence[Event]) -> BattleReveal | None:
    """The reveal among ``events`` (one announcement's), with what followed it there."""
    return RevealWatch().see(view, events)


@dataclass
class RevealWatch:
    """One game's latest battle, as its announcements told it (see the module)."""

    territory: str | None = None
    reveal: BattleReveal | None = None

    def see(self, view: PublicView, events: Sequence[Event]) -> BattleReveal | None:
        """Take note of one announcement's ``events``; the reveal to draw for it, if any.

        Raises TypeError for anything but a :class:`PublicView`, before taking note."""
        if type(view) is not PublicView:
            raise TypeError(
                f"RevealWatch reads only a PublicView, not {type(view).__name__}: "
                "private information must never reach a picture"
            )
        battle, turn = battle_of(view.game), view.game.turn
        if self.reveal is not None and self.reveal.resolved:
            self.reveal = None  # told: what comes next is another story
        shown: BattleReveal | None = None  # the picture due, as it stands at its last event
        plans: list[PlanRevealed] = []
        for event in events:
            if isinstance(event, BattleStarted):
                self.territory, self.reveal = event.territory, None
            elif event.kind in ENDS:
                self.reveal = None  # what was due (the phase may end with the result) stays
            elif isinstance(event, PlanRevealed):
                plans.append(event)
                if len(plans) == 2:
                    where = self.territory or (battle.territory if battle else None)
                    self.reveal = BattleReveal(where or "", (plans[0], plans[1]), turn=turn)
                    shown = self.reveal
            elif isinstance(event, OUTCOME_EVENTS) and self.reveal is not None:
                told = shown is not None and shown is self.reveal  # revealed here
                self.reveal = replace(self.reveal, outcome=(*self.reveal.outcome, event))
                if told or self.reveal.resolved:
                    shown = self.reveal
        if shown is None:
            return None
        return self._with_territory(shown)

    @staticmethod
    def _with_territory(reveal: BattleReveal) -> BattleReveal:
        if reveal.territory:
            return reveal
        for event in reveal.outcome:  # a reveal whose battle began before a restart
            if isinstance(event, BattleWon | LasgunShield | ForcesLost):
                return replace(reveal, territory=event.territory)
        return reveal
