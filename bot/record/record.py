"""The spectators' record: a readable account instead of the table's running log.

The table hears every action at once, with whom the game waits for. Spectators read a
record instead (the same public words, never a "Waiting for ..." line):

- in a Shipment & Movement phase, one message per faction's turn: what it shipped and
  moved, what it paid in public, the Karama cards played, everything others did in its
  turn (advisors, windows answered in public), with the map of the end of that turn (the
  Guild's delay is no turn: its line goes out alone, and its turn gets one heading, later);
- at the phase's end, a summary: who shipped and moved what, the spice paid, Karama played,
  read from the log's actions in effect (an undone action is not counted, and a restart
  loses nothing);
- outside that phase (a whole game's other phases), each announcement's public lines, a
  message per phase they run through (its pictures, drawn as the first phase ended, go
  with the first);
- at the game's end, its summary (:mod:`bot.record.summary`: the result, each faction's
  path, the turning battles) with the charts, for the table too.

Everything here reads public events and the :class:`~rules.view.PublicView` only.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from bot.publisher import PublicNotice
from bot.record.story import charts_picture, game_story
from bot.record.summary import game_summary
from bot.store import Store
from bot.store.history import History
from bot.words import ceremony, narrate
from bot.words.common import possessive
from rules.events import (
    BribePaid,
    Event,
    GameWon,
    GuildDelays,
    KaramaCancelled,
    KaramaPower,
    KaramaPrevented,
    Landing,
    Moved,
    PhaseBegan,
    PhaseComplete,
    Retake,
    Sent,
    ShipmentStopped,
    Shipped,
    ShippedToReserves,
    TurnEnded,
    TurnStarted,
)
from rules.factions import Faction
from rules.game_model import GamePhase
from rules.view import PublicView

SHIPMENT_MOVEMENT = GamePhase.SHIPMENT_MOVEMENT.value
KARAMA = (KaramaCancelled, KaramaPrevented, KaramaPower, ShipmentStopped)


@dataclass(frozen=True, slots=True)
class Entry:
    """One message for the spectators; ``with_map``: it takes the map of the announcement
    it comes from (the position at its end); ``table``: posted at the table too."""

    notice: PublicNotice
    with_map: bool = False
    table: bool = False  # the table reads it too (the game's summary at its end)


@dataclass
class SpectatorRecord:
    """One game's record for its spectators (see the module's description)."""

    game_id: int
    store: Store
    turn: Faction | None = None  # whose turn of the phase is being recorded
    in_phase: bool = False  # inside a Shipment & Movement phase
    lines: list[str] = field(default_factory=list)  # the turn's so far
    again: bool = False  # the turn was taken up again (a Karama made it retake an action)

    async def restore(self, view: PublicView) -> None:
        """After a (re)start: the turn under way, from the log's actions in effect."""
        self.in_phase = not view.phase_complete and view.game.in_shipment_movement
        self.turn, self.lines = None, []
        if not self.in_phase:
            return
        events = await phase_events(self.store, self.game_id)
        marks = [i for i, e in enumerate(events) if isinstance(e, TurnStarted | TurnEnded)]
        last = marks[-1] if marks else -1
        began = events[last] if last >= 0 else None
        self.turn = began.faction if isinstance(began, TurnStarted) else view.to_act
        self.lines = [line for e in events[last + 1 :] for line in _lines(e, view)]

    def open(self, view: PublicView) -> None:
        """A phase played alone begins (``/game start``): its first turn is recorded."""
        self.in_phase, self.turn, self.lines = True, view.to_act, []

    async def add(
        self,
        events: Sequence[Event],
        view: PublicView,
        *,
        note: str | None = None,
        opening: Sequence[str] = (),
    ) -> list[Entry]:
        """The spectators' messages for one announcement (none while a turn goes on)."""
        out: list[Entry] = []
        loose: list[str] = []
        won = any(isinstance(event, GameWon) for event in events)
        if note and note != narrate.WINDOW_CLOSED:  # the table's pacing, not news
            (self.lines if self.turn is not None else loose).append(note)
        for event in events:
            if isinstance(event, PhaseBegan) and not self.in_phase:
                # a phase's lines are a message of their own (the last phase's end with
                # them): the map and the battle's picture come right after those of the
                # phase they show, not a later one's
                *ended, head = _lines(event, view) or [""]
                loose += ended
                if loose:
                    out.append(Entry(self._notice(loose), with_map=not (out or won)))
                loose = [head] if head else []
                if event.phase == SHIPMENT_MOVEMENT:
                    loose += opening
                    self.in_phase, self.turn, self.lines = True, None, []
            elif isinstance(event, PhaseBegan) and event.phase == SHIPMENT_MOVEMENT:
                loose += [*_lines(event, view), *opening]
                self.in_phase, self.turn, self.lines = True, None, []
            elif not self.in_phase:
                loose += _lines(event, view)
            elif isinstance(event, TurnStarted):
                self._flush(out, loose)
                self.turn, self.lines = event.faction, []
            elif isinstance(event, TurnEnded):
                self.turn = event.faction  # a turn retaken after a Karama is its own
                self._flush(out, loose)
            elif isinstance(event, GuildDelays):  # not its turn yet: no heading of its own
                loose.extend([*self.lines, *_lines(event, view)])
                self.turn, self.lines = None, []
            elif isinstance(event, Retake) and event.faction is not self.turn:
                self.turn, self.again = event.faction, True  # its turn again
                self.lines.extend(_lines(event, view))
            elif isinstance(event, PhaseComplete):
                self._flush(out, loose)
                if loose:
                    out.append(Entry(self._notice(loose)))
                    loose = []
                summary = summary_lines(await phase_events(self.store, self.game_id), view)
                out.append(Entry(self._notice([*_lines(event, view), *summary])))
                self.in_phase = False
            else:
                (self.lines if self.turn is not None else loose).extend(_lines(event, view))
        if loose:  # the game's end takes the last map: the position it ended in
            out.append(Entry(self._notice(loose), with_map=won or not out))
        if won:
            out += await self._summary()
        return out

    async def _summary(self) -> list[Entry]:
        """The game's summary at its end, for the table too: the result, each faction's
        path, the turning battles, with the charts (:mod:`bot.record.summary`)."""
        story = await game_story(self.store, self.game_id)
        parts = game_summary(story)
        if not parts:
            return []
        png = await asyncio.to_thread(charts_picture, story)
        notices = [self._notice([part]) for part in parts]
        notices[1] = replace(notices[1], charts=png)  # beside each faction's path
        return [Entry(notice, table=True) for notice in notices]

    def _flush(self, out: list[Entry], loose: list[str]) -> None:
        """The turn under way ends: its message, with the map."""
        if self.turn is None:
            return
        if loose:  # what happened outside the turn, before it ended
            self.lines = [*loose, *self.lines]
            loose.clear()
        head = f"**{possessive(self.turn)} turn**" + (", continued" if self.again else "")
        out.append(Entry(self._notice([head, *self.lines]), with_map=True))
        self.turn, self.lines, self.again = None, [], False

    def _notice(self, lines: Iterable[str]) -> PublicNotice:
        return PublicNotice("\n".join(lines), game_id=self.game_id)


def _lines(event: Event, view: PublicView) -> list[str]:
    """An event's public lines, as the table reads them (never whom the game waits for)."""
    return ceremony.lines([event], view)


async def phase_events(store: Store, game_id: int) -> list[Event]:
    """The events of the log's entries in effect since the current (or last) Shipment &
    Movement phase began: undone actions left out, redone ones counted once."""
    log = await store.log(game_id)
    history = History.of((e.seq, e.kind, e.target) for e in log)
    by_seq = {e.seq: e for e in log}
    actions = history.effective[1:]  # not the start entry: a position, not a deed
    events = [event for seq in actions for event in by_seq[seq].events]
    began = [
        i
        for i, e in enumerate(events)
        if isinstance(e, PhaseBegan) and e.phase == SHIPMENT_MOVEMENT
    ]
    return events[began[-1] + 1 :] if began else events


# -- the phase's summary ---------------------------------------------------------------------


@dataclass
class _Tally:
    """One faction's deeds of the phase: (words, spice paid, to whom), in order."""

    deeds: list[tuple[str, int, str]] = field(default_factory=list)
    paid: int = 0  # for others (an ally's shipment) and in bribes


def summary_lines(events: Sequence[Event], view: PublicView) -> list[str]:
    """Who shipped and moved what, the spice each paid in public, the Karama played.

    An action cancelled by a Karama card and retaken (:class:`~rules.events.Retake`)
    counts once, as retaken."""
    tally = {f: _Tally() for f in view.storm_order or [f.faction for f in view.factions]}
    karama: list[str] = []
    for event in events:
        faction = getattr(event, "faction", None)
        if not isinstance(faction, Faction):
            continue
        who = tally.setdefault(faction, _Tally())
        if isinstance(event, Landing):
            verb = "sent" if isinstance(event, Sent) else "shipped"
            forces = narrate.count(event.forces, event.special, of=faction)
            words = f"{verb} {forces} to {narrate.where(event.to, event.sector)}"
            who.deeds.append((words, event.cost - event.ally_paid, event.paid_to))
            if event.ally is not None and event.ally_paid:
                tally.setdefault(event.ally, _Tally()).deeds.append(
                    (f"paid for the {faction.label} shipment", event.ally_paid, event.paid_to)
                )
        elif isinstance(event, ShippedToReserves):
            forces = narrate.count(event.forces, event.special, of=faction)
            words = f"shipped {forces} from {event.from_territory} back to reserves"
            who.deeds.append((words, event.cost, event.paid_to))
        elif isinstance(event, Moved):
            noun = "advisor" if event.advisors else "force"
            forces = narrate.count(event.forces, event.special, noun, of=faction)
            who.deeds.append((f"moved {forces} {narrate.route(event)}", 0, ""))
        elif isinstance(event, Retake) and who.deeds:
            who.deeds.pop()  # cancelled: what it does instead follows
        elif isinstance(event, BribePaid):
            who.paid += event.amount
        if isinstance(event, KARAMA) or (isinstance(event, Shipped) and event.karama):
            karama.append(narrate.describe(event) or f"{faction.label} played Karama.")
    lines = ["**The Shipment & Movement phase in short**"]
    payees: dict[str, int] = {}
    for faction, done in tally.items():
        for _, paid, payee in done.deeds:
            if paid:
                payees[payee] = payees.get(payee, 0) + paid
        if faction not in view.storm_order and not done.deeds:
            continue
        parts = [words for words, _, _ in done.deeds] or ["neither shipped nor moved"]
        spent = done.paid + sum(paid for _, paid, _ in done.deeds)
        spice = f"; paid {spent} spice" if spent else ""
        lines.append(f"- {faction.label}: {'; '.join(parts)}{spice}.")
    if payees:
        to = ", ".join(f"{amount} to {_payee(payee)}" for payee, amount in payees.items())
        lines.append(f"Spice paid for shipments: {sum(payees.values())} in all ({to}).")
    if karama:
        lines.append(f"Karama played: {' '.join(karama)}")
    return lines


def _payee(payee: str) -> str:
    return "the Spice Bank" if payee == "spice_bank" else f"the {narrate.name(payee)}"
