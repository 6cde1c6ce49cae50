"""The table's ceremony of a Shipment & Movement phase: its opening message and whom a
table message pings.

The opening (when the phase begins: ``/game start`` of a phase played alone, or its turn
in a whole game) tells the seats and their players, the storm's sector, the storm order,
who is first (pinged) and the deadlines as Discord timestamps. Players are named by
:func:`bot.publisher.player` marks, never by an id: the publisher writes them.

A table message pings the player whose turn just began, and nobody else; a moderator's
correction (undo and redo too) pings nobody.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from bot.delivery import Delivery
from bot.ledger import Ledger
from bot.publisher import PublicNotice, player
from bot.session.prompts import deadline_text
from bot.session.timing import Deadline
from bot.settings import Timing
from bot.waits import Wait
from bot.words.common import duration
from rules.board import seat_sector
from rules.events import Event, PhaseBegan
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from rules.view import PublicView

if TYPE_CHECKING:
    from bot.record.record import SpectatorRecord


def phase_begins(events: Iterable[Event]) -> bool:
    """Whether ``events`` begin a whole game's Shipment & Movement phase."""
    return any(
        isinstance(e, PhaseBegan) and e.phase == GamePhase.SHIPMENT_MOVEMENT.value for e in events
    )


def first_of(view: PublicView) -> Faction | None:
    """Who is first: the first faction in storm order (who is awaited, without one)."""
    return view.storm_order[0] if view.storm_order else view.to_act


def opening_lines(
    view: PublicView,
    timing: Timing,
    *,
    deadline: datetime | None,
    paused_left: timedelta | None = None,
    title: bool = True,
) -> list[str]:
    """The opening of the phase in words (``title``: with its own first line; a whole
    game's phase line says that the phase begins)."""
    lines = ["**The Shipment & Movement phase begins.**"] if title else []
    seats = [
        f"{faction.label} {player(faction)} (sector {seat_sector(seat)})"
        for seat, faction in enumerate(view.seats)
        if faction is not None
    ]
    lines.append(f"Seats: {', '.join(seats)}.")
    order = ", ".join(f.label for f in view.storm_order)
    lines.append(f"The storm is in sector {view.storm_sector}. Storm order: {order}.")
    first = first_of(view)
    if first is not None:
        lines.append(f"First: **{first.label}** {player(first)}.")
    awaited = view.to_act.label if view.to_act is not None else "the first answer"
    when = deadline_text(deadline, paused_left)
    lines.append(
        f"Deadline for {awaited}: {when}. Each later turn step has {duration(timing.step)}; "
        f"each window for the others' answers stays open {duration(timing.prompt)}."
    )
    return lines


class Opening:
    """The session's part of the opening: see the module's docstring."""

    def __init__(
        self,
        game_id: int,
        *,
        state: Callable[[], GameState | None],
        ledger: Callable[[], Ledger | None],
        current_wait: Callable[[], Wait | None],
        deadline: Deadline,
        timing: Timing,
        delivery: Delivery,
        spectating: SpectatorRecord,
    ) -> None:
        self._game_id = game_id
        self._state = state
        self._ledger = ledger
        self._current_wait = current_wait
        self._deadline = deadline
        self._timing = timing
        self._delivery = delivery
        self._spectating = spectating

    async def open_phase(self) -> None:
        """A game that starts at its Shipment & Movement phase (a phase played alone), with
        nobody acted yet: the phase's opening, to the table (the first player pinged) and
        the spectators; else nothing (a game from its set-up opens with its first phase)."""
        state, ledger = self._state(), self._ledger()
        if state is None or ledger is None or ledger.can_undo:
            return
        if state.game_phase is not GamePhase.SHIPMENT_MOVEMENT:
            return
        view = state.public_view()
        if view.phase_complete:
            return
        deadline = self._deadline
        lines = opening_lines(
            view, self._timing, deadline=deadline.at, paused_left=deadline.paused_left
        )
        notice = PublicNotice("\n".join(lines), game_id=self._game_id, mention=first_of(view))
        self._delivery.public(notice)
        self._delivery.spectators(replace(notice, mention=None))
        self._spectating.open(view)

    def lines(self, events: Sequence[Event], view: PublicView) -> list[str]:
        """A whole game's phase begins in ``events``: its opening lines (else none), with the
        deadline the first wait will get."""
        wait = self._current_wait()
        if not phase_begins(events) or wait is None:
            return []
        length = self._timing.prompt if wait.kind == "prompt" else self._timing.step
        deadline = self._deadline.clock.now() + length
        paused_left = self._deadline.paused_left
        return opening_lines(
            view, self._timing, deadline=deadline, paused_left=paused_left, title=False
        )
