"""What a revival may bring back and what it costs (1.05.01-1.05.04): the free revival
(the Fremen's ally's 3, 2.04.11), starred forces (2.03.11, 2.04.19), the leaders that may
come back (face down, the Kwisatz Haderach, 2.01.14), the price of a whole revival and the
forces and leader brought back from the tanks."""

from __future__ import annotations

from dataclasses import dataclass

from rules import karama_turn
from rules.components import extras, leaders
from rules.errors import IllegalActionError, InvalidActionError, quote
from rules.events import Event
from rules.factions import Faction, same_card
from rules.game_model import with_entry
from rules.model import Ability
from rules.position import Position
from rules.revival.model import (
    EMPEROR_ALLY_RULE,
    EMPEROR_PAYS,
    FACE_DOWN_RULE,
    FREE_RULE,
    FREMEN_ALLY_FREE,
    KWISATZ_HADERACH,
    KWISATZ_HADERACH_COST,
    LEADER_REVIVAL_RULE,
    MOST,
    REAWAKEN_RULE,
    REVIVAL_RULE,
    STARRED,
    STARRED_REVIVAL_RULES,
    force_cost,
    forces_per_turn,
    revivals,
)

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
    if ally in revivals(game).done or not own.tanks + own.special_tanks:
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
    return 0 if faction in revivals(state.whole).starred else 1


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


def check_count(amount: int, what: str, rule: str) -> None:
    if amount < 0 or amount > MOST:
        raise InvalidActionError(f"{what} cannot be {quote(amount)}", rule=rule)


def check_in_tanks(state: Position, faction: Faction, forces: int, special: int, rule: str) -> None:
    own = state.factions[faction]
    if forces > own.tanks or special > own.special_tanks:
        raise IllegalActionError(
            f"{faction.label} has {own.tanks} forces and {own.special_tanks} starred forces "
            "in the tanks",
            rule=rule,
        )


def check_starred(state: Position, faction: Faction, special: int) -> None:
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
        check_count(amount, what, REVIVAL_RULE)
    check_count(emperor_pays, "the forces the Emperor pays for", EMPEROR_ALLY_RULE)
    total = forces + special
    limit = forces_per_turn()
    if emperor_pays:
        _check_emperor_pays(state, faction, total, emperor_pays)
    elif total > limit:
        raise IllegalActionError(
            f"at most {limit} forces are revived per turn, not {total}", rule=REVIVAL_RULE
        )
    check_in_tanks(state, faction, forces, special, REVIVAL_RULE)
    check_starred(state, faction, special)
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
