"""Invariants checked after every action of random whole games (issue 27).

Each is computed here, independently of the engine's own checks:

- the spice ledger: each faction's spice changes by exactly what the action's events say
  (a secret amount, the Emperor's gift or a moderator's spice, read from the action; a
  Karama cancel restores the position its window saved);
- a standing high bid stays payable by the bidder's spice and its ally's commitment
  (1.04.06.02), and the spice dialed in a locked battle plan stays held until the battle is
  resolved (1.13.04);
- every leader is in exactly one place: a pool or its owner's tanks; a captive in the
  Harkonnen's pool, and never in a tanks but its owner's (2.05.10-2.05.12);
- nothing but an answer to an open prompt, the turn's own action or a moderator's
  correction is accepted while a Shipment & Movement ability resolves (1.00.05).
"""

from __future__ import annotations

from collections import Counter

from rules.actions import (
    Action,
    AnswerTruthtrance,
    GiveSpice,
    KaramaCancel,
    SetSpice,
)
from rules.battle.model import BATTLE
from rules.bidding.model import AUCTION, SUPPORT
from rules.choam_charity.events import CharityPaid
from rules.components import leader_owner, leaders
from rules.events import (
    BribePaid,
    BribesCollected,
    CardWon,
    Event,
    KaramaCancelled,
    Landing,
    ShippedToReserves,
    SpiceCollected,
    SpiceGiven,
    SpicePaid,
    SpiceReceived,
    SpiceSet,
)
from rules.factions import Faction
from rules.game import GameState
from rules.machine import any_time
from rules.model import PromptKind
from rules.revival.events import Revived

Spice = dict[Faction, int]


def spice_held(state: GameState) -> Spice:
    return {f: own.spice for f, own in state.factions.items()}


def _saved_spice(state: GameState, action: KaramaCancel) -> Spice:
    """The spice of the position the cancelled ability's Karama window saved."""
    for prompt in state.phase.open_prompts:
        if prompt.kind is not PromptKind.KARAMA or action.faction not in prompt.waiting_on():
            continue
        if (action.ability is None or prompt.ability == action.ability) and prompt.before:
            return {f: own.spice for f, own in prompt.before.factions}
    raise AssertionError(f"no Karama window for {action}")


class SpiceLedger:
    """Each faction's spice, as the events of each action say it changes."""

    def __init__(self, state: GameState) -> None:
        self.expected = spice_held(state)
        self.saved: Spice | None = None

    def before(self, state: GameState, action: Action) -> None:
        """Note what the action may need of the position before it (a Karama window)."""
        self.saved = _saved_spice(state, action) if isinstance(action, KaramaCancel) else None

    def after(self, state: GameState, action: Action, events: list[Event]) -> None:
        for event in events:
            self._follow(event, action)
        assert spice_held(state) == self.expected, (action, events)

    def _add(self, faction: Faction | str | None, amount: int) -> None:
        if faction is None or faction == "spice_bank":
            return
        found = faction if isinstance(faction, Faction) else Faction(faction)
        self.expected[found] += amount

    def _follow(self, event: Event, action: Action) -> None:
        match event:
            case Landing(faction=f, cost=cost, paid_to=to, ally=ally, ally_paid=by_ally):
                self._add(f, -(cost - by_ally))
                self._add(ally, -by_ally)
                self._add(to, cost)
            case ShippedToReserves(faction=f, cost=cost, paid_to=to):
                self._add(f, -cost)
                self._add(to, cost)
            case BribePaid(faction=f, amount=n) | Revived(faction=f, cost=n):
                self._add(f, -n)
            case (
                BribesCollected(faction=f, amount=n)
                | CharityPaid(faction=f, amount=n)
                | SpiceReceived(faction=f, amount=n)
                | SpiceCollected(faction=f, amount=n)
            ):
                self._add(f, n)
            case CardWon() as won:
                for payer, n in won.parts:
                    self._add(payer, -n)
                self._add(won.paid_to, won.received)
            case SpicePaid(faction=f, amount=n, to=to):
                self._add(f, -n)
                self._add(to, n)
            case SpiceGiven(faction=f, to=to):
                assert isinstance(action, GiveSpice)  # the amount stays secret: the action's
                self._add(f, -action.amount)
                self._add(to, action.amount)
            case SpiceSet(faction=f):
                assert isinstance(action, SetSpice)
                self.expected[f] = action.amount
            case KaramaCancelled():
                assert self.saved is not None
                self.expected = dict(self.saved)


def assert_commitments_held(state: GameState) -> None:
    """A standing high bid stays payable; dialed spice stays held until paid."""
    game = state.whole
    auction = AUCTION.of(game)
    if auction is not None and auction.high_bidder is not None and not auction.karama:
        bidder = auction.high_bidder
        ally = state.ally_of(bidder)
        support = 0
        if ally is not None:
            support = min(SUPPORT.of(game).get(ally, 0), state.factions[ally].spice)
        assert state.factions[bidder].spice + support >= auction.high_bid, auction
    battle = BATTLE.of(game)
    if battle is None or (battle.revealed and game.step != "traitor_calls"):
        return
    held: Counter[Faction] = Counter()
    for side, plan in battle.plans.items():
        held[side] += plan.spice - plan.ally_spice
        ally = state.ally_of(side)
        if ally is not None:
            held[ally] += plan.ally_spice
    for faction, amount in held.items():
        assert state.factions[faction].spice >= amount, (faction, amount, battle.plans)


def assert_leaders_placed(state: GameState) -> None:
    """Each leader of the game in exactly one place; a captive where 2.05.10-12 put it."""
    game = state.whole
    pools = [n for names in game.leaders.values() for n in names]
    tanks = [n for names in game.leaders_tanks.values() for n in names]
    printed = [n for f in state.factions for n in leaders(f)]
    places = Counter(pools + tanks)
    assert all(places[n] == 1 for n in printed), places
    assert set(places) - set(printed) <= {"Kwisatz Haderach"}, places
    for owner, names in game.leaders_tanks.items():
        assert all(leader_owner(n) in (owner, None) for n in names), (owner, names)
    held = game.leaders.get(Faction.HARKONNEN, ())
    for name, owner in game.captives.items():
        assert name in held and leader_owner(name) is owner, (name, owner)
    for faction, names in game.leaders.items():
        strangers = {n for n in names if leader_owner(n) not in (faction, None)}
        assert strangers <= (set(game.captives) if faction is Faction.HARKONNEN else set())


def resolving(state: GameState) -> bool:
    """A Shipment & Movement ability is being resolved: prompts are open (1.00.05)."""
    return state.game_phase.value == "shipment_movement" and bool(state.phase.stages)


def assert_allowed_while_resolving(was_resolving: bool, action: Action) -> None:
    """While an ability resolves, no action of any time (a bribe, a gift, a Karama played
    ahead, a worm, a Ghola, a Truthtrance) is accepted; only an answer to the question
    already open."""
    if was_resolving:
        assert not any_time(action) or isinstance(action, AnswerTruthtrance), action
