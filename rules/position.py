"""The position: what is on the board, behind the shields and where the phase stands.

A :class:`Position` is data plus the small queries and changes the rule
modules use (add forces, pay spice, open prompts). It imports no rule module:
the phase machine (:mod:`rules.machine`) dispatches actions to the rule
modules, which take the position. :class:`rules.game.GameState` is the
position with the public API on top (apply, undo, legal actions).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any, Self

from rules.board import ORNITHOPTER_CITIES, Board, Territory, standard_board, storm_order_seats
from rules.components import is_worthless
from rules.errors import InvalidActionError, NotYourTurnError, quote
from rules.factions import KARAMA, Faction, same_card
from rules.frozen import evolver
from rules.game_model import GamePhase, TurnState, evolve
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
    stack_order,
    stack_to_dict,
)

RESOLVING_RULE = "1.00.05"

_evolve_phase = evolver(Phase)
_evolve_holdings = evolver(FactionState)


def storm_order(seats: tuple[Faction | None, ...], storm_sector: int) -> tuple[Faction, ...]:
    """Seated factions in storm order, first player first; empty seats skipped."""
    padded = list(seats) + [None] * (6 - len(seats))
    return tuple(f for i in storm_order_seats(storm_sector) if (f := padded[i]) is not None)


class Position:
    """Everything the rules read and change: the board, the factions' holdings, the phase
    under way (``phase``: its turns and open prompts) and the whole game's state (``game``:
    the turn, the phase of the turn, the decks and the choices awaited). A Shipment &
    Movement phase played alone is a game that starts at that phase and stops after it."""

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
        game: TurnState,
    ) -> None:
        self.game = game
        self.board = board or standard_board()
        self.rules = rules or RuleSet()
        self.storm_sector = storm_sector
        self.seats: tuple[Faction | None, ...] = tuple(seats)
        self.alliances: frozenset[frozenset[Faction]] = frozenset(frozenset(a) for a in alliances)
        self.factions: dict[Faction, FactionState] = dict(factions)
        self.stacks: dict[StackKey, Stack] = {k: v for k, v in (stacks or {}).items() if v.total}
        self.spice_bank = spice_bank
        self.board_spice: dict[tuple[str, int | None], int] = dict(board_spice or {})
        self.phase = phase or Phase(order=storm_order(self.seats, storm_sector))
        self._begin()

    def _begin(self) -> None:
        """What a subclass does once the position is built (the phase machine starts it)."""

    # -- who and where ---------------------------------------------------

    @property
    def is_complete(self) -> bool:
        return self.phase.complete

    def to_act(self) -> Faction | None:
        """The faction whose turn it is (None once the phase is complete)."""
        return self.phase.turn.faction if self.phase.turn else None

    def open_prompts(self) -> tuple[Prompt, ...]:
        return self.phase.open_prompts

    def in_game(self, faction: Faction) -> bool:
        return faction in self.factions

    def ally_of(self, faction: Faction) -> Faction | None:
        for pair in self.alliances:
            if faction in pair and len(pair) == 2:
                return next(f for f in pair if f != faction)
        return None

    # -- snapshots and serialisation --------------------------------------

    def snapshot(self) -> Snapshot:
        return Snapshot(
            factions=tuple(self.factions.items()),
            stacks=tuple(self.stacks.items()),
            spice_bank=self.spice_bank,
            phase=self.phase,
            game=self.game,
            storm_sector=self.storm_sector,
            board_spice=tuple(self.board_spice.items()),
            alliances=self.alliances,
        )

    def copy(self) -> Self:
        """A separate position equal to this one, for a query to try an action on: cheap,
        as the values are frozen and shared; only the containers are new."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.factions = dict(self.factions)
        other.stacks = dict(self.stacks)
        other.board_spice = dict(self.board_spice)
        return other

    def restore(self, snap: Snapshot) -> None:
        self.factions = dict(snap.factions)
        self.stacks = dict(snap.stacks)
        self.spice_bank = snap.spice_bank
        self.phase = snap.phase
        if snap.game is not None:
            self.game = snap.game
        if snap.storm_sector is not None:
            self.storm_sector = snap.storm_sector
        if snap.board_spice is not None:
            self.board_spice = dict(snap.board_spice)
        if snap.alliances is not None:
            self.alliances = snap.alliances

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

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    # -- board queries used by the rule modules ---------------------------

    def territory(self, name: str, *, rule: str, what: str = "territory") -> Territory:
        found = self.board.resolve(name)
        if found is None:
            close = self.board.closest(name)
            hint = f"; did you mean {close}?" if close else ""
            raise InvalidActionError(
                f"there is no {what} called {quote(name)} on the board{hint}", rule=rule
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

    # -- the whole game (turn, phase, decks) -------------------------------

    @property
    def whole(self) -> TurnState:
        """The whole game's state (the turn, its phase, the decks...)."""
        return self.game

    def in_phase(self, phase: GamePhase) -> bool:
        return self.game.phase is phase

    def check_nothing_resolving(self) -> None:
        """1.00.05: nobody acts while a faction ability is being resolved: a Shipment &
        Movement prompt open (a Karama window keeps the position from before the ability,
        which a cancel restores) lets no bribe, gift, Karama or Ghola in meanwhile."""
        if self.in_phase(GamePhase.SHIPMENT_MOVEMENT) and self.phase.stages:
            raise NotYourTurnError(
                "nobody acts while a faction ability is being resolved", rule=RESOLVING_RULE
            )

    def set_game(self, **changes: Any) -> None:
        self.game = evolve(self.whole, changes)

    def from_bank(self, faction: Faction, amount: int) -> int:
        """The bank pays ``faction`` up to ``amount`` (what it holds); returns what it paid."""
        paid = max(0, min(amount, self.spice_bank))
        self.spice_bank -= paid
        self.update(faction, spice=self.factions[faction].spice + paid)
        return paid

    def spice_at(self, territory: str, sector: int | None) -> int:
        return self.board_spice.get((territory, sector), 0)

    def put_spice(self, territory: str, sector: int | None, amount: int) -> int:
        """Put up to ``amount`` spice from the bank on the board; returns what was put."""
        placed = max(0, min(amount, self.spice_bank))
        if placed:
            self.spice_bank -= placed
            key = (territory, sector)
            self.board_spice[key] = self.board_spice.get(key, 0) + placed
        return placed

    def take_spice(self, territory: str, sector: int | None, amount: int) -> None:
        """Take spice off the board (the caller sends it to a faction or the bank)."""
        key = (territory, sector)
        left = self.board_spice.get(key, 0) - amount
        if left < 0:
            raise AssertionError(f"negative spice at {key}")
        if left:
            self.board_spice[key] = left
        else:
            self.board_spice.pop(key, None)

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
        new = _evolve_holdings(self.factions[faction], changes)
        if min(new.spice, new.reserves, new.special_reserves, new.tanks, new.special_tanks) < 0:
            raise AssertionError(f"negative holding for {faction.value}: {new}")
        self.factions[faction] = new

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
        """``faction`` discards ``card`` onto the treachery discard pile."""
        cards = list(self.factions[faction].cards)
        cards.remove(card)
        self.update(faction, cards=tuple(cards))
        self.set_game(treachery_discard=(card, *self.game.treachery_discard))

    def to_tanks(self, faction: Faction, territory: str, sector: int | None, lost: Stack) -> None:
        self.remove(faction, territory, sector, lost)
        state = self.factions[faction]
        self.update(
            faction,
            tanks=state.tanks + lost.forces + lost.advisors,
            special_tanks=state.special_tanks + lost.special,
        )

    def set_phase(self, **changes: Any) -> None:
        self.phase = _evolve_phase(self.phase, changes)

    def push_stages(self, *stages: tuple[Prompt, ...]) -> None:
        """Open new prompts in front of any still waiting."""
        new = tuple(s for s in stages if s)
        self.phase = _evolve_phase(self.phase, {"stages": new + self.phase.stages})

    def append_stage(self, stage: tuple[Prompt, ...]) -> None:
        if stage:
            self.phase = _evolve_phase(self.phase, {"stages": (*self.phase.stages, stage)})

    def karama_stage(
        self, uses: Iterable[tuple[Faction, Ability]], before: Snapshot, redo: JSON | None = None
    ) -> tuple[Prompt, ...]:
        """One Karama window per ✷ ability just used, open to every faction but its user.

        A cancel restores ``before`` except the storm, which no ability moves (a
        moderator's correction of it stands).
        """
        uses = list(uses)
        if not uses:
            return ()
        before = replace(before, storm_sector=None)
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


def board_stacks_from_dicts(entries: Iterable[Mapping[str, Any]]) -> dict[StackKey, Stack]:
    out: dict[StackKey, Stack] = {}
    for data in entries:
        key, stack = stack_from_dict(data)
        out[key] = out.get(key, Stack()) + stack
    return out


def board_stacks_to_dicts(stacks: Mapping[StackKey, Stack]) -> list[JSON]:
    return [stack_to_dict(k, v) for k, v in sorted(stacks.items(), key=stack_order)]
