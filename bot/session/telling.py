"""What a session tells the table, the spectators and the moderators after a change.

:class:`Telling` announces a change's events: first each faction's own side of them,
privately (:meth:`bot.session.turns.WholeTurn.tell_own_side`); then, when something public
happened, the spectators' record and the table's notice, in words at once (a whole
game's Shipment & Movement phase with its opening lines, an open window with the time it
closes), its map drawn off the session's task and attached later
(:class:`bot.record.announce.Announcer`). A "no" to a prompt that others still consider
tells the table nothing. A moderators' note goes to their channel and to the table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from bot.delivery import Delivery
from bot.publisher import ModeratorNotice, PublicNotice
from bot.record.announce import Announcer, Renderer, draw_maps
from bot.words import ceremony
from rules.events import Event, GameWon
from rules.game import GameState
from rules.view import PublicView

if TYPE_CHECKING:
    from bot.record.record import SpectatorRecord


class Telling:
    """The announcements of one game; remembers the wait it last told the table."""

    def __init__(
        self,
        game_id: int,
        *,
        state: Callable[[], GameState | None],
        own_side: Callable[[Sequence[Event]], None],
        opening: Callable[[Sequence[Event], PublicView], list[str]],
        window_line: Callable[[PublicNotice], PublicNotice],
        renderer: Callable[[], Renderer | None],
        delivery: Delivery,
        announcer: Announcer,
        spectating: SpectatorRecord,
    ) -> None:
        self._game_id = game_id
        self._state = state
        self._own_side = own_side  # each faction's own side, privately
        self._opening = opening  # a whole game's phase's opening lines
        self._window_line = window_line  # when an open window closes
        self._renderer = renderer  # read as it is when telling (None: no maps)
        self._delivery = delivery
        self._announcer = announcer
        self._spectating = spectating
        self._last_wait = ""  # the table's last "waiting for" words

    async def announce(self, events: Sequence[Event], *, note: str | None = None) -> None:
        """Tell ``events`` (and ``note``, a moderator's or the deadline's words)."""
        state, told = self._state(), list(events)
        assert state is not None
        self._own_side(told)  # the Atreides' look at a card, a buyer's spice left
        if not told and not note:
            return  # a secret choice (the Fremen's about their ally): nothing public happened
        view = state.public_view()
        opening = self._opening(told, view)
        record = await self._spectating.add(told, view, note=note, opening=opening)
        wait = ceremony.describe_wait(view)
        if not note and not ceremony.has_news(told) and wait == self._last_wait:
            return  # a "no" to a prompt that others still consider: nothing to tell
        self._last_wait = wait
        notice = ceremony.public_notice(
            told, view, game_id=self._game_id, note=note, opening=opening
        )
        notice = self._window_line(notice)  # an open window says when it closes
        # the words now; the map drawn off this task, attached to them and a turn's record:
        # the position as the action's first phase ended (it may have run on into others),
        # but the game's end for the last map
        won = any(isinstance(event, GameWon) for event in told)
        shown = view if won else state.public_view_at_phase_end(told)
        maps = draw_maps(self._renderer(), view, told, record, shown=shown)
        self._announcer.announce(notice, maps, record)

    def moderator_note(self, text: str) -> None:
        """For the moderators, and the table."""
        self._delivery.moderators(ModeratorNotice(text))
        self._delivery.public(PublicNotice(text, game_id=self._game_id))
