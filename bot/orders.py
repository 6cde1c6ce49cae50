"""Standing orders: what a faction recorded privately, in advance, to answer prompts.

Asynchronous games must not stall on questions whose answer a player already
knows ("never cancel with Karama", "always advise to the Polar Sink", "the
Guild acts right before Harkonnen", "always claim CHOAM Charity", "dial 2", "pass
in the Nexus", "pass on every card this Bidding phase", "bid up to 5 on this card",
"free revival only", "never play a storm card", "pass whenever a pass is all I can do").
The session applies them at once, as the faction's own answer, so nobody can tell an order
from a quick player. The choices asked of everyone alike whatever they hold (the auction,
storm cards, charity, revival: docs/secrets-and-waits.md) are where the orders spare the
most prompts: "only_pass" answers each of them for a faction that cannot act.

Each order is of a kind (:class:`OrderKind`): its name, the values it may take, its words
and the answer it gives (state, faction, value -> an action, or None to ask the player).
A phase whose package declares its own kind (``rules.<phase>.orders``'s ``ORDER``: the
Bidding phase's "pass:T" and "up_to:N:T:K", CHOAM Charity's and the Revival phase's) plugs
in through :mod:`bot.phase_parts`; this module never names it. The kinds below are the
faction's prompts in Shipment & Movement and the whole turn's choices not yet declared in
their phase's place.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from bot.phase_parts import phase_modules
from bot.words import phase_words
from rules import nexus
from rules.actions import Advise, Decline, FactionAction, GuildDelay, GuildNow, Pass
from rules.board import POLAR_SINK
from rules.errors import MentatError, quote
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from rules.model import Prompt, PromptKind
from rules.phases import REGISTRY
from rules.storm.actions import Dial
from rules.storm.model import dialing

ASK = "ask"
"""Every order's value when not given: ask the player each time."""


@runtime_checkable
class OrderKind(Protocol):
    """One kind of standing order: a player's own default for a kind of prompt."""

    @property
    def name(self) -> str:
        """Its stored name ("charity"), also its command's: ``/orders charity``."""
        ...

    @property
    def side_actions(self) -> tuple[type[FactionAction], ...]:
        """The actions its prompt offers that are not answers to its question (an ally's
        commitment...): a faction holding only these and a pass can only pass."""
        ...

    def valid(self, value: str) -> bool:
        """Whether ``value`` is one this order may hold ("ask" aside)."""
        ...

    def answer(self, state: GameState, faction: Faction, value: str) -> FactionAction | None:
        """Its answer now to the choice the whole game asks (None: not its question)."""
        ...

    def as_a_pass(self, state: GameState, faction: Faction) -> tuple[FactionAction, ...]:
        """The answers to its question that give no more than a pass does (the free
        revival alone): a faction holding only these can only pass."""
        ...


Answers = Callable[[GameState, Faction, str], FactionAction | None]


def _no_answer(state: GameState, faction: Faction, value: str) -> FactionAction | None:
    """The order answers prompts of Shipment & Movement (:func:`order_answer`), not a
    choice of the whole game."""
    del state, faction, value
    return None


@dataclass(frozen=True, slots=True)
class Choices:
    """A kind of order whose values are a fixed list, each with its words."""

    name: str
    title: str
    values: Mapping[str, str]  # each value (but "ask") and its words
    answers: Answers = _no_answer
    command: str | None = None  # its own command; else ``/orders <name>``
    option: str = "order"  # the command's option that gives it
    side_actions: tuple[type[FactionAction], ...] = field(default=())

    def valid(self, value: str) -> bool:
        return value in self.values

    def words(self, value: str) -> str:
        return self.values.get(value, "as ordered")

    def answer(self, state: GameState, faction: Faction, value: str) -> FactionAction | None:
        return self.answers(state, faction, value)

    def as_a_pass(self, state: GameState, faction: Faction) -> tuple[FactionAction, ...]:
        del state, faction
        return ()


DIAL_RANGES = {1: (0, 20)}  # the storm dial's range by turn; 1 to 3 after turn 1 (1.01.02)
LATER_DIAL = (1, 3)


def _dial(state: GameState, faction: Faction, value: str) -> FactionAction | None:
    if not dialing(state.whole):
        return None
    low, high = DIAL_RANGES.get(state.whole.turn, LATER_DIAL)
    return Dial(faction, min(max(int(value), low), high))


def _nexus(state: GameState, faction: Faction, value: str) -> FactionAction | None:
    return Pass(faction) if nexus.in_a_nexus(state.whole) else None


BUILT_IN: tuple[Choices, ...] = (
    Choices(
        "karama",
        "Karama windows",
        {"never": "always decline (never play Karama in a window)"},
        command="/karama standing-order",
    ),
    Choices(
        "advise",
        "Spiritual Advisors",
        {
            "polar_sink": "always send the advisor to the Polar Sink",
            "territory": "send the advisor to the shipment's territory when allowed, "
            "else to the Polar Sink",
            "never": "never send an advisor",
        },
        command="/bg standing-order",
        option="advise",
    ),
    Choices(
        "intrusion",
        "Intrusion",
        {"never": "never flip to advisors"},
        command="/bg standing-order",
        option="intrusion",
    ),
    Choices(
        "guild_timing",
        "Guild timing",
        {
            "in_order": "keep your place in storm order",
            "last": "delay to act last",
            **{f"before:{f.value}": f"act right before {f.label}" for f in Faction},
        },
        command="/guild standing-order",
    ),
    Choices(
        "dial",
        "Dial",
        {str(n): f"dial {n} (brought into the turn's range)" for n in range(21)},
        _dial,
        command="/orders",  # no command gives it yet
        option="dial",
    ),
    Choices("nexus", "Nexus", {"pass": "always pass"}, _nexus, command="/orders", option="nexus"),
)
"""The kinds of order not declared in a phase's place, in the order they are told."""

ONLY_PASS = Choices(
    "only_pass",
    "Pass only",
    {
        "pass": "pass at once whenever a pass is your only answer (you cannot raise the "
        "bid, claim charity, play a storm card or pay for a revival)"
    },
)
"""The last resort: a pass whenever it is all a faction can do (:func:`only_a_pass`)."""


def _declared() -> tuple[OrderKind, ...]:
    """The kinds the phases declare in their own place, in the order of play."""
    kinds: list[OrderKind] = []
    for module in phase_modules("orders"):
        kind = getattr(module, "ORDER", None)
        if not isinstance(kind, OrderKind):
            raise TypeError(f"{module.__name__} must export ORDER, an order kind")
        kinds.append(kind)
    return tuple(kinds)


def _table(*kinds: OrderKind) -> Mapping[str, OrderKind]:
    table: dict[str, OrderKind] = {}
    for kind in kinds:
        if kind.name in table:
            raise ValueError(f"the standing order {kind.name} is declared twice")
        table[kind.name] = kind
    return table


KINDS = _table(*BUILT_IN, *_declared(), ONLY_PASS)
"""Every kind of standing order by name, in the order they are told (the last resort last)."""


def _words(kind: OrderKind) -> Choices | phase_words.OrderWords:
    """A kind's title and values in words: its own (the kinds here), else those its
    phase's words register (:class:`bot.words.phase_words.OrderWords`)."""
    if isinstance(kind, Choices):
        return kind
    found = phase_words.order_words(kind.name)
    if found is None:
        raise LookupError(f"the standing order {kind.name} has no words: its phase's give them")
    return found


def order_title(name: str) -> str:
    """A standing order's name in words ("Guild timing")."""
    kind = KINDS.get(name)
    return _words(kind).title if kind is not None else "unknown"


def order_words(name: str, value: str) -> str:
    """One standing order in words: "Guild timing: act right before Harkonnen"."""
    kind = KINDS.get(name)
    if kind is None:
        return "Order: ask me each time" if value == ASK else "Order: as ordered"
    said = _words(kind)
    return f"{said.title}: {'ask me each time' if value == ASK else said.words(value)}"


def saved(name: str, value: str) -> str:
    """The answer to a standing-order command: saved, or withdrawn."""
    if value == ASK:
        return f"Standing order withdrawn: {order_words(name, value)}."
    return f"Standing order saved (only you see it): {order_words(name, value)}."


def _command(kind: OrderKind) -> tuple[str, str]:
    """The command that gives (and withdraws) an order, and its option that does."""
    if isinstance(kind, Choices) and kind.command is not None:
        return kind.command, kind.option
    option = kind.option if isinstance(kind, Choices) else "order"
    return f"/orders {kind.name.replace('_', '-')}", option


class OrderError(MentatError, ValueError):
    """A standing order that does not exist; the message lists the choices."""


class StandingOrders:
    """One faction's standing orders: each kind's value, "ask" where none is given."""

    __slots__ = ("_given",)

    def __init__(self, **given: str) -> None:
        for name, value in given.items():
            kind = KINDS.get(name)
            if kind is None:
                titles = ", ".join(_words(k).title for k in KINDS.values())
                raise OrderError(f"there is no standing order {quote(name, 40)}; orders: {titles}")
            if not isinstance(value, str) or not (value == ASK or kind.valid(value)):
                raise OrderError(
                    f"{_words(kind).title} cannot be {quote(value)}; the command's choices "
                    "list what it can be"
                )
        self._given: Mapping[str, str] = {n: v for n, v in given.items() if v != ASK}

    def __getattr__(self, name: str) -> str:
        """An order's value by its name (``orders.karama``): "ask" where none is given."""
        if name.startswith("_") or name not in KINDS:
            raise AttributeError(name)
        return self._given.get(name, ASK)

    def get(self, name: str) -> str:
        """The value of the order ``name`` ("ask" where none is given)."""
        return self._given.get(name, ASK)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StandingOrders) and dict(self._given) == dict(other._given)

    def __hash__(self) -> int:
        return hash(frozenset(self._given.items()))

    def __repr__(self) -> str:
        given = ", ".join(f"{n}={v!r}" for n, v in self._given.items())
        return f"StandingOrders({given})"

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> StandingOrders:
        return cls(**dict(data))

    def to_dict(self) -> dict[str, str]:
        """Every kind's value by name (the stored form, "ask" included)."""
        return {name: self._given.get(name, ASK) for name in KINDS}

    def describe(self) -> str:
        """The orders in words, e.g. "Karama windows: always decline; Spiritual
        Advisors: always to the Polar Sink"."""
        given = [order_words(k, v) for k, v in self.to_dict().items() if v != ASK]
        return "; ".join(given) or "none (you will be asked every time)"

    def lines(self) -> list[str]:
        """Each order given, in words, with the command that withdraws it."""
        found = []
        for name, value in self.to_dict().items():
            if value == ASK:
                continue
            command, option = _command(KINDS[name])
            found.append(
                f"{order_words(name, value)} (withdraw it: `{command}` {option}: "
                "“ask me each time”)"
            )
        return found


def standing_answer(
    state: GameState,
    faction: Faction,
    orders: StandingOrders,
    skip: Callable[[Prompt, FactionAction], bool] | None = None,
) -> FactionAction | None:
    """The answer ``orders`` give now for ``faction``, or None to wait for the player;
    ``skip`` says which answers to a prompt are not to be given now."""
    if state.game_phase is not GamePhase.SHIPMENT_MOVEMENT:
        return _choice(state, faction, orders)
    for stage in state.phase.stages:
        for prompt in stage:
            if faction in prompt.waiting_on():
                answer = order_answer(state, faction, prompt, orders)
                if answer is not None and not (skip and skip(prompt, answer)):
                    return answer
    return _guild_turn(state, faction, orders)


def order_answer(
    state: GameState, faction: Faction, prompt: Prompt, orders: StandingOrders
) -> FactionAction | None:
    """The engine's answer to ``prompt`` that ``orders`` pick (None: ask the player)."""
    answers = state.answers(prompt, faction)
    decline = _first(answers, Decline)
    kind = prompt.kind
    if kind is PromptKind.KARAMA and orders.karama == "never":
        return decline
    if kind is PromptKind.ADVISE:
        return _advise(answers, orders.advise)
    if kind is PromptKind.INTRUSION and orders.intrusion == "never":
        return decline
    if kind is PromptKind.GUILD_TIMING and orders.guild_timing != "ask":
        wanted = orders.guild_timing.removeprefix("before:")
        if prompt.subject is not None and wanted == prompt.subject.value:
            return _first(answers, GuildNow)
        return decline
    return None


def _advise(answers: tuple[FactionAction, ...], order: str) -> FactionAction | None:
    if order == "never":
        return _first(answers, Decline)
    sink = [a for a in answers if isinstance(a, Advise) and a.to == POLAR_SINK]
    there = [a for a in answers if isinstance(a, Advise) and a.to != POLAR_SINK]
    if order == "polar_sink":
        return next(iter(sink), None)
    if order == "territory":
        return next(iter(there + sink), None)
    return None


def _first(answers: tuple[FactionAction, ...], kind: type[FactionAction]) -> FactionAction | None:
    return next((a for a in answers if isinstance(a, kind)), None)


def _guild_turn(state: GameState, faction: Faction, orders: StandingOrders) -> GuildDelay | None:
    if orders.guild_timing == "ask" or orders.guild_timing == "in_order":
        return None
    delay = GuildDelay(faction)
    return delay if delay in state.legal_actions(faction) else None


def _choice(state: GameState, faction: Faction, orders: StandingOrders) -> FactionAction | None:
    """The answer ``orders`` give to a whole game's choice (None: ask the player): the
    first kind given that answers the question asked now, else the last resort's pass."""
    if faction not in state.whole.waiting:
        return None
    wanted: FactionAction | None = None
    for name, kind in KINDS.items():
        value = orders.get(name)
        if kind is not ONLY_PASS and value != ASK:
            wanted = kind.answer(state, faction, value)
            if wanted is not None:
                break
    if wanted is None and orders.get(ONLY_PASS.name) == "pass" and only_a_pass(state, faction):
        wanted = Pass(faction)
    return wanted if wanted is not None and state.is_legal(wanted) else None


SIDE_ACTIONS: tuple[type[FactionAction], ...] = (
    Pass,
    *(action for kind in KINDS.values() for action in kind.side_actions),
)
"""Not answers to the question asked (a pass, and what the kinds of order name: an ally's
commitment, taking a hand...)."""


def only_a_pass(state: GameState, faction: Faction) -> bool:
    """Whether ``faction``'s only answer to a choice asked of everyone alike is a pass: its
    turn to bid when it cannot raise, storm cards it does not hold, charity with 2 spice or
    more, a revival beyond its free one it cannot pay for."""
    game = state.whole
    spec = REGISTRY.get(game.phase)
    if spec is None or not spec.waits.asked_alike(game) or faction not in game.waiting:
        return False  # not a choice asked of everyone alike (docs/secrets-and-waits.md)
    passes = {a for kind in KINDS.values() for a in kind.as_a_pass(state, faction)}
    for action in spec.offers(state, faction):
        if isinstance(action, SIDE_ACTIONS) or action in passes:
            continue
        if state.is_legal(action):
            return False
    return True


def asked_alike(state: GameState, faction: Faction) -> str:
    """The private line of a prompt whose only answer is a pass ("" otherwise): why the
    faction is asked at all, and the order that answers for it."""
    if not only_a_pass(state, faction):
        return ""
    return (
        "You can only pass here. Everyone who might act is asked alike, so that whom the "
        "game asks tells nobody what you hold; `/orders only-pass` passes for you at once "
        "whenever that is all you can do."
    )
