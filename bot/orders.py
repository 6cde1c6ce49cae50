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

The bidding orders are tied to what they were given for: "pass:T" to the Bidding phase
of turn T, "up_to:N:T:K" to card K on offer in turn T (the order raises by the minimum
when the faction's turn to bid comes, never beyond N, and passes once it cannot).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from rules import charity, nexus, storm
from rules.actions import Advise, Decline, Dial, FactionAction, GuildDelay, GuildNow, Pass, Revive
from rules.bidding import auction as bidding
from rules.bidding.actions import Bid, KaramaTakeHand, SupportBids
from rules.bidding.view import auction_of
from rules.board import POLAR_SINK
from rules.charity import ClaimCharity
from rules.errors import MentatError, quote
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import TURN_PHASES, GamePhase
from rules.model import Prompt, PromptKind
from rules.phases import REGISTRY
from rules.revival import free_forces
from rules.view import game_view

CHOICES: dict[str, tuple[str, ...]] = {
    "karama": ("ask", "never"),
    "advise": ("ask", "polar_sink", "territory", "never"),
    "intrusion": ("ask", "never"),
    "guild_timing": ("ask", "in_order", "last", *(f"before:{f.value}" for f in Faction)),
    "charity": ("ask", "claim", "pass"),
    "dial": ("ask", *(str(n) for n in range(21))),
    "nexus": ("ask", "pass"),
    "bidding": ("ask",),  # and the patterns of BIDDING_ORDER, tied to a turn and card
    "revival": ("ask", "free"),
    "storm": ("ask", "pass"),
    "only_pass": ("ask", "pass"),
}
BIDDING_ORDER = re.compile(
    r"^(?:pass:(?P<turn>\d{1,3})|up_to:(?P<n>\d{1,3}):(?P<t>\d{1,3}):(?P<card>\d{1,2}))$"
)
"""A bidding order: "pass:T" (every card of turn T), "up_to:N:T:K" (card K of turn T)."""
DIAL_RANGES = {1: (0, 20)}  # the storm dial's range by turn; 1 to 3 after turn 1 (1.01.02)
LATER_DIAL = (1, 3)


ORDER_COMMANDS = {
    "karama": "/karama standing-order",
    "advise": "/bg standing-order",
    "intrusion": "/bg standing-order",
    "guild_timing": "/guild standing-order",
    "bidding": "/orders bidding",
    "revival": "/orders revival",
    "charity": "/orders charity",
    "storm": "/orders storm",
    "only_pass": "/orders only-pass",
}
"""The command that gives (and withdraws) each standing order."""

ORDER_TITLES = {
    "karama": "Karama windows",
    "advise": "Spiritual Advisors",
    "intrusion": "Intrusion",
    "guild_timing": "Guild timing",
    "charity": "Charity",
    "dial": "Dial",
    "nexus": "Nexus",
    "bidding": "Bidding",
    "revival": "Revival",
    "storm": "Storm",
    "only_pass": "Pass only",
}
VALUE_WORDS = {
    ("karama", "never"): "always decline (never play Karama in a window)",
    ("advise", "polar_sink"): "always send the advisor to the Polar Sink",
    ("advise", "territory"): "send the advisor to the shipment's territory when allowed, "
    "else to the Polar Sink",
    ("advise", "never"): "never send an advisor",
    ("intrusion", "never"): "never flip to advisors",
    ("guild_timing", "in_order"): "keep your place in storm order",
    ("guild_timing", "last"): "delay to act last",
    ("charity", "claim"): "always claim it when you may (else decline it)",
    ("charity", "pass"): "never claim it",
    ("nexus", "pass"): "always pass",
    ("revival", "free"): "free revival only (you are not asked)",
    ("storm", "pass"): "never play a storm card (pass at once when asked)",
    ("only_pass", "pass"): "pass at once whenever a pass is your only answer (you cannot "
    "raise the bid, claim charity, play a storm card or pay for a revival)",
    **{("dial", str(n)): f"dial {n} (brought into the turn's range)" for n in range(21)},
}


def order_title(name: str) -> str:
    """A standing order's name in words ("Guild timing")."""
    return ORDER_TITLES.get(name, "unknown")


def order_words(name: str, value: str) -> str:
    """One standing order in words: "Guild timing: act right before Harkonnen"."""
    title = ORDER_TITLES.get(name, "Order")
    if value == "ask":
        return f"{title}: ask me each time"
    if value.startswith("before:"):
        before = Faction.parse(value.removeprefix("before:"))
        return f"{title}: act right before {before.label if before else 'that faction'}"
    if name == "bidding":
        return f"{title}: {_bidding_words(value)}"
    return f"{title}: {VALUE_WORDS.get((name, value), 'as ordered')}"


def _bidding_words(value: str) -> str:
    found = BIDDING_ORDER.match(value)
    if found is None:
        return "as ordered"
    if found["turn"] is not None:
        return f"pass on every card of the turn {int(found['turn'])} Bidding phase"
    n, turn, card = int(found["n"]), int(found["t"]), int(found["card"])
    if n == 0:
        return f"pass on card {card} of turn {turn}"
    return (
        f"bid up to {n} on card {card} of turn {turn} (raise by 1 when your turn comes, "
        f"never beyond {n}; pass once you cannot)"
    )


def saved(name: str, value: str) -> str:
    """The answer to a standing-order command: saved, or withdrawn."""
    if value == "ask":
        return f"Standing order withdrawn: {order_words(name, value)}."
    return f"Standing order saved (only you see it): {order_words(name, value)}."


def _option(name: str) -> str:
    """The option of an order's command that gives it."""
    ordered = ("karama", "guild_timing", "bidding", "revival", "storm", "charity", "only_pass")
    return "order" if name in ordered else name


def _valid(name: str, value: str) -> bool:
    if name == "bidding" and BIDDING_ORDER.match(value):
        return True
    return value in CHOICES[name]


class OrderError(MentatError, ValueError):
    """A standing order that does not exist; the message lists the choices."""


@dataclass(frozen=True, slots=True)
class StandingOrders:
    karama: str = "ask"  # "never": decline every Karama window at once
    advise: str = "ask"  # BG: "polar_sink", "territory" (advisor where allowed), "never"
    intrusion: str = "ask"  # BG: "never" flip on intrusion
    guild_timing: str = "ask"  # Guild: "in_order", "last", "before:<faction>"
    charity: str = "ask"  # "claim": always claim CHOAM Charity; "pass": never
    dial: str = "ask"  # "0".."20": the storm dial, brought into the turn's range
    nexus: str = "ask"  # "pass": pass in every Nexus
    bidding: str = "ask"  # "pass:T", "up_to:N:T:K" (see BIDDING_ORDER)
    revival: str = "ask"  # "free": take the free revival only, never asked
    storm: str = "ask"  # "pass": never play a storm card
    only_pass: str = "ask"  # "pass": pass at once whenever a pass is the only answer

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> StandingOrders:
        known = {f.name for f in fields(cls)}
        for key, value in data.items():
            if key not in known:
                titles = ", ".join(ORDER_TITLES.values())
                raise OrderError(f"there is no standing order {quote(key, 40)}; orders: {titles}")
            if not isinstance(value, str) or not _valid(key, value):
                raise OrderError(
                    f"{ORDER_TITLES[key]} cannot be {quote(value)}; the command's choices "
                    "list what it can be"
                )
        return cls(**dict(data))

    def to_dict(self) -> dict[str, str]:
        return asdict(self)

    def describe(self) -> str:
        """The orders in words, e.g. "Karama windows: always decline; Spiritual
        Advisors: always to the Polar Sink"."""
        given = [order_words(k, v) for k, v in self.to_dict().items() if v != "ask"]
        return "; ".join(given) or "none (you will be asked every time)"

    def lines(self) -> list[str]:
        """Each order given, in words, with the command that withdraws it."""
        return [
            f"{order_words(k, v)} (withdraw it: `{ORDER_COMMANDS.get(k, '/orders')}` {_option(k)}: "
            "“ask me each time”)"
            for k, v in self.to_dict().items()
            if v != "ask"
        ]


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
    """The answer ``orders`` give to a whole game's choice (None: ask the player)."""
    game = state.whole
    if faction not in game.waiting:
        return None
    wanted: FactionAction | None = None
    if charity.claims_open(game) and orders.charity != "ask":
        claim = ClaimCharity(faction)  # "claim": when it may (0 or 1 spice), else decline
        wanted = claim if orders.charity == "claim" and state.is_legal(claim) else Pass(faction)
    elif storm.dialing(game) and orders.dial != "ask":
        low, high = DIAL_RANGES.get(game.turn, LATER_DIAL)
        wanted = Dial(faction, min(max(int(orders.dial), low), high))
    elif nexus.in_a_nexus(game) and orders.nexus == "pass":
        wanted = Pass(faction)
    elif game.phase is GamePhase.BIDDING and orders.bidding != "ask":
        wanted = _bid(state, faction, orders.bidding)
    elif game.phase is GamePhase.REVIVAL and orders.revival == "free":
        wanted = Pass(faction)  # the free revival only (1.05.01)
    elif storm.asking_storm_cards(game) and orders.storm == "pass":
        wanted = Pass(faction)
    if wanted is None and orders.only_pass == "pass" and only_a_pass(state, faction):
        wanted = Pass(faction)
    return wanted if wanted is not None and state.is_legal(wanted) else None


SIDE_ACTIONS = (Pass, SupportBids, KaramaTakeHand)
"""Not answers to the question asked (a pass, an ally's commitment, taking a hand)."""


def only_a_pass(state: GameState, faction: Faction) -> bool:
    """Whether ``faction``'s only answer to a choice asked of everyone alike is a pass: its
    turn to bid when it cannot raise, storm cards it does not hold, charity with 2 spice or
    more, a revival beyond its free one it cannot pay for."""
    game = state.whole
    spec = REGISTRY.get(game.phase)
    if spec is None or not spec.waits.asked_alike(game) or faction not in game.waiting:
        return False  # not a choice asked of everyone alike (docs/secrets-and-waits.md)
    free = Revive(faction, *free_forces(state, faction))
    for action in spec.offers(state, faction):
        if isinstance(action, SIDE_ACTIONS) or action == free:
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


def _bid(state: GameState, faction: Faction, order: str) -> FactionAction | None:
    """A bidding order's answer to the auction now: a pass, or the minimum raise while it
    stays within the order's limit (a pass beyond); None when the order is not for the
    card on offer (or the turn)."""
    found = BIDDING_ORDER.match(order)
    auction = auction_of(game_view(state))
    if found is None or auction is None or not bidding.auction_open(state.whole):
        return None
    if found["turn"] is not None:
        return Pass(faction) if int(found["turn"]) == state.whole.turn else None
    turn, card = int(found["t"]), int(found["card"])
    if (turn, card) != (state.whole.turn, auction.number):
        return None
    raise_to = auction.high_bid + 1
    if raise_to <= int(found["n"]) and state.is_legal(Bid(faction, raise_to)):
        return Bid(faction, raise_to)
    return Pass(faction)


def bidding_order(state: GameState, kind: str, limit: int | None = None) -> str:
    """The stored value of a bidding order given now: "pass" (every card of this turn's
    Bidding phase, or the next one's once it is over) or "up_to" (``limit`` on the card on
    offer now); "ask" withdraws. OrderError when it cannot be given now."""
    if kind == "ask":
        return "ask"
    game = state.game
    if game.stop_after is not None:
        raise OrderError("there is no Bidding phase in a game of one phase")
    if kind == "pass":
        bidding = TURN_PHASES.index(GamePhase.BIDDING)
        later = game.phase in TURN_PHASES and TURN_PHASES.index(game.phase) > bidding
        return f"pass:{game.turn + 1 if later else game.turn}"
    if kind != "up_to":
        raise OrderError(f"there is no bidding order {quote(kind, 40)}; orders: pass, up_to, ask")
    auction = auction_of(game_view(state))
    if game.phase is not GamePhase.BIDDING or auction is None:
        raise OrderError("no card is on offer now: a “bid up to” order is for the card on offer")
    if limit is None or not 0 <= limit <= 999:
        raise OrderError("a “bid up to” order needs the most you would bid, from 0 to 999")
    return f"up_to:{limit}:{game.turn}:{auction.number}"
