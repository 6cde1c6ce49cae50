"""The game: a position with the public API, like python-chess's ``Board``.

``GameState`` is the one mutable object of the engine: ``apply(action)``
validates an action, changes the position and returns the events; a refused
action raises a :class:`RulesError` and changes nothing; ``undo()`` restores
the position before the last accepted action.

The phase is a deterministic machine (:mod:`rules.machine`): a faction to act
(its turn: shipment step, then movement step) and, besides it, stages of
prompts (Karama windows, Bene Gesserit advise/intrusion/wartime, Guild
timing). Only the first stage is open. An action that answers none of the
open prompts declines them and is then processed normally.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import replace

from rules import machine, movement, shipment, turn_flow
from rules.actions import Action, ClosePrompts
from rules.board import Board
from rules.errors import RulesError
from rules.events import Event
from rules.factions import Faction
from rules.model import FactionState, Phase, RuleSet, Snapshot, Stack, StackKey
from rules.position import Position
from rules.view import PrivateView, PublicView, private_view, public_view

UNDO_LIMIT = 1000
"""How many positions ``undo()`` can step back (a long-lived game must not grow forever)."""


class GameState(Position):
    """A Shipment & Movement phase in progress."""

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
    ) -> None:
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
        )
        self._history: deque[Snapshot] = deque(maxlen=UNDO_LIMIT)
        if not self.phase.started:
            self.phase = replace(self.phase, started=True)
            machine.start_phase(self)

    # -- the public API ----------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Validate and carry out ``action``; return what happened.

        Raises a :class:`RulesError` subclass (and changes nothing) when the
        action is malformed, breaks a rule, or comes from a faction that may
        not act now.
        """
        before = self.snapshot()
        try:
            events = machine.apply_action(self, action)
        except RulesError:
            self.restore(before)
            raise
        self._history.append(before)
        return events

    def close_all_prompts(self) -> list[Event]:
        """Decline every prompt still open, stage by stage (the flow moves on)."""
        events: list[Event] = []
        while self.phase.stages and not self.phase.complete:
            events += self.apply(ClosePrompts())
        return events

    def undo(self) -> None:
        """Restore the position before the last accepted action (up to UNDO_LIMIT back)."""
        if not self._history:
            raise IndexError("nothing to undo")
        self.restore(self._history.pop())

    @property
    def can_undo(self) -> bool:
        return bool(self._history)

    def answers_open_prompt(self, action: Action) -> bool:
        """True if ``action`` answers one of the open prompts (not a later stage's)."""
        return turn_flow.answers_prompt(self, action, self.phase.stages[:1])

    def public_view(self) -> PublicView:
        return public_view(self)

    def view_for(self, faction: Faction) -> PrivateView:
        return private_view(self, faction, tuple(self.legal_actions(faction)))

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

    def legal_actions(self, faction: Faction, *, open_stage_only: bool = False) -> list[str]:
        """The action names ``faction`` may use now (turn actions and prompt answers).

        With ``open_stage_only``, while prompts are open only the answers to the open
        stage are listed (what a session that lets windows run their course accepts).
        """
        return machine.legal_action_names(self, faction, open_stage_only=open_stage_only)
