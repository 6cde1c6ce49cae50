"""The game: a position with the public API, like python-chess's ``Board``.

``GameState`` is the one mutable object of the engine: ``apply(action)``
validates an action, changes the position and returns the events; a refused
action raises a :class:`RulesError` and changes nothing; ``undo()`` restores
the position before the last accepted action.

One model: everything that changes a game is an action, a moderator's
correction included (:mod:`rules.corrections`), so a game is its start position
and its actions. ``undo()`` is the engine's cheap step back within one
``GameState`` (tools, tests, dry runs); the application keeps each game as a log
of actions and goes back by replaying it without the undone ones, which is the
truth (``bot.store``). A Karama cancel restoring the position from before the
ability (:mod:`rules.karama`) is part of that action's rule, not a way back.

The phase is a deterministic machine (:mod:`rules.machine`): a faction to act
(its turn: shipment step, then movement step) and, besides it, stages of
prompts (Karama windows, Bene Gesserit advise/intrusion/wartime, Guild
timing). Only the first stage is open. An action that answers none of the
open prompts declines them and is then processed normally.

A whole game (:meth:`GameState.new_game`, docs/whole-turn.md) runs the turn loop
around that phase: set-up, storm, spice blow and Nexus, CHOAM Charity, the
bidding, revival and battle (the moderator's records correct them), collection and the
Mentat Pause, for ten turns or until a faction wins.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Self

from rules import (
    legal,
    machine,
    movement,
    setup,
    shipment,
    shipment_movement,
    turn_flow,
)
from rules.actions import Action, ClosePrompts, FactionAction, Ship
from rules.board import Board
from rules.errors import RulesError
from rules.events import Event, Shipped
from rules.factions import Faction
from rules.game_model import GamePhase, TurnState, Winner
from rules.legal import LegalActions
from rules.model import FactionState, Phase, Prompt, RuleSet, Snapshot, Stack, StackKey
from rules.phases import REGISTRY
from rules.position import Position, storm_order
from rules.view import PrivateView, PublicView, private_view, public_view

UNDO_LIMIT = 1000
"""How many positions ``undo()`` can step back (a long-lived game must not grow forever)."""


@dataclass(frozen=True, slots=True)
class Trial:
    """An action tried on a position and taken back (:meth:`GameState.dry_run`)."""

    action: Action
    events: tuple[Event, ...]
    public: PublicView
    private: PrivateView | None  # the acting faction's view after the action
    alliance_losses: tuple[tuple[str, int | None, Stack], ...]  # if its turn ended then


NO_UNDO: deque[Snapshot] = deque(maxlen=0)
"""The undo history of a query's trial copy: it keeps nothing (shared, always empty)."""


class GameState(Position):
    """A whole game (:meth:`new_game`), or a Shipment & Movement phase played alone: a
    game that starts at that phase and stops after it (built without ``game``)."""

    # the last action's events, and the positions as the phases it ran through ended
    _phase_ends: tuple[tuple[Event, ...], tuple[tuple[int, Snapshot], ...]] = ((), ())

    def __init__(
        self,
        *,
        storm_sector: int,
        seats: Iterable[Faction | None],
        factions: Mapping[Faction, FactionState],
        stacks: Mapping[StackKey, Stack] | None = None,
        alliances: Iterable[Iterable[Faction]] = (),
        rules: RuleSet | None = None,
        board: Board | None = None,
        spice_bank: int = 0,
        phase: Phase | None = None,
        board_spice: Mapping[tuple[str, int | None], int] | None = None,
        game: TurnState | None = None,
    ) -> None:
        seats = tuple(seats)
        phase = phase or Phase(order=storm_order(seats, storm_sector))
        super().__init__(
            storm_sector=storm_sector,
            seats=seats,
            factions=factions,
            stacks=stacks,
            alliances=alliances,
            rules=rules,
            board=board,
            spice_bank=spice_bank,
            phase=phase,
            board_spice=board_spice,
            game=game or shipment_movement.alone(phase.order, factions),
        )

    def _begin(self) -> None:
        """Start the phase under way and run the game up to the first choice."""
        self._history: deque[Snapshot] = deque(maxlen=UNDO_LIMIT)
        self.start_events: list[Event] = []
        if not self.phase.started:
            self.phase = replace(self.phase, started=True)
            self.start_events += machine.start_phase(self)
        self.start_events += machine.advance(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The position :meth:`to_dict` wrote (one written without a whole game's state,
        before a phase alone was a game, is read as a phase alone)."""
        snap = Snapshot.from_dict(data)
        return cls(
            storm_sector=int(data["storm_sector"]),
            seats=[Faction(f) if f else None for f in data["seats"]],
            factions=dict(snap.factions),
            stacks=dict(snap.stacks),
            alliances=[[Faction(f) for f in a] for a in data["alliances"]],
            rules=RuleSet.from_dict(data["rules"]),
            spice_bank=snap.spice_bank,
            phase=snap.phase,
            game=snap.game,
            board_spice={
                (str(d["territory"]), d.get("sector")): int(d["amount"])
                for d in data.get("board_spice", ())
            },
        )

    @classmethod
    def new_game(
        cls,
        seats: Iterable[Faction | None],
        *,
        seed: int,
        rules: RuleSet | None = None,
        last_turn: int = 10,
    ) -> GameState:
        """A whole game at set-up: ``seats`` in seat order (seat k in sector 3k+1), the
        decks shuffled and dealt from ``seed``; ``start_events`` says what was dealt."""
        return cls(**setup.new_position_parts(seats, seed, rules, last_turn))

    # -- the whole game ----------------------------------------------------

    @property
    def turn(self) -> int:
        return self.game.turn

    @property
    def game_phase(self) -> GamePhase:
        """The phase of the turn."""
        return self.game.phase

    @property
    def winner(self) -> Winner | None:
        return self.game.winner

    def waiting_on(self) -> tuple[Faction, ...]:
        """The factions the game waits for now ([] where the moderator records or it is over)."""
        question = self.game.truthtrance
        if question is not None and question.open:  # Truthtrance: its answer first
            return (question.target,)
        if self.game.phase is not GamePhase.SHIPMENT_MOVEMENT:
            return self.game.waiting
        if self.phase.complete:
            return ()
        turn = tuple(f for f in [self.to_act()] if f is not None)
        prompted = tuple(f for p in self.phase.open_prompts for f in p.waiting_on())
        return tuple(dict.fromkeys(turn + prompted))

    def moderator_actions(self) -> list[Action]:
        """What the moderator may record now, as a correction of the Revival or Battle
        phase (some of it: small amounts), "phase done" first; [] elsewhere."""
        records = REGISTRY[self.whole.phase].records if self.whole.phase in REGISTRY else None
        return [a for a in records(self) if self.is_legal(a)] if records else []

    # -- the public API ----------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Validate and carry out ``action``; return what happened.

        Raises a :class:`RulesError` subclass (and changes nothing) when the
        action is malformed, breaks a rule, or comes from a faction that may
        not act now.
        """
        own, steps = self.apply_split(action)
        return own + steps

    def apply_split(self, action: Action) -> tuple[list[Event], list[Event]]:
        """:meth:`apply`, its events split: the action's own, then those of the steps the
        engine ran by itself after it (a phase begun, a spice blow, the Mentat Pause)."""
        before = self.snapshot()
        ends: list[tuple[int, Snapshot]] = []
        try:
            own, steps = machine.apply_split(self, action, ends)
        except RulesError:
            self.restore(before)
            raise
        self._history.append(before)
        self._phase_ends = (tuple(own + steps), tuple((len(own) + i, s) for i, s in ends))
        return own, steps

    def public_view_at_phase_end(self, events: Sequence[Event]) -> PublicView:
        """The public view as the first phase of ``events`` ended, when they are the last
        action's and the engine began another phase after it by itself (the position the
        next phases found); else the view now. A map drawn for an action that ran on
        into later phases shows (and its heading names) the moment of that first phase."""
        told, ends = self._phase_ends
        if not ends or tuple(events) != told:
            return self.public_view()
        trial = self.copy()
        trial.restore(ends[0][1])
        return trial.public_view()

    def close_all_prompts(self) -> list[Event]:
        """Decline every prompt still open, stage by stage (the flow moves on)."""
        events: list[Event] = []
        while self.phase.stages and not self.phase.complete:
            events += self.apply(ClosePrompts())
        return events

    def copy(self) -> Self:
        """A separate game equal to this one (no undo history: a query's trial)."""
        other = super().copy()
        other._history = NO_UNDO  # always empty: it keeps nothing
        return other

    def undo(self) -> None:
        """Restore the position before the last accepted action (up to UNDO_LIMIT back)."""
        if not self._history:
            raise IndexError("nothing to undo")
        self.restore(self._history.pop())

    @property
    def can_undo(self) -> bool:
        return bool(self._history)

    def limit_undo(self, steps: int) -> None:
        """Keep at most ``steps`` positions for :meth:`undo` from now on (the oldest are
        forgotten first); 0 keeps none, for an application that goes back by its own log
        (each position kept costs about 2 KB of a game's memory)."""
        self._history = deque(self._history, maxlen=max(0, steps))

    def answers_open_prompt(self, action: Action) -> bool:
        """True if ``action`` answers one of the open prompts (not a later stage's)."""
        return turn_flow.answers_prompt(self, action, self.phase.stages[:1])

    def public_view(self) -> PublicView:
        return public_view(self)

    def view_for(self, faction: Faction) -> PrivateView:
        return private_view(self, faction, self.legal_actions(faction).kinds())

    def legal_ship_destinations(
        self, faction: Faction, forces: int = 1, special: int = 0, *, karama: bool = False
    ) -> list[shipment.ShipDestination]:
        return shipment.legal_destinations(self, faction, forces, special, karama=karama)

    def legal_send_destinations(self, faction: Faction) -> list[shipment.ShipDestination]:
        return shipment.legal_send_destinations(self, faction)

    def legal_move_destinations(
        self,
        faction: Faction,
        from_territory: str,
        from_sector: int | None = None,
        *,
        advisors: bool = False,
    ) -> list[movement.MoveDestination]:
        return movement.legal_destinations(
            self, faction, from_territory, from_sector, advisors=advisors
        )

    def alliance_losses(self, faction: Faction) -> list[tuple[str, int | None, Stack]]:
        """(territory, sector, forces) the alliance constraint would send to the tanks if
        ``faction``'s turn ended now (1.06.03.08)."""
        return turn_flow.alliance_losses(self, faction)

    def legal_actions(self, faction: Faction, *, open_stage_only: bool = False) -> LegalActions:
        """What ``faction`` may do now: iterate for the concrete actions (prompt answers,
        pass, Hajr...), test any action with ``in``, ``kinds()`` for the names.

        With ``open_stage_only``, while prompts are open only the answers to the open
        stage count (what a session that lets windows run their course accepts).
        """
        return legal.legal_actions(self, faction, open_stage_only=open_stage_only)

    def is_legal(self, action: Action) -> bool:
        """Would ``apply(action)`` be accepted now? (Nothing changes.)"""
        return legal.is_legal(self, action)

    def answers(self, prompt: Prompt, faction: Faction) -> tuple[FactionAction, ...]:
        """The concrete answers ``faction`` may give ``prompt`` now (its decline last)."""
        return tuple(legal.answers_to(self, prompt, faction))

    def dry_run(self, action: Action) -> Trial:
        """What ``action`` would do: its events and the views after it, the position
        left unchanged (it is tried on a copy). Raises the :class:`RulesError` that
        ``apply`` would raise."""
        trial = self.copy()
        events = machine.apply_action(trial, action)
        faction = action.faction if isinstance(action, FactionAction) else None
        return Trial(
            action=action,
            events=tuple(events),
            public=trial.public_view(),
            private=trial.view_for(faction) if faction else None,
            alliance_losses=tuple(trial.alliance_losses(faction)) if faction else (),
        )

    def shipment_price(self, action: Ship) -> int:
        """What ``action`` costs now, whoever pays; the engine's :class:`RulesError` when
        it would refuse the shipment whatever the payment."""
        target = self.territory(action.to, rule=shipment.SHIP_RULE)
        found = self.legal_ship_destinations(
            action.faction, action.forces, action.special, karama=action.karama
        )
        cost = next((d.cost for d in found if d.territory == target.name), None)
        if cost is not None:
            return cost
        trial = self.dry_run(replace(action, ally_pays=0))
        return sum(e.cost for e in trial.events if isinstance(e, Shipped))
