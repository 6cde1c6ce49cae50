"""Each phase's own words, registered by the phase's words module (issue 24).

A generic module of the words and the session (the turn's events and a faction's own side
of them, the choices, their passes, ``/status``, a newcomer's briefing, the game's summary)
never names a phase: it asks this registry, which each phase's words module fills when it
is imported, with one :class:`PhaseWords` a phase (the way :func:`bot.words.answers.presents`
registers a phase's buttons). Those modules are found by convention from the engine's
registry: ``bot.words.<phase>`` for each phase of :data:`rules.phases.REGISTRY` that has one
(:func:`load`), so no generic module imports a phase's words by name. A phase's words may
also register words for another phase's events (the traitor cards are the Battle's, dealt
and kept at set-up).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from bot.phase_parts import words_modules
from bot.publisher import Answer, PrivateNotice
from rules.actions import Action
from rules.events import Event
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from rules.view import PrivateView, PublicView

ShieldRow = tuple[int, str, str]
"""A row of "open the shields": its place among the rows, its name, its value in words."""
SPICE_ROW, CARDS_ROW, PREDICTION_ROW, DIAL_ROW = 0, 10, 20, 30
"""The places of the shield's own rows: its spice, its hand, the prediction, its storm
dial; a phase places its rows among them (after the hand: ``CARDS_ROW + 5``)."""
Describe = Callable[[Event], str | None]
"""The public sentence of an event (None: not one of the phase's)."""
OwnLine = Callable[[Event, PrivateView], str | None]
"""A faction's own line for one of its own events, read from its view after them."""
OwnLines = Callable[[list[Event], PrivateView], list[str]]
"""A faction's own side of a batch of events, read from its view after them."""
Prompt = Callable[[GameState, Faction, str | None, str], PrivateNotice]
"""What a faction is asked in the phase: (state, faction, token, deadline)."""
Declines = Callable[[GameState, Faction], tuple[str, str, str | None] | None]
"""What a pass of a faction declines now: the reply to it, what it passed on, the rule."""
Alike = Callable[[GameState, Faction, tuple[Answer, ...]], tuple[Answer, ...]]
"""A prompt's buttons, made alike for everyone asked the same (who holds a secret)."""


def _nobody(event: Event) -> Iterable[Faction]:
    return ()


@dataclass(frozen=True, slots=True)
class Step:
    """One action in effect (or the start) of a game: its public events and the public
    view after them (the game's summary reads the whole game as these)."""

    events: tuple[Event, ...]
    view: PublicView


class Path(Protocol):
    """One faction's path through the game as the summary tallies it."""

    leaders: list[str]  # its leaders killed, in the game's order
    counts: Counter[str]  # what the phases count for it (their own keys)


@dataclass(frozen=True, slots=True)
class SummaryPart:
    """A phase's part of the game's summary (:mod:`bot.record.summary`)."""

    tally: Callable[[Callable[[Faction], Path], Event, int], None]
    """Adds one event of turn ``n`` to the paths (``of(faction)`` gives a faction's)."""
    path: Callable[[Path], list[str]]
    """The phase's words of one faction's path."""
    section: Callable[[Sequence[Step]], list[str]]
    """The phase's own message of the summary: its heading and its lines."""


@dataclass(frozen=True, slots=True)
class OrderWords:
    """A phase's standing order in words: the name of its kind (the engine's order,
    ``rules.<phase>.orders``), its title ("Bidding") and a value's words ("pass on card 1
    of turn 2"), as :mod:`bot.orders` tells a player the orders they gave."""

    name: str
    title: str
    words: Callable[[str], str]


@dataclass(frozen=True, slots=True)
class PhaseWords:
    """The words one phase gives the generic modules; every part but ``phase`` optional.

    For the events (any phase's, the engine's: read wherever they come): ``describe``,
    ``own_line``, ``own_lines`` (the session tells ``own_side``'s events to the factions
    concerned: those they name and ``seen_by``'s), ``answer``, ``options``, ``answers``,
    ``status``, ``briefing``, ``summary``. For the phase itself (read while the game is in
    it): ``name``, ``wait``, ``prompt``, ``steps``, ``step_passes``, ``declines``,
    ``pass_check``, ``passes``, ``pass_answer``.
    """

    phase: GamePhase
    name: str = ""
    """The phase in words, as the public log names it ("" : the generic table's)."""
    describe: Describe | None = None
    own_line: OwnLine | None = None
    own_lines: OwnLines | None = None
    own_side: tuple[type[Event], ...] = ()
    seen_by: Callable[[Event], Iterable[Faction]] = _nobody
    """Who learns the private side of an ``own_side`` event beyond the factions it names."""
    answer: Callable[[Action], str | None] | None = None
    """An answer in the words of the faction that gave it ("you bid 3")."""
    options: Callable[[GameState, Faction], list[str]] | None = None
    """What a faction may answer now, in words (before the generic choices')."""
    answers: Alike | None = None
    status: Callable[[PrivateView], str | None] | None = None
    """A line of ``/status`` (its player's eyes only)."""
    briefing: Callable[[PrivateView], list[str]] | None = None
    """A newcomer's lines of its faction's secrets."""
    shield: Callable[[PrivateView], list[ShieldRow]] | None = None
    """What the faction keeps behind its shield in the phase's terms, once the game is over
    ("open the shields"), each row with its place among the shield's rows."""
    summary: SummaryPart | None = None
    wait: Callable[[PublicView], str] | None = None
    """Whom the phase waits for, in public words (instead of the generic "Waiting for")."""
    prompt: Prompt | None = None
    """What a faction is asked in the phase (instead of the generic choice prompt)."""
    steps: Mapping[str, str] = field(default_factory=dict)
    """What each of the phase's steps waits for, in public words."""
    step_passes: Mapping[str, str] = field(default_factory=dict)
    """What a prompt's pass declines, step by step ("pass (not now)")."""
    declines: Declines | None = None
    pass_check: Callable[[GameState, Faction], None] | None = None
    """Refuses a ``/pass`` of a faction that has passed already (a SessionError)."""
    passes: Mapping[str, str] = field(default_factory=dict)
    """A pass in public words by its choice ("" : the phase's own): "does not use the Voice"."""
    pass_answer: str = ""
    """A pass in the words of the faction that gave it ("you pass on the card on offer")."""
    order: OrderWords | None = None
    """Its standing order in words, if the phase declares one."""


_REGISTERED: list[PhaseWords] = []  # in the order of the phases (set-up first)
_loaded = False


def register(words: PhaseWords) -> PhaseWords:
    """Register a phase's words (a phase's words module, when it is imported)."""
    if any(w is words for w in _REGISTERED):
        raise ValueError(f"the {words.phase.value} phase's words are registered twice")
    _REGISTERED.append(words)
    order = list(GamePhase)
    _REGISTERED.sort(key=lambda w: order.index(w.phase))  # stable: a phase's in their order
    return words


def load() -> None:
    """Import each phase's words module (``bot.words.<phase>``), once; a phase without
    one has only the generic words."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    words_modules()


def shield_rows(view: PrivateView) -> list[ShieldRow]:
    """The rows every phase's words give of what ``view``'s faction keeps behind its shield."""
    return [row for words in every() if words.shield is not None for row in words.shield(view)]


def every() -> tuple[PhaseWords, ...]:
    """Every phase's words, in the order of the phases (set-up first), whatever the order
    their modules were imported in."""
    load()
    return tuple(_REGISTERED)


def order_words(name: str) -> OrderWords | None:
    """The words of the standing order ``name`` a phase declares (None: no phase's)."""
    return next((w.order for w in every() if w.order is not None and w.order.name == name), None)


def of(phase: GamePhase | str) -> tuple[PhaseWords, ...]:
    """The words ``phase`` registered for itself (none: only the generic words)."""
    return tuple(w for w in every() if w.phase == phase)
