"""A phase declared once: what the machine, the legal actions, the defaults and the bot's
waits need of it, in one frozen :class:`PhaseSpec` that its rules module exports as ``SPEC``.

The registry (:data:`rules.phases.REGISTRY`) gathers the specs; nothing else names a phase
in a table. Each action a phase accepts is declared with :func:`on`, which pairs the
action's type with its handler where mypy checks that the handler takes that action.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Generic, Protocol, TypeVar

from rules.actions import Action, FactionAction, Pass, PhaseDone
from rules.events import Event
from rules.factions import Faction
from rules.game_model import GamePhase, TurnState
from rules.position import Position

A = TypeVar("A", bound=Action)


class Runs(Protocol):
    """One action's handler, whatever the action's type (an :class:`Entry`)."""

    @property
    def kind(self) -> type[Action]: ...

    def run(self, state: Position, action: Action) -> list[Event]: ...


@dataclass(frozen=True, slots=True)
class Entry(Generic[A]):
    """An action's type and the handler that carries it out."""

    kind: type[A]
    handler: Callable[[Position, A], list[Event]]

    def run(self, state: Position, action: Action) -> list[Event]:
        if not isinstance(action, self.kind):
            raise TypeError(f"{action.name} is not a {self.kind.__name__}")
        return self.handler(state, action)


def on(kind: type[A], handler: Callable[[Position, A], list[Event]]) -> Runs:
    """``kind`` is carried out by ``handler`` (checked by mypy here, where it is declared:
    the handler must take that action)."""
    return Entry(kind, handler)


def handlers(*entries: Runs) -> Mapping[type[Action], Runs]:
    """The entries by action type; one type declared twice is a mistake."""
    table: dict[type[Action], Runs] = {}
    for entry in entries:
        if entry.kind in table:
            raise ValueError(f"{entry.kind.__name__} is handled twice")
        table[entry.kind] = entry
    return table


class Stepped(Protocol):
    """Where a game is: its phase and the step inside it (a ``TurnState``, or the public
    view of it, whose phase and step are plain strings). The phase modules' predicates
    ("is the auction open?") take either."""

    @property
    def phase(self) -> str: ...

    @property
    def step(self) -> str: ...


Offer = Callable[[Position, Faction], Iterable[FactionAction]]
"""The actions a faction is offered now (each still to be tested for legality)."""


class Pick(Protocol):
    """A deadline's default among the legal actions offered (None: the general fallback,
    a pass or else the first offered). ``is_legal`` tests an action not offered."""

    def __call__(
        self,
        state: Position,
        faction: Faction,
        legal: Sequence[FactionAction],
        is_legal: Callable[[Action], bool],
    ) -> FactionAction | None: ...


def first_of(legal: Sequence[FactionAction], kind: type[FactionAction]) -> FactionAction | None:
    """The first legal action of ``kind`` (None if there is none)."""
    return next((a for a in legal if isinstance(a, kind)), None)


def _no_part(game: TurnState) -> str:
    return ""


def _no_turn_part(state: Position) -> str:
    return ""


def _never(game: TurnState) -> bool:
    return False


@dataclass(frozen=True, slots=True)
class PhaseWaits:
    """What the bot's waits need of a phase, from public facts only.

    ``step_part`` is added to the step in the wait's key (each battle is a wait of its
    own), ``turn_part`` at the end of the key (each turn to bid is one);
    ``left_to_moderators`` says the phase waits for the moderators' "phase done" (no
    faction asked); ``asked_alike`` that the factions waited on are asked a choice alike,
    whatever they hold (docs/secrets-and-waits.md).
    """

    step_part: Callable[[TurnState], str] = _no_part
    turn_part: Callable[[Position], str] = _no_turn_part
    left_to_moderators: Callable[[TurnState], bool] = _never
    asked_alike: Callable[[TurnState], bool] = _never


@dataclass(frozen=True, slots=True)
class PhaseView:
    """A phase's own part of the views (:mod:`rules.view`), under ``name``: ``public``
    gives what everyone sees of it (None while it has nothing to show), ``secret`` what
    one faction alone sees (a frozen dataclass; its fields read as the faction's secrets).
    The phase's own view module reads them back for its words and pictures."""

    name: str
    public: Callable[[Position], object | None]
    secret: Callable[[Position, Faction], object] | None = None


@dataclass(frozen=True, slots=True)
class Dealt:
    """What a set-up choice's deal did, told in set-up's order: the decks it shuffled (told
    with the others) and what it dealt (told after the treachery cards)."""

    shuffled: list[Event]
    dealt: list[Event]


@dataclass(frozen=True, slots=True)
class SetupChoice:
    """A secret choice the factions make at set-up for a later phase, declared by that
    phase's spec (``setup``): the traitor each keeps for the battles (0.11). The set-up
    phase (:mod:`rules.setup`) deals it when it begins (``deal``, the factions in seat
    order), waits on each faction that ``owes`` it, offers its actions, carries them out
    (``handlers``: the set-up checks first that the faction owes it, and waits anew after)
    and, on a deadline, takes ``default``'s pick among the legal actions offered. ``name``
    is how a refusal names it ("Atreides has no traitor to choose at set-up")."""

    name: str
    rule: str
    deal: Callable[[Position, Sequence[Faction]], Dealt]
    owes: Callable[[Position, Faction], bool]
    offered: Offer
    handlers: Mapping[type[Action], Runs]
    default: Callable[[Sequence[FactionAction], Faction], FactionAction | None]


@dataclass(frozen=True, slots=True)
class HeldLeaders:
    """A faction's key of a whole-game scenario (docs/SCENARIO-FORMAT-2.md) that a phase
    declares in its spec (``scenario_keys``): the leader cards, of any faction in play, a
    faction holds for the phase (the traitors, for the battles). The scenario reads each
    faction's list of leader names (none when not given) and sets them all in the game
    (``into``); its final state lists each faction's again (``held``)."""

    key: str
    into: Callable[[TurnState, Mapping[Faction, tuple[str, ...]]], TurnState]
    held: Callable[[TurnState, Faction], tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class PhaseSpec:
    """One phase: its rule, its steps, its actions and handlers, how it begins, its
    pass and its "phase done", what it offers, its default on a deadline and its waits.

    ``dispatch``, when given, carries out every action of the phase itself (the Shipment
    & Movement phase, with its prompts); ``finished`` says when the phase's step is over
    by itself (then the machine marks it done). ``declinable`` lists the steps whose
    choice an action answering something else declines, in a scenario
    (docs/SCENARIO-FORMAT-2.md); a faction's turn (to bid, to ship and move) is none;
    ``own_answers`` are the answers to the phase's own choice there, which, refused, say
    why and decline nobody's. ``records`` lists some records the moderator could make now
    (corrections while the engine runs the phase), "phase done" first; none elsewhere.
    ``views`` are the phase's own parts of the public and private views (:class:`PhaseView`);
    ``setup`` the secret choices it has the factions make at set-up (:class:`SetupChoice`),
    ``scenario_keys`` its keys of a faction in a whole-game scenario (:class:`HeldLeaders`).

    Besides its own turn, a phase may own actions played in any phase (the Revival phase's
    Tleilaxu Ghola): ``any_time`` are their handlers, which the machine runs whatever the
    phase under way, and ``any_time_offered`` what they offer a faction now (each then
    tested by ``is_legal``). ``prevented`` runs after every Karama played against a whole
    turn's ability, in any phase: what it stops at once of the phase's part (the Emperor's
    payment for its ally's revival, 2.03.07), with the events that say so.
    """

    phase: GamePhase
    rule: str
    steps: type[StrEnum]
    begin: Callable[[Position], list[Event]]
    handlers: Mapping[type[Action], Runs] = field(default_factory=dict)
    pass_: Callable[[Position, Pass], list[Event]] | None = None
    phase_done: Callable[[Position, PhaseDone], list[Event]] | None = None
    offered: Offer | None = None
    default: Pick | None = None
    waits: PhaseWaits = PhaseWaits()
    dispatch: Callable[[Position, Action], list[Event]] | None = None
    finished: Callable[[Position], bool] | None = None
    declinable: frozenset[str] = frozenset()
    own_answers: tuple[type[Action], ...] = ()
    records: Callable[[Position], Sequence[Action]] | None = None
    views: tuple[PhaseView, ...] = ()
    setup: tuple[SetupChoice, ...] = ()
    scenario_keys: tuple[HeldLeaders, ...] = ()
    any_time: Mapping[type[Action], Runs] = field(default_factory=dict)
    any_time_offered: Offer | None = None
    prevented: Callable[[Position], list[Event]] | None = None

    table: Mapping[type[Action], Runs] = field(init=False, repr=False, compare=False)
    """Every action the phase takes, by type: its handlers, its pass and "phase done"."""

    def __post_init__(self) -> None:
        slots = [on(Pass, self.pass_)] if self.pass_ is not None else []
        slots += [on(PhaseDone, self.phase_done)] if self.phase_done is not None else []
        object.__setattr__(self, "table", handlers(*self.handlers.values(), *slots))

    def handler(self, action: Action) -> Runs | None:
        """What carries out ``action`` in this phase (None: not one of its actions)."""
        return self.table.get(type(action))

    def offers(self, state: Position, faction: Faction) -> list[FactionAction]:
        """What the phase offers ``faction`` now (before the legality test)."""
        return [] if self.offered is None else list(self.offered(state, faction))

    def any_time_offers(self, state: Position, faction: Faction) -> list[FactionAction]:
        """What the phase's any-time actions offer ``faction`` now (before the legality
        test), whatever the phase under way."""
        return [] if self.any_time_offered is None else list(self.any_time_offered(state, faction))
