"""The Revival Phase (1.05), run by the engine.

Everyone revives at once, in no storm order (1.05.00). Whom the phase asks is a function
of public facts only (docs/secrets-and-waits.md): at the start each faction with nothing
to decide that anyone could see (nothing in the tanks beyond its free revival, no leader it
may revive, no chance of the Emperor's Karama power) gets its free revival by itself; the
others are asked all at once (step ``"revive"``), whether or not their spice pays for more
(a faction that cannot pay may only pass), and answer with
:class:`~rules.revival.actions.Revive` (their whole force revival, free ones included, and at
most one leader) or :class:`~rules.actions.Pass` (the free revival alone). The Emperor
allied is asked too when it may pay for its ally's forces beyond the ally's limit
(:class:`~rules.revival.actions.PayAllyRevival`, 2.03.07), whatever spice it holds; its pass
declines that. When the last of them has answered the phase is ``"done"``.

Besides: the Emperor's once-a-game Karama revival (1.14.02), the Tleilaxu Ghola
played at any time (3.01.20), and the moderator's records (``RecordRevival``,
``RecordGhola``) and "phase done" as corrections. Readings in
docs/whole-turn-readings.md ("The Revival phase").
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

from rules import karama_turn
from rules.actions import (
    Action,
    FactionAction,
    Pass,
    PhaseDone,
)
from rules.components import extras
from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError, quote
from rules.events import Event, Passed, SpicePaid
from rules.factions import Faction
from rules.game_model import GamePhase, PhaseStep, TurnState
from rules.model import Ability
from rules.phase_spec import first_of
from rules.position import Position
from rules.revival.actions import KaramaRevive, PayAllyRevival, Revive
from rules.revival.events import Revived
from rules.revival.ghola import karama_power_open, may_karama_revive
from rules.revival.model import (
    EMPEROR_ALLY_RULE,
    EMPEROR_PAYS,
    FREMEN_ALLY_RULE,
    KARAMA_FORCES,
    PHASE_RULE,
    REVIVAL_RULE,
    REVIVALS,
    STARRED_REVIVAL_RULES,
    Revivals,
    RevivalStep,
    force_cost,
    forces_per_turn,
    revivals,
    reviving,
    set_revivals,
)
from rules.revival.prices import (
    Price,
    bring_back,
    check_count,
    check_in_tanks,
    free_forces,
    free_revival,
    price,
    revivable_leader,
    revivable_leaders,
    starred_limit,
    stop_fremen_gift,
)

# -- the phase ----------------------------------------------------------------------


def begin(state: Position) -> list[Event]:
    """Everyone at once (1.05.00): those with nothing to decide get their free revival."""
    state.set_game(
        step=RevivalStep.REVIVE,
        waiting=(),
        parts=REVIVALS.put(state.whole.parts, Revivals(ally_room=_room_beyond_limit(state))),
        fremen_gift_stopped=False,
    )
    events: list[Event] = stop_ally_revival(state) + stop_fremen_gift(state)
    waiting = []
    for faction in state.whole.order:
        if _own_choice(state, faction):
            waiting.append(faction)
        else:
            events += _revive(state, faction, *free_forces(state, faction), None)
            if _ally_payment_open(state, faction):
                waiting.append(faction)
    if Faction.EMPEROR not in waiting:
        set_revivals(state, replace(revivals(state.whole), ally_room=0))
    state.set_game(waiting=tuple(waiting), step=RevivalStep.REVIVE if waiting else PhaseStep.DONE)
    return events


def has_choice(state: Position, faction: Faction) -> bool:
    """Whether the faction is asked, on public facts only: a revival other than its free
    one alone could be open to it (until it has revived), the Emperor's Karama power could
    be, or the Emperor's payment for its ally's forces beyond the ally's limit is open.
    Whether its spice or its cards allow any of it is its own secret."""
    own = faction not in revivals(state.whole).done and _own_choice(state, faction)
    return own or _ally_payment_open(state, faction)


def _own_choice(state: Position, faction: Faction) -> bool:
    """A revival other than the free one alone allowed by everything but its spice (more
    in the tanks, a Fedaykin among the free, a leader), or (the Emperor) its Karama power."""
    free = Revive(faction, *free_forces(state, faction))
    revivals = _each_revival(state, faction, secret=False)
    return any(a != free for a in revivals) or _karama_open(state, faction)


def _karama_open(state: Position, faction: Faction) -> bool:
    """The Emperor's Karama revival (1.14.02) as others can tell: the power open and a
    card in hand (any card may be a Karama)."""
    return karama_power_open(state, faction) and bool(state.factions[faction].cards)


def _require(state: Position, faction: Faction, what: str) -> None:
    game = state.whole
    if game.phase is not GamePhase.REVIVAL or game.step != RevivalStep.REVIVE:
        raise NotYourTurnError(f"{what} belongs to the Revival phase, not now", rule=PHASE_RULE)
    if faction not in game.waiting:
        raise NotYourTurnError(
            f"{faction.label} has revived this turn"
            if faction in revivals(game).done
            else f"{faction.label} has nothing to decide in this Revival phase",
            rule=REVIVAL_RULE,
        )


def revive(state: Position, action: Revive) -> list[Event]:
    """A waiting faction's whole revival this turn (1.05.01-1.05.03)."""
    _require(state, action.faction, "a revival")
    if action.faction in revivals(state.whole).done:
        raise NotYourTurnError(f"{action.faction.label} has revived this turn", rule=REVIVAL_RULE)
    events = paid_revival(state, action.faction, action.forces, action.special, action.leader, 0)
    answered(state, action.faction)
    return events


def pass_(state: Position, action: Pass) -> list[Event]:
    """The free revival alone (if not revived yet); the Emperor declines paying for its
    ally's forces too (2.03.07)."""
    _require(state, action.faction, "passing on revival")
    events: list[Event] = [Passed(action.faction, GamePhase.REVIVAL.value)]
    if action.faction not in revivals(state.whole).done:
        events += _revive(state, action.faction, *free_forces(state, action.faction), None)
    if action.faction is Faction.EMPEROR:
        set_revivals(state, replace(revivals(state.whole), ally_room=0))
    answered(state, action.faction)
    return events


def answered(state: Position, faction: Faction) -> None:
    """``faction`` leaves the waiting list once it has nothing left to decide (the Emperor
    may still have its ally's forces to pay for)."""
    game = state.whole
    done = faction in revivals(game).done and not _ally_payment_open(state, faction)
    waiting = tuple(f for f in game.waiting if not (f is faction and done))
    state.set_game(waiting=waiting, step=RevivalStep.REVIVE if waiting else PhaseStep.DONE)


def phase_done(state: Position, action: PhaseDone) -> list[Event]:
    """The moderator ends the phase early: everyone not yet revived gets its free revival."""
    events: list[Event] = []
    for faction in state.whole.order:
        if faction not in revivals(state.whole).done:
            events += _revive(state, faction, *free_forces(state, faction), None)
    state.set_game(step=PhaseStep.DONE, waiting=())
    return events


def paid_revival(
    state: Position,
    faction: Faction,
    forces: int,
    special: int,
    leader: str | None,
    emperor_pays: int,
    *,
    free_first: bool = True,
) -> list[Event]:
    cost = price(state, faction, forces, special, leader, emperor_pays, free_first=free_first)
    name = revivable_leader(state, faction, leader) if leader else None
    events: list[Event] = []
    if cost.emperor:
        state.pay(Faction.EMPEROR, cost.emperor, None)
        events.append(SpicePaid(Faction.EMPEROR, cost.emperor, None))
    return events + _revive(state, faction, forces, special, name, cost.own)


def _revive(
    state: Position,
    faction: Faction,
    forces: int,
    special: int,
    leader: str | None,
    cost: int = 0,
) -> list[Event]:
    """Pay ``cost`` to the bank (1.05.01.03, 1.05.03.02), bring back, mark revived."""
    state.pay(faction, cost, None)
    bring_back(state, faction, forces, special, leader)
    game = state.whole
    turn = revivals(game)
    starred = turn.starred | ({faction} if special else frozenset())
    set_revivals(state, replace(turn, done=turn.done | {faction}, starred=starred))
    if not (forces or special or leader):
        return []
    allied = free_revival(state, faction) != extras(faction)["free_revival"]
    rule = FREMEN_ALLY_RULE if allied else REVIVAL_RULE
    return [Revived(faction, forces, special, leader, cost, rule)]


# -- choices ------------------------------------------------------------------------


def _revivals(state: Position, faction: Faction) -> list[Revive]:
    """Every whole revival allowed to ``faction`` now (whether or not it is asked)."""
    return list(_each_revival(state, faction))


def _each_revival(state: Position, faction: Faction, *, secret: bool = True) -> Iterator[Revive]:
    """:func:`_revivals` one by one (whoever needs only the first few stops there); without
    ``secret``, those everything but the faction's spice allows."""
    own = state.factions[faction]
    most = forces_per_turn()
    names: list[str | None] = [None, *revivable_leaders(state, faction)]
    for special in range(min(own.special_tanks, starred_limit(state, faction), most) + 1):
        for forces in range(min(own.tanks, most - special) + 1):
            for name in names:
                try:
                    price(state, faction, forces, special, name, secret=secret)
                except (IllegalActionError, InvalidActionError):
                    continue
                yield Revive(faction, forces, special, name)


def candidates(state: Position, faction: Faction) -> list[FactionAction]:
    """What a waiting faction may choose now: the free revival alone (pass), each whole
    revival it can pay for, and the Emperor's Karama revival."""
    game = state.whole
    if game.step != RevivalStep.REVIVE or faction not in game.waiting:
        return []
    out: list[FactionAction] = [Pass(faction)]
    if faction not in revivals(game).done:
        out += _revivals(state, faction)
    if may_karama_revive(state, faction):
        out += _karama_candidates(state, faction)
    return out + [a for a, _ in ally_revival_options(state, faction)]


def _karama_candidates(state: Position, faction: Faction) -> list[FactionAction]:
    game = state.whole
    own = state.factions[faction]
    special = min(own.special_tanks, starred_limit(state, faction), 1)
    out: list[FactionAction] = []
    for s in range(special + 1):
        forces = min(own.tanks, KARAMA_FORCES - s)
        if forces + s:
            out.append(KaramaRevive(faction, forces, s))
    out += [KaramaRevive(faction, leader=n) for n in game.held(game.leaders_tanks, faction)]
    return out


def revival_options(state: Position, faction: Faction) -> list[tuple[Revive, Price]]:
    """The whole revivals ``faction`` may choose now, each with its price (for the table's
    autocomplete); empty when it is not asked."""
    game = state.whole
    if (
        game.phase is not GamePhase.REVIVAL
        or game.step != RevivalStep.REVIVE
        or faction not in game.waiting
    ):
        return []
    if faction in revivals(game).done:
        return []
    return [
        (a, price(state, faction, a.forces, a.special, a.leader)) for a in _revivals(state, faction)
    ]


# -- the Emperor pays for its ally's forces beyond the ally's limit (2.03.07) --------


def _revivable(state: Position, faction: Faction) -> int:
    own = state.factions[faction]
    return own.tanks + min(own.special_tanks, starred_limit(state, faction))


def _room_beyond_limit(state: Position) -> int:
    """As the phase begins: the ally's forces in the tanks beyond what its own revival may
    bring back this turn (its limit of 3), at most 3."""
    ally = state.ally_of(Faction.EMPEROR) if state.in_game(Faction.EMPEROR) else None
    if ally is None or ally is Faction.EMPEROR:
        return 0
    return max(0, min(EMPEROR_PAYS, _revivable(state, ally) - forces_per_turn()))


def _ally_payment_open(state: Position, faction: Faction) -> bool:
    """Whether ``faction`` is the Emperor, allied, with its ally's forces beyond the ally's
    limit still to pay for this turn: public facts (whether its spice pays for one is its
    secret, :func:`ally_revival_options`)."""
    game = state.whole
    return (
        faction is Faction.EMPEROR
        and state.ally_of(faction) is not None
        and revivals(game).ally_room > 0
        and not revivals(game).ally_paid
    )


def ally_revival_options(
    state: Position, faction: Faction
) -> tuple[tuple[PayAllyRevival, int], ...]:
    """The Emperor's payments for its ally's forces open now, each with its price."""
    game = state.whole
    ally = state.ally_of(faction)
    if faction is not Faction.EMPEROR or ally is None or revivals(game).ally_room <= 0:
        return ()
    out = []
    room = revivals(game).ally_room
    for special in range(min(room, state.factions[ally].special_tanks) + 1):
        for forces in range(room - special + 1):
            action = PayAllyRevival(faction, forces, special)
            try:
                out.append((action, _ally_price(state, action)))
            except (IllegalActionError, InvalidActionError, NotYourTurnError):
                continue
    return tuple(out)


def _ally_price(state: Position, action: PayAllyRevival) -> int:
    """The Emperor's price for ``action``, or a refusal saying why it is not allowed."""
    game = state.whole
    faction = action.faction
    if game.phase is not GamePhase.REVIVAL or game.step != RevivalStep.REVIVE:
        raise NotYourTurnError(
            "the Emperor pays for its ally's revival in the Revival phase, not now",
            rule=EMPEROR_ALLY_RULE,
        )
    if faction is not Faction.EMPEROR:
        raise IllegalActionError(
            "only the Emperor pays for its ally's forces beyond the ally's limit",
            rule=EMPEROR_ALLY_RULE,
        )
    ally = state.ally_of(faction)
    if ally is None:
        raise IllegalActionError(
            "the Emperor pays for an ally's forces only when allied", rule=EMPEROR_ALLY_RULE
        )
    if revivals(game).ally_paid:
        raise IllegalActionError(
            "the Emperor pays for its ally's forces once a turn", rule=EMPEROR_ALLY_RULE
        )
    if revivals(game).ally_room <= 0:
        raise IllegalActionError(
            f"the Emperor has no forces of {ally.label} to pay for beyond its limit this turn",
            rule=EMPEROR_ALLY_RULE,
        )
    for amount, what in ((action.forces, "forces"), (action.special, "starred forces")):
        check_count(amount, what, EMPEROR_ALLY_RULE)
    count = action.forces + action.special
    room = revivals(game).ally_room
    if count == 0 or count > room:
        raise IllegalActionError(
            f"the Emperor may pay for 1 to {room} of {ally.label}'s forces beyond its limit "
            f"this turn, not {quote(count)}",
            rule=EMPEROR_ALLY_RULE,
        )
    check_in_tanks(state, ally, action.forces, action.special, EMPEROR_ALLY_RULE)
    if action.special > starred_limit(state, ally):
        raise IllegalActionError(
            "at most one starred force is revived per turn", rule=STARRED_REVIVAL_RULES[ally]
        )
    cost = count * force_cost()
    if cost > state.factions[faction].spice:
        raise IllegalActionError(
            f"the Emperor cannot pay {cost} spice: it holds {state.factions[faction].spice}",
            rule=EMPEROR_ALLY_RULE,
        )
    return cost


def stop_ally_revival(state: Position) -> list[Event]:
    """A Karama played ahead against the Emperor's ALLIANCE (2.03.07, reading K1) stops
    its next use: the first time in a Revival phase that the Emperor may pay for its
    ally's forces beyond the ally's limit, it may not this turn (the event says so)."""
    game = state.whole
    emperor = Faction.EMPEROR
    if Ability.ALLY_REVIVAL.value not in game.prevented or not _ally_payment_open(state, emperor):
        return []
    _, stopped = karama_turn.uses(state, Ability.ALLY_REVIVAL)
    set_revivals(state, replace(revivals(state.whole), ally_room=0))
    return stopped


def after_prevent(state: Position) -> list[Event]:
    """A Karama against the Emperor's ALLIANCE played while the Emperor may still pay for
    its ally's forces this turn stops that payment at once; the Emperor is then asked only
    for what is left to decide."""
    stopped = stop_ally_revival(state)
    if stopped and Faction.EMPEROR in state.whole.waiting:
        answered(state, Faction.EMPEROR)
    if _in_revival(state):
        stopped += stop_fremen_gift(state)
    return stopped


def _in_revival(state: Position) -> bool:
    return reviving(state.whole)


def left_to_moderators(game: TurnState) -> bool:
    """The moderators recorded the last revivals asked for; the phase waits for their
    "phase done" (a record never ends it)."""
    return reviving(game) and not game.waiting


def default(
    state: Position,
    faction: Faction,
    legal: Sequence[FactionAction],
    is_legal: Callable[[Action], bool],
) -> FactionAction | None:
    """Pass: the free revival alone (it costs the faction nothing)."""
    return first_of(legal, Pass)


def pay_ally_revival(state: Position, action: PayAllyRevival) -> list[Event]:
    """The Emperor revives up to 3 of its ally's forces beyond the ally's limit, 2 spice
    each to the bank (2.03.07); once a turn; its own revival is apart."""
    cost = _ally_price(state, action)
    ally = state.ally_of(action.faction)
    assert ally is not None  # _ally_price refuses otherwise
    state.pay(action.faction, cost, None)
    bring_back(state, ally, action.forces, action.special, None)
    game = state.whole
    turn = revivals(game)
    starred = turn.starred | ({ally} if action.special else frozenset())
    set_revivals(state, replace(turn, ally_room=0, ally_paid=True, starred=starred))
    answered(state, action.faction)
    return [
        SpicePaid(action.faction, cost, None),
        Revived(ally, action.forces, action.special, None, 0, EMPEROR_ALLY_RULE),
    ]
