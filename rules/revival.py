"""The Revival Phase (1.05), run by the engine.

Everyone revives at once, in no storm order (1.05.00). Whom the phase asks is a function
of public facts only (docs/secrets-and-waits.md): at the start each faction with nothing
to decide that anyone could see (nothing in the tanks beyond its free revival, no leader it
may revive, no chance of the Emperor's Karama power) gets its free revival by itself; the
others are asked all at once (step ``"revive"``), whether or not their spice pays for more
(a faction that cannot pay may only pass), and answer with
:class:`~rules.actions.Revive` (their whole force revival, free ones included, and at
most one leader) or :class:`~rules.actions.Pass` (the free revival alone). The Emperor
allied is asked too when it may pay for its ally's forces beyond the ally's limit
(:class:`~rules.actions.PayAllyRevival`, 2.03.07), whatever spice it holds; its pass
declines that. When the last of them has answered the phase is ``"done"``.

Besides: the Emperor's once-a-game Karama revival (1.14.02), the Tleilaxu Ghola
played at any time (3.01.20), and the moderator's records (``RecordRevival``,
``RecordGhola``) and "phase done" as corrections. Readings in
docs/whole-turn-readings.md ("The Revival phase").
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum

from rules import karama_turn
from rules.actions import (
    Action,
    FactionAction,
    KaramaRevive,
    Pass,
    PayAllyRevival,
    PhaseDone,
    PlayGhola,
    Record,
    RecordGhola,
    RecordRevival,
    Revive,
)
from rules.components import extras, leaders, revival_limits
from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError, quote
from rules.events import Event, KaramaPower, Passed, Revived, SpicePaid
from rules.factions import Faction, same_card
from rules.game_model import GamePhase, PhaseStep, TurnState, with_entry
from rules.model import Ability
from rules.phase_spec import PhaseSpec, PhaseWaits, Stepped, first_of, handlers, on
from rules.position import Position

PHASE_RULE = "1.05"
ORDER_RULE = "1.05.00"
REVIVAL_RULE = "1.05.01"
FREE_RULE = "1.05.01.01"
LEADER_REVIVAL_RULE = "1.05.03"
FACE_DOWN_RULE = "1.05.04"
KWISATZ_HADERACH = "Kwisatz Haderach"
KWISATZ_HADERACH_COST = 2  # reading D12 (treachery.online): the rules give no price
REAWAKEN_RULE = "2.01.14"
STARRED_REVIVAL_RULES = {Faction.FREMEN: "2.04.19", Faction.EMPEROR: "2.03.11"}
STARRED = frozenset({Faction.EMPEROR, Faction.FREMEN})
FREMEN_ALLY_FREE = 3
FREMEN_ALLY_RULE = "2.04.11"
EMPEROR_ALLY_RULE = "2.03.07"
EMPEROR_PAYS = 3  # forces of the ally above its limit (up to 6 in all)
KARAMA_RULE = "1.14.02"
KARAMA_FORCES = 3
GHOLA = "Tleilaxu Ghola"
GHOLA_RULE = "3.01.20"
GHOLA_FORCES = 5
MOST = 10_000


class RevivalStep(StrEnum):
    """The Revival phase's one step: everyone asked at once (1.05.00)."""

    REVIVE = "revive"


def forces_per_turn() -> int:
    return revival_limits()["forces_per_turn"]


def force_cost() -> int:
    return revival_limits()["paid_force_cost"]


# -- free revival -------------------------------------------------------------------


def free_revival(state: Position, faction: Faction) -> int:
    """The faction's free revival; 3 for the Fremen's ally (2.04.11, the Fremen's
    alliance grants it as it protects from worms: implied by the alliance), unless a
    Karama stopped that gift this turn."""
    own: int = extras(faction)["free_revival"]
    if _fremen_gift(state, faction) and not state.whole.fremen_gift_stopped:
        return max(own, FREMEN_ALLY_FREE)
    return own


def _fremen_gift(state: Position, faction: Faction) -> bool:
    return faction is not Faction.FREMEN and state.ally_of(faction) is Faction.FREMEN


def stop_fremen_gift(state: Position) -> list[Event]:
    """A Karama played ahead against the Fremen's ALLIANCE (2.04.11, reading K1) stops its
    next use: the first Revival phase in which the Fremen's ally, not yet revived, has
    forces in the tanks for the gift to raise, it revives its own free number this turn."""
    game = state.whole
    ally = state.ally_of(Faction.FREMEN)
    if Ability.FREMEN_ALLY_REVIVAL.value not in game.prevented or ally is None:
        return []
    own = state.factions[ally]
    if ally in game.revived or not own.tanks + own.special_tanks:
        return []
    if extras(ally)["free_revival"] >= FREMEN_ALLY_FREE:
        return []
    _, stopped = karama_turn.uses(state, Ability.FREMEN_ALLY_REVIVAL)
    state.set_game(fremen_gift_stopped=True)
    return stopped


def starred_limit(state: Position, faction: Faction) -> int:
    """Starred forces the faction may still revive this turn: one Sardaukar or Fedaykin
    a turn in the advanced game (2.03.11, 2.04.19), and none once one came back."""
    if faction not in STARRED or not state.rules.advanced:
        return MOST
    return 0 if faction in state.whole.starred_revived else 1


def free_forces(state: Position, faction: Faction) -> tuple[int, int]:
    """(regular, starred) forces the free revival alone brings back: regular ones first,
    then starred ones as far as their limit allows."""
    own = state.factions[faction]
    free = free_revival(state, faction)
    regular = min(free, own.tanks)
    return regular, min(free - regular, own.special_tanks, starred_limit(state, faction))


# -- leaders ------------------------------------------------------------------------


def _deaths(state: Position, faction: Faction, name: str) -> int:
    """How often a leader died: at least once if it lies in the tanks."""
    game = state.whole
    died = game.leader_deaths.get(name, 0)
    return max(died, 1) if name in game.held(game.leaders_tanks, faction) else died


def revivable_leaders(state: Position, faction: Faction) -> tuple[str, ...]:
    """The leaders the faction may revive now (1.05.03-1.05.04): once it has no active
    leader or every one of its leaders has died at least once, those in the tanks that
    died fewest times (a leader killed twice lies face down and waits for the others);
    and the Kwisatz Haderach, dead, once every other Atreides leader has died (2.01.14)."""
    game = state.whole
    tanks = game.held(game.leaders_tanks, faction)
    all_died = all(_deaths(state, faction, n) for n in leaders(faction))
    reawaken = (KWISATZ_HADERACH,) if _kwisatz_haderach_dead(state, faction) and all_died else ()
    if not tanks or (game.held(game.leaders, faction) and not all_died):
        return reawaken
    fewest = min(_deaths(state, faction, n) for n in tanks)
    return (*(n for n in tanks if _deaths(state, faction, n) == fewest), *reawaken)


def _kwisatz_haderach_dead(state: Position, faction: Faction) -> bool:
    return faction is Faction.ATREIDES and state.whole.kwisatz_haderach_dead


def leader_cost(faction: Faction, name: str) -> int:
    """A leader's revival price: its strength (1.05.03.01); the Kwisatz Haderach 2 (D12)."""
    if name == KWISATZ_HADERACH:
        return KWISATZ_HADERACH_COST
    return leaders(faction)[name]


def leader_in_tanks(state: Position, faction: Faction, name: str, rule: str) -> str:
    game = state.whole
    if same_card(name, KWISATZ_HADERACH) and _kwisatz_haderach_dead(state, faction):
        return KWISATZ_HADERACH
    found = next((n for n in game.held(game.leaders_tanks, faction) if same_card(n, name)), None)
    if found is None:
        raise IllegalActionError(
            f"{quote(name)} is not a leader of {faction.label} in the tanks", rule=rule
        )
    return found


def revivable_leader(state: Position, faction: Faction, name: str) -> str:
    found = leader_in_tanks(state, faction, name, LEADER_REVIVAL_RULE)
    if found in revivable_leaders(state, faction):
        return found
    if found == KWISATZ_HADERACH:
        raise IllegalActionError(
            "the Kwisatz Haderach comes back only once every other Atreides leader has died "
            "at least once",
            rule=REAWAKEN_RULE,
        )
    if not revivable_leaders(state, faction):
        raise IllegalActionError(
            f"{faction.label} may revive a leader only when it has none left or every one "
            "of its leaders has died",
            rule=LEADER_REVIVAL_RULE,
        )
    raise IllegalActionError(
        f"{found} lies face down: it comes back only after {faction.label}'s other leaders "
        "in the tanks",
        rule=FACE_DOWN_RULE,
    )


# -- prices -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Price:
    """What a revival costs: the faction's spice and the Emperor's (for its ally)."""

    own: int
    emperor: int


def _count(amount: int, what: str, rule: str) -> None:
    if amount < 0 or amount > MOST:
        raise InvalidActionError(f"{what} cannot be {quote(amount)}", rule=rule)


def _in_tanks(state: Position, faction: Faction, forces: int, special: int, rule: str) -> None:
    own = state.factions[faction]
    if forces > own.tanks or special > own.special_tanks:
        raise IllegalActionError(
            f"{faction.label} has {own.tanks} forces and {own.special_tanks} starred forces "
            "in the tanks",
            rule=rule,
        )


def _check_starred(state: Position, faction: Faction, special: int) -> None:
    if special > starred_limit(state, faction):
        raise IllegalActionError(
            "at most one starred force is revived per turn", rule=STARRED_REVIVAL_RULES[faction]
        )


def price(
    state: Position,
    faction: Faction,
    forces: int,
    special: int = 0,
    leader: str | None = None,
    emperor_pays: int = 0,
    *,
    free_first: bool = True,
    secret: bool = True,
) -> Price:
    """The price of this whole revival of ``faction``, or a refusal saying why it is not
    allowed (whoever is waiting: :func:`revive` checks that). ``free_first``: the
    revival brings back at least the free forces (a moderator's record need not);
    ``emperor_pays``: a moderator's record only, forces above the ally's limit that the
    Emperor paid for (the Emperor's own choice is :func:`pay_ally_revival`); without
    ``secret``, what the faction's spice allows is not checked (whom the phase asks)."""
    for amount, what in ((forces, "forces"), (special, "starred forces")):
        _count(amount, what, REVIVAL_RULE)
    _count(emperor_pays, "the forces the Emperor pays for", EMPEROR_ALLY_RULE)
    total = forces + special
    limit = forces_per_turn()
    if emperor_pays:
        _check_emperor_pays(state, faction, total, emperor_pays)
    elif total > limit:
        raise IllegalActionError(
            f"at most {limit} forces are revived per turn, not {total}", rule=REVIVAL_RULE
        )
    _in_tanks(state, faction, forces, special, REVIVAL_RULE)
    _check_starred(state, faction, special)
    free = sum(free_forces(state, faction))
    if free_first and total < free:
        raise IllegalActionError(
            f"{faction.label}'s free revival brings back {free} forces by itself; a revival "
            f"names them too, not {total}",
            rule=FREE_RULE,
        )
    name = revivable_leader(state, faction, leader) if leader else None
    own = max(0, total - emperor_pays - free_revival(state, faction)) * force_cost()
    own += leader_cost(faction, name) if name else 0
    if secret and own > state.factions[faction].spice:
        raise IllegalActionError(
            f"{faction.label} cannot pay {own} spice for this revival: it holds "
            f"{state.factions[faction].spice}",
            rule=REVIVAL_RULE,
        )
    emperor = emperor_pays * force_cost()
    if emperor and emperor > state.factions[Faction.EMPEROR].spice:
        raise IllegalActionError(
            f"the Emperor cannot pay {emperor} spice: it holds "
            f"{state.factions[Faction.EMPEROR].spice}",
            rule=EMPEROR_ALLY_RULE,
        )
    return Price(own, emperor)


def _check_emperor_pays(state: Position, faction: Faction, total: int, count: int) -> None:
    """2.03.07: the Emperor pays for up to 3 of its ally's forces above the ally's limit
    of 3, for up to 6 in all; ``count`` is exactly the forces above the limit."""
    limit = forces_per_turn()
    ally = faction is not Faction.EMPEROR and state.ally_of(faction) is Faction.EMPEROR
    if not ally or count > EMPEROR_PAYS or total != limit + count:
        raise IllegalActionError(
            f"the Emperor pays for up to {EMPEROR_PAYS} of its ally's forces above its "
            f"{limit}; {quote(count)} of {total} is not possible here",
            rule=EMPEROR_ALLY_RULE,
        )


# -- the phase ----------------------------------------------------------------------


def begin(state: Position) -> list[Event]:
    """Everyone at once (1.05.00): those with nothing to decide get their free revival."""
    state.set_game(
        step=RevivalStep.REVIVE,
        waiting=(),
        revived=frozenset(),
        starred_revived=frozenset(),
        ally_revival_room=_room_beyond_limit(state),
        ally_revival_paid=False,
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
        state.set_game(ally_revival_room=0)
    state.set_game(waiting=tuple(waiting), step=RevivalStep.REVIVE if waiting else PhaseStep.DONE)
    return events


def has_choice(state: Position, faction: Faction) -> bool:
    """Whether the faction is asked, on public facts only: a revival other than its free
    one alone could be open to it (until it has revived), the Emperor's Karama power could
    be, or the Emperor's payment for its ally's forces beyond the ally's limit is open.
    Whether its spice or its cards allow any of it is its own secret."""
    own = faction not in state.whole.revived and _own_choice(state, faction)
    return own or _ally_payment_open(state, faction)


def _own_choice(state: Position, faction: Faction) -> bool:
    """A revival other than the free one alone allowed by everything but its spice (more
    in the tanks, a Fedaykin among the free, a leader), or (the Emperor) its Karama power."""
    free = Revive(faction, *free_forces(state, faction))
    revivals = _each_revival(state, faction, secret=False)
    return any(a != free for a in revivals) or _karama_open(state, faction)


def _karama_open(state: Position, faction: Faction) -> bool:
    """The Emperor's Karama revival (1.14.02) as others can tell: advanced, the power
    unused, a card in hand (any card may be a Karama), something in the tanks."""
    game = state.whole
    own = state.factions[faction]
    return (
        faction is Faction.EMPEROR
        and state.rules.advanced
        and faction not in game.karama_powers_used
        and bool(own.cards)
        and bool(own.tanks or own.special_tanks or game.held(game.leaders_tanks, faction))
    )


def _require(state: Position, faction: Faction, what: str) -> None:
    game = state.whole
    if game.phase is not GamePhase.REVIVAL or game.step != RevivalStep.REVIVE:
        raise NotYourTurnError(f"{what} belongs to the Revival phase, not now", rule=PHASE_RULE)
    if faction not in game.waiting:
        raise NotYourTurnError(
            f"{faction.label} has revived this turn"
            if faction in game.revived
            else f"{faction.label} has nothing to decide in this Revival phase",
            rule=REVIVAL_RULE,
        )


def revive(state: Position, action: Revive) -> list[Event]:
    """A waiting faction's whole revival this turn (1.05.01-1.05.03)."""
    _require(state, action.faction, "a revival")
    if action.faction in state.whole.revived:
        raise NotYourTurnError(f"{action.faction.label} has revived this turn", rule=REVIVAL_RULE)
    events = _paid_revival(state, action.faction, action.forces, action.special, action.leader, 0)
    _answered(state, action.faction)
    return events


def pass_(state: Position, action: Pass) -> list[Event]:
    """The free revival alone (if not revived yet); the Emperor declines paying for its
    ally's forces too (2.03.07)."""
    _require(state, action.faction, "passing on revival")
    events: list[Event] = [Passed(action.faction, GamePhase.REVIVAL.value)]
    if action.faction not in state.whole.revived:
        events += _revive(state, action.faction, *free_forces(state, action.faction), None)
    if action.faction is Faction.EMPEROR:
        state.set_game(ally_revival_room=0)
    _answered(state, action.faction)
    return events


def _answered(state: Position, faction: Faction) -> None:
    """``faction`` leaves the waiting list once it has nothing left to decide (the Emperor
    may still have its ally's forces to pay for)."""
    game = state.whole
    done = faction in game.revived and not _ally_payment_open(state, faction)
    waiting = tuple(f for f in game.waiting if not (f is faction and done))
    state.set_game(waiting=waiting, step=RevivalStep.REVIVE if waiting else PhaseStep.DONE)


def phase_done(state: Position, action: PhaseDone) -> list[Event]:
    """The moderator ends the phase early: everyone not yet revived gets its free revival."""
    events: list[Event] = []
    for faction in state.whole.order:
        if faction not in state.whole.revived:
            events += _revive(state, faction, *free_forces(state, faction), None)
    state.set_game(step=PhaseStep.DONE, waiting=())
    return events


def _paid_revival(
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
    starred = game.starred_revived | ({faction} if special else frozenset())
    state.set_game(revived=game.revived | {faction}, starred_revived=starred)
    if not (forces or special or leader):
        return []
    allied = free_revival(state, faction) != extras(faction)["free_revival"]
    rule = FREMEN_ALLY_RULE if allied else REVIVAL_RULE
    return [Revived(faction, forces, special, leader, cost, rule)]


def bring_back(
    state: Position, faction: Faction, forces: int, special: int, leader: str | None
) -> None:
    """Forces from the tanks to reserves (1.05.02); a leader from the tanks to the pool
    (1.05.03.03)."""
    own = state.factions[faction]
    state.update(
        faction,
        tanks=own.tanks - forces,
        special_tanks=own.special_tanks - special,
        reserves=own.reserves + forces,
        special_reserves=own.special_reserves + special,
    )
    game = state.whole
    if leader == KWISATZ_HADERACH:
        state.set_game(kwisatz_haderach_dead=False)  # back beside the Atreides (2.01.14)
    elif leader:
        tanks = tuple(n for n in game.held(game.leaders_tanks, faction) if n != leader)
        state.set_game(
            leaders_tanks=with_entry(game.leaders_tanks, faction, tanks),
            leaders=with_entry(game.leaders, faction, (*game.held(game.leaders, faction), leader)),
        )


# -- the moderator's records (corrections in this phase) ---------------------------


def _require_record(state: Position, action: FactionAction) -> None:
    game = state.whole
    if game.phase is not GamePhase.REVIVAL or game.step != RevivalStep.REVIVE:
        raise NotYourTurnError(
            f"{action.name} is recorded in the revival phase, not now "
            f"({game.phase.value.replace('_', ' ')})",
            rule=PHASE_RULE,
        )


def record_revival(state: Position, action: RecordRevival) -> list[Event]:
    """The moderator records a faction's whole revival: the faction is not asked and gets
    no free revival again; the phase goes on (it waits for the others or "phase done")."""
    _require_record(state, action)
    faction = action.faction
    if faction in state.whole.revived:
        raise IllegalActionError(
            f"{faction.label}'s revival is already done this turn", rule=REVIVAL_RULE
        )
    events = _paid_revival(
        state,
        faction,
        action.forces,
        action.special,
        action.leader,
        action.emperor_pays,
        free_first=False,
    )
    if action.emperor_pays:
        state.set_game(ally_revival_room=0, ally_revival_paid=True)
    state.set_game(waiting=tuple(f for f in state.whole.waiting if f is not faction))
    if Faction.EMPEROR in state.whole.waiting and not has_choice(state, Faction.EMPEROR):
        _answered(state, Faction.EMPEROR)
    return events


def record_ghola(state: Position, action: RecordGhola) -> list[Event]:
    _require_record(state, action)
    return _ghola(state, action.faction, action.forces, action.special, action.leader)


# -- Tleilaxu Ghola, at any time (3.01.20) -----------------------------------------


def play_ghola(state: Position, action: PlayGhola) -> list[Event]:
    """Tleilaxu Ghola: 1 leader whatever the usual conditions, or up to 5 forces, free;
    the faction's normal revival still happens (3.01.20). Any time in a game."""
    if state.whole.phase in (GamePhase.SETUP, GamePhase.OVER):
        raise NotYourTurnError(
            "Tleilaxu Ghola is played once the turns have begun", rule=GHOLA_RULE
        )
    state.check_nothing_resolving()
    return _ghola(state, action.faction, action.forces, action.special, action.leader)


def _ghola(
    state: Position, faction: Faction, forces: int, special: int, leader: str | None
) -> list[Event]:
    card = next((c for c in state.factions[faction].cards if same_card(c, GHOLA)), None)
    if card is None:
        raise IllegalActionError(f"{faction.label} holds no Tleilaxu Ghola", rule=GHOLA_RULE)
    for n in (forces, special):
        _count(n, "forces", GHOLA_RULE)
    count = forces + special
    if (leader is None) == (count == 0) or count > GHOLA_FORCES:
        raise InvalidActionError(
            f"Tleilaxu Ghola revives one leader or 1 to {GHOLA_FORCES} forces", rule=GHOLA_RULE
        )
    _in_tanks(state, faction, forces, special, GHOLA_RULE)
    name = leader_in_tanks(state, faction, leader, GHOLA_RULE) if leader else None
    state.discard(faction, card)
    bring_back(state, faction, forces, special, name)
    return [Revived(faction, forces, special, name, 0, GHOLA_RULE)]


def ghola_candidates(state: Position, faction: Faction) -> list[FactionAction]:
    """Tleilaxu Ghola plays open now: each leader in the tanks, or as many forces as it
    brings back (regular first)."""
    if not any(same_card(c, GHOLA) for c in state.factions[faction].cards):
        return []
    game, own = state.whole, state.factions[faction]
    out: list[FactionAction] = [
        PlayGhola(faction, leader=n) for n in game.held(game.leaders_tanks, faction)
    ]
    forces = min(own.tanks, GHOLA_FORCES)
    special = min(own.special_tanks, GHOLA_FORCES - forces)
    if forces + special:
        out.append(PlayGhola(faction, forces, special))
    return out


# -- the Emperor's Karama power (1.14.02) -------------------------------------------


def may_karama_revive(state: Position, faction: Faction) -> bool:
    """The Emperor, advanced, once a game, holding a Karama, with something in the tanks."""
    game = state.whole
    own = state.factions[faction]
    return (
        faction is Faction.EMPEROR
        and state.rules.advanced
        and faction not in game.karama_powers_used
        and state.karama_card(faction) is not None
        and bool(own.tanks or own.special_tanks or game.held(game.leaders_tanks, faction))
    )


def karama_revive(state: Position, action: KaramaRevive) -> list[Event]:
    """Revive up to 3 forces or 1 leader free with a Karama, besides the normal revival
    (1.14.02; at most one Sardaukar a turn all the same, 2.03.11)."""
    faction = action.faction
    game = state.whole
    if game.phase is not GamePhase.REVIVAL or game.step != RevivalStep.REVIVE:
        raise NotYourTurnError(
            "the Emperor's Karama revival belongs to the Revival phase, not now", rule=KARAMA_RULE
        )
    karama_turn.check_power(state, faction, Faction.EMPEROR, KARAMA_RULE)
    for n in (action.forces, action.special):
        _count(n, "forces", KARAMA_RULE)
    count = action.forces + action.special
    if (action.leader is None) == (count == 0) or count > KARAMA_FORCES:
        raise InvalidActionError(
            f"the Emperor's Karama revives one leader or 1 to {KARAMA_FORCES} forces",
            rule=KARAMA_RULE,
        )
    _in_tanks(state, faction, action.forces, action.special, KARAMA_RULE)
    _check_starred(state, faction, action.special)
    name = leader_in_tanks(state, faction, action.leader, KARAMA_RULE) if action.leader else None
    card = state.karama_card(faction)
    if card is None:
        raise IllegalActionError("the Emperor hold no Karama card", rule=KARAMA_RULE)
    state.discard(faction, card)
    bring_back(state, faction, action.forces, action.special, name)
    starred = game.starred_revived | ({faction} if action.special else frozenset())
    state.set_game(karama_powers_used=game.karama_powers_used | {faction}, starred_revived=starred)
    return [
        KaramaPower(faction, card, "revive", None, KARAMA_RULE),
        Revived(faction, action.forces, action.special, name, 0, KARAMA_RULE),
    ]


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
    if faction not in game.revived:
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
    if faction in game.revived:
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
        and game.ally_revival_room > 0
        and not game.ally_revival_paid
    )


def ally_revival_options(
    state: Position, faction: Faction
) -> tuple[tuple[PayAllyRevival, int], ...]:
    """The Emperor's payments for its ally's forces open now, each with its price."""
    game = state.whole
    ally = state.ally_of(faction)
    if faction is not Faction.EMPEROR or ally is None or game.ally_revival_room <= 0:
        return ()
    out = []
    room = game.ally_revival_room
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
    if game.ally_revival_paid:
        raise IllegalActionError(
            "the Emperor pays for its ally's forces once a turn", rule=EMPEROR_ALLY_RULE
        )
    if game.ally_revival_room <= 0:
        raise IllegalActionError(
            f"the Emperor has no forces of {ally.label} to pay for beyond its limit this turn",
            rule=EMPEROR_ALLY_RULE,
        )
    for amount, what in ((action.forces, "forces"), (action.special, "starred forces")):
        _count(amount, what, EMPEROR_ALLY_RULE)
    count = action.forces + action.special
    room = game.ally_revival_room
    if count == 0 or count > room:
        raise IllegalActionError(
            f"the Emperor may pay for 1 to {room} of {ally.label}'s forces beyond its limit "
            f"this turn, not {quote(count)}",
            rule=EMPEROR_ALLY_RULE,
        )
    _in_tanks(state, ally, action.forces, action.special, EMPEROR_ALLY_RULE)
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
    state.set_game(ally_revival_room=0)
    return stopped


def after_prevent(state: Position) -> list[Event]:
    """A Karama against the Emperor's ALLIANCE played while the Emperor may still pay for
    its ally's forces this turn stops that payment at once; the Emperor is then asked only
    for what is left to decide."""
    stopped = stop_ally_revival(state)
    if stopped and Faction.EMPEROR in state.whole.waiting:
        _answered(state, Faction.EMPEROR)
    if _in_revival(state):
        stopped += stop_fremen_gift(state)
    return stopped


def _in_revival(state: Position) -> bool:
    return reviving(state.whole)


def reviving(game: Stepped) -> bool:
    """The factions asked choose their revivals, all at once (1.05.00)."""
    return game.phase == GamePhase.REVIVAL and game.step == RevivalStep.REVIVE


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
    starred = game.starred_revived | ({ally} if action.special else frozenset())
    state.set_game(ally_revival_room=0, ally_revival_paid=True, starred_revived=starred)
    _answered(state, action.faction)
    return [
        SpicePaid(action.faction, cost, None),
        Revived(ally, action.forces, action.special, None, 0, EMPEROR_ALLY_RULE),
    ]


def records(state: Position) -> list[Record | PhaseDone]:
    """Some records the moderator could make now (small amounts), "phase done" first."""
    return [PhaseDone(), *_records_of_each(state)] if reviving(state.whole) else []


def _records_of_each(state: Position) -> list[Record | PhaseDone]:
    game = state.whole
    out: list[Record | PhaseDone] = []
    for faction in game.order:
        own = state.factions[faction]
        if faction not in game.revived:
            out += [RecordRevival(faction, n) for n in range(min(own.tanks, 3) + 1)]
            out += [
                RecordRevival(faction, 0, leader=n) for n in game.held(game.leaders_tanks, faction)
            ]
        out += [RecordGhola(faction, min(own.tanks, GHOLA_FORCES))] if own.tanks else []
    return out


SPEC = PhaseSpec(
    phase=GamePhase.REVIVAL,
    rule=PHASE_RULE,
    steps=RevivalStep,
    begin=begin,
    handlers=handlers(
        on(Revive, revive),
        on(KaramaRevive, karama_revive),
        on(PayAllyRevival, pay_ally_revival),
        on(RecordRevival, record_revival),
        on(RecordGhola, record_ghola),
    ),
    pass_=pass_,
    phase_done=phase_done,
    offered=candidates,
    default=default,
    waits=PhaseWaits(left_to_moderators=left_to_moderators, asked_alike=reviving),
    declinable=frozenset({RevivalStep.REVIVE}),
    own_answers=(Revive, KaramaRevive),
    records=records,
)
