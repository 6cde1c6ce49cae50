"""The game position and the Shipment & Movement phase state machine.

``GameState`` is the one mutable object of the engine, like python-chess's
``Board``: ``apply(action)`` validates an action, changes the position and
returns the events; a refused action raises a :class:`RulesError` and changes
nothing; ``undo()`` restores the position before the last accepted action.

The phase is a deterministic machine: a faction to act (its turn: shipment
step, then movement step) and, besides it, stages of prompts (Karama windows,
Bene Gesserit advise/intrusion/wartime, Guild timing). Only the first stage
is open. An action that answers none of the open prompts declines them and
is then processed normally.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

from rules import bene_gesserit, guild, karama, movement, shipment, turn_flow
from rules.actions import (
    Action,
    Advise,
    ClosePrompts,
    CrossShip,
    Decline,
    FactionAction,
    Flip,
    GuildDelay,
    GuildNow,
    KaramaCancel,
    KaramaPrevent,
    KaramaStopShipment,
    Move,
    Pass,
    PlayHajr,
    Send,
    Ship,
    ShipToReserves,
)
from rules.board import ORNITHOPTER_CITIES, Board, Territory, standard_board
from rules.errors import InvalidActionError, NotYourTurnError, RulesError, quote
from rules.events import Event
from rules.factions import KARAMA, Faction, is_worthless, same_card
from rules.model import (
    JSON,
    Ability,
    FactionState,
    Phase,
    Prompt,
    PromptKind,
    RuleSet,
    Snapshot,
    Stack,
    StackKey,
    stack_from_dict,
    stack_to_dict,
)
from rules.view import PrivateView, PublicView, private_view, public_view

Handler = Callable[[Any, Any], list[Event]]

UNDO_LIMIT = 1000
"""How many positions ``undo()`` can step back (a long-lived game must not grow forever)."""

HANDLERS: dict[type[Action], Handler] = {
    Ship: shipment.ship,
    Send: shipment.send,
    CrossShip: shipment.cross_ship,
    ShipToReserves: shipment.ship_to_reserves,
    Move: movement.move,
    Pass: turn_flow.pass_,
    Decline: turn_flow.decline,
    PlayHajr: turn_flow.play_hajr,
    KaramaCancel: karama.cancel,
    KaramaPrevent: karama.prevent,
    KaramaStopShipment: guild.stop_shipment,
    Advise: bene_gesserit.advise,
    Flip: bene_gesserit.flip,
    GuildNow: guild.now,
    GuildDelay: guild.delay,
    ClosePrompts: turn_flow.close_prompts,
}


class GameState:
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
        self.board = board or standard_board()
        self.rules = rules or RuleSet()
        self.storm_sector = storm_sector
        self.seats: tuple[Faction | None, ...] = tuple(seats)
        self.alliances: frozenset[frozenset[Faction]] = frozenset(frozenset(a) for a in alliances)
        self.factions: dict[Faction, FactionState] = dict(factions)
        self.stacks: dict[StackKey, Stack] = {k: v for k, v in (stacks or {}).items() if v.total}
        self.spice_bank = spice_bank
        self.board_spice: dict[tuple[str, int | None], int] = dict(board_spice or {})
        self.phase = phase or Phase(order=turn_flow.storm_order(self.seats, storm_sector))
        self._history: deque[Snapshot] = deque(maxlen=UNDO_LIMIT)
        if not self.phase.started:
            self.phase = replace(self.phase, started=True)
            turn_flow.start_phase(self)

    # -- the public API ----------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Validate and carry out ``action``; return what happened.

        Raises a :class:`RulesError` subclass (and changes nothing) when the
        action is malformed, breaks a rule, or comes from a faction that may
        not act now.
        """
        before = self.snapshot()
        try:
            events = self._apply(action)
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

    @property
    def is_complete(self) -> bool:
        return self.phase.complete

    def to_act(self) -> Faction | None:
        """The faction whose turn it is (None once the phase is complete)."""
        return self.phase.turn.faction if self.phase.turn else None

    def open_prompts(self) -> tuple[Prompt, ...]:
        return self.phase.open_prompts

    def answers_open_prompt(self, action: Action) -> bool:
        """True if ``action`` answers one of the open prompts (not a later stage's)."""
        return turn_flow.answers_first_stage(self, action)

    def in_game(self, faction: Faction) -> bool:
        return faction in self.factions

    def ally_of(self, faction: Faction) -> Faction | None:
        for pair in self.alliances:
            if faction in pair and len(pair) == 2:
                return next(f for f in pair if f != faction)
        return None

    def public_view(self) -> PublicView:
        return public_view(self)

    def view_for(self, faction: Faction) -> PrivateView:
        return private_view(self, faction)

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
        return turn_flow.legal_action_names(self, faction, open_stage_only=open_stage_only)

    # -- snapshots and serialisation --------------------------------------

    def snapshot(self) -> Snapshot:
        return Snapshot(
            factions=tuple(self.factions.items()),
            stacks=tuple(self.stacks.items()),
            spice_bank=self.spice_bank,
            phase=self.phase,
        )

    def restore(self, snap: Snapshot) -> None:
        self.factions = dict(snap.factions)
        self.stacks = dict(snap.stacks)
        self.spice_bank = snap.spice_bank
        self.phase = snap.phase

    def to_dict(self) -> JSON:
        """The whole position (not the undo history) as JSON-friendly data."""
        return {
            "rules": self.rules.to_dict(),
            "storm_sector": self.storm_sector,
            "seats": [f.value if f else None for f in self.seats],
            "alliances": sorted(sorted(f.value for f in a) for a in self.alliances),
            "board_spice": [
                {"territory": t, "sector": s, "amount": n}
                for (t, s), n in sorted(
                    self.board_spice.items(), key=lambda i: (i[0][0], i[0][1] or 0)
                )
            ],
            **self.snapshot().to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameState:
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
            board_spice={
                (str(d["territory"]), d.get("sector")): int(d["amount"])
                for d in data.get("board_spice", ())
            },
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    # -- board queries used by the rule modules ---------------------------

    def territory(self, name: str, *, rule: str, what: str = "territory") -> Territory:
        found = self.board.resolve(name)
        if found is None:
            raise InvalidActionError(
                f"there is no {what} called {quote(name)} on the board", rule=rule
            )
        return found

    def stack(self, faction: Faction, territory: str, sector: int | None) -> Stack:
        return self.stacks.get((faction, territory, sector), Stack())

    def stacks_in(self, territory: str) -> dict[StackKey, Stack]:
        return {k: v for k, v in self.stacks.items() if k[1] == territory}

    def forces_in(self, faction: Faction, territory: str) -> Stack:
        total = Stack()
        for (f, t, _), s in self.stacks.items():
            if f == faction and t == territory:
                total = total + s
        return total

    def fighter_factions_in(self, territory: str) -> set[Faction]:
        return {f for (f, t, _), s in self.stacks.items() if t == territory and s.fighters}

    def factions_present(self, territory: str) -> set[Faction]:
        return {f for (f, t, _), s in self.stacks.items() if t == territory and s.total}

    def is_full_for(self, territory: Territory, faction: Faction) -> bool:
        """Occupancy limit: a stronghold holding fighters of two other factions."""
        if not territory.is_stronghold:
            return False
        return len(self.fighter_factions_in(territory.name) - {faction}) >= 2

    def in_storm(self, sector: int | None) -> bool:
        return sector is not None and sector == self.storm_sector

    def has_ornithopters(self, faction: Faction) -> bool:
        """Fighters (never advisors) in Arrakeen or Carthag (1.06.03.03)."""
        return any(self.forces_in(faction, city).fighters for city in ORNITHOPTER_CITIES)

    def karama_card(self, faction: Faction, card: str | None = None) -> str | None:
        """The card ``faction`` would play as a Karama, or None if it holds none."""
        usable = [c for c in self.factions[faction].cards if self._counts_as_karama(faction, c)]
        if card is not None:
            usable = [c for c in usable if same_card(c, card)]
        usable.sort(key=lambda c: not same_card(c, KARAMA))
        return usable[0] if usable else None

    def _counts_as_karama(self, faction: Faction, card: str) -> bool:
        if same_card(card, KARAMA):
            return True
        bg_worthless = faction is Faction.BENE_GESSERIT and self.rules.advanced
        return bg_worthless and is_worthless(card)

    @property
    def guild_in_game(self) -> bool:
        return Faction.SPACING_GUILD in self.factions

    @property
    def bg_in_game(self) -> bool:
        return Faction.BENE_GESSERIT in self.factions

    # -- changes used by the rule modules ---------------------------------

    def add(self, faction: Faction, territory: str, sector: int | None, delta: Stack) -> None:
        key = (faction, territory, sector)
        new = self.stacks.get(key, Stack()) + delta
        if min(new.forces, new.special, new.advisors) < 0:
            raise AssertionError(f"negative stack at {key}: {new}")
        if new.total:
            self.stacks[key] = new
        else:
            self.stacks.pop(key, None)

    def remove(self, faction: Faction, territory: str, sector: int | None, delta: Stack) -> None:
        self.add(faction, territory, sector, Stack(-delta.forces, -delta.special, -delta.advisors))

    def from_reserves(self, faction: Faction, stack: Stack) -> None:
        """Take regular and starred forces out of ``faction``'s reserves."""
        own = self.factions[faction]
        self.update(
            faction,
            reserves=own.reserves - stack.forces - stack.advisors,
            special_reserves=own.special_reserves - stack.special,
        )

    def to_reserves(self, faction: Faction, stack: Stack) -> None:
        """Put forces back into ``faction``'s reserves."""
        self.from_reserves(faction, Stack(-stack.forces, -stack.special, -stack.advisors))

    def update(self, faction: Faction, **changes: Any) -> None:
        self.factions[faction] = replace(self.factions[faction], **changes)

    def pay(self, payer: Faction, amount: int, to: Faction | None) -> None:
        """Move spice from ``payer`` to ``to`` (None: the Spice Bank)."""
        if amount <= 0:
            return
        self.update(payer, spice=self.factions[payer].spice - amount)
        if to is None:
            self.spice_bank += amount
        else:
            self.update(to, spice=self.factions[to].spice + amount)

    def discard(self, faction: Faction, card: str) -> None:
        cards = list(self.factions[faction].cards)
        cards.remove(card)
        self.update(faction, cards=tuple(cards))

    def to_tanks(self, faction: Faction, territory: str, sector: int | None, lost: Stack) -> None:
        self.remove(faction, territory, sector, lost)
        state = self.factions[faction]
        self.update(
            faction,
            tanks=state.tanks + lost.forces + lost.advisors,
            special_tanks=state.special_tanks + lost.special,
        )

    def set_phase(self, **changes: Any) -> None:
        self.phase = replace(self.phase, **changes)

    def push_stages(self, *stages: tuple[Prompt, ...]) -> None:
        """Open new prompts in front of any still waiting."""
        new = tuple(s for s in stages if s)
        self.phase = replace(self.phase, stages=new + self.phase.stages)

    def append_stage(self, stage: tuple[Prompt, ...]) -> None:
        if stage:
            self.phase = replace(self.phase, stages=(*self.phase.stages, stage))

    def karama_stage(
        self, uses: Iterable[tuple[Faction, Ability]], before: Snapshot, redo: JSON | None = None
    ) -> tuple[Prompt, ...]:
        """One Karama window per ✷ ability just used, open to every faction but its user."""
        return tuple(
            Prompt(
                PromptKind.KARAMA,
                tuple(f for f in self.phase.order if f != user),
                subject=user,
                ability=ability,
                before=before,
                redo=redo,
            )
            for user, ability in uses
        )

    # -- the machine -------------------------------------------------------

    def _apply(self, action: Action) -> list[Event]:
        if isinstance(action, FactionAction) and not self.in_game(action.faction):
            raise NotYourTurnError(
                f"{action.faction.label} is not in this game", rule=turn_flow.ORDER_RULE
            )
        if self.phase.complete:
            raise NotYourTurnError(
                "the Shipment & Movement phase is over", rule=turn_flow.ORDER_RULE
            )
        events: list[Event] = []
        while self.phase.stages and not turn_flow.answers_open_prompt(self, action):
            events += turn_flow.decline_stage(self)
        events += HANDLERS[type(action)](self, action)
        events += turn_flow.settle(self)
        return events


def board_stacks_from_dicts(entries: Iterable[Mapping[str, Any]]) -> dict[StackKey, Stack]:
    out: dict[StackKey, Stack] = {}
    for data in entries:
        key, stack = stack_from_dict(data)
        out[key] = out.get(key, Stack()) + stack
    return out


def board_stacks_to_dicts(stacks: Mapping[StackKey, Stack]) -> list[JSON]:
    return [stack_to_dict(k, v) for k, v in sorted(stacks.items(), key=_stack_sort)]


def _stack_sort(item: tuple[StackKey, Stack]) -> tuple[str, str, int]:
    (faction, territory, sector), _ = item
    return (faction.value, territory, sector or 0)
