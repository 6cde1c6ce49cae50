"""Bidding, Revival and Battle, as the moderator records them (until the engine runs them).

The machine stops at these phases. The moderator records what happened (a card
won and its price, a revival, a battle's losses and payments), each record
checked against the rules it can be checked against, then closes the phase
with "phase done". A faction with no revival recorded gets its free revival
(1.05.01.01) when the Revival Phase closes.
"""

from __future__ import annotations

from rules import battle as battle_flow
from rules.actions import (
    FactionAction,
    PhaseDone,
    Record,
    RecordBattle,
    RecordCardWon,
    RecordDiscard,
    RecordGhola,
    RecordIncome,
    RecordLeaderKilled,
    RecordLosses,
    RecordPayment,
    RecordRevival,
)
from rules.components import extras, leaders, revival_limits
from rules.decks import draw_treachery
from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError, quote
from rules.events import (
    BattleRecorded,
    CardDiscarded,
    CardWon,
    Event,
    ForcesLost,
    LeaderKilled,
    Revived,
    SpicePaid,
    SpiceReceived,
)
from rules.factions import Faction, same_card
from rules.game_model import RECORDED_PHASES, GamePhase, with_entry
from rules.model import Stack
from rules.position import Position

BUY_RULE = "1.04.06.02"
HAND_RULE = "1.04.02"
BID_LIMIT_RULE = "1.04.06.03"
ALLY_BID_RULE = "1.10.02.04"
EMPEROR_RULE = "2.03.04"
TOP_CARD_RULE = "2.05.08"
REVIVAL_RULE = "1.05.01"
LEADER_REVIVAL_RULE = "1.05.03"
STARRED_REVIVAL_RULES = {Faction.FREMEN: "2.04.19", Faction.EMPEROR: "2.03.11"}
BATTLE_RULE = "1.07.06"
STARRED = frozenset({Faction.EMPEROR, Faction.FREMEN})
FREMEN_ALLY_FREE = 3
FREMEN_ALLY_RULE = "2.04.11"
EMPEROR_PAYS = 3
GHOLA = "Tleilaxu Ghola"
GHOLA_RULE = "3.01.20"
GHOLA_FORCES = 5
EMPEROR_ALLY_RULE = "2.03.07"
KWISATZ_HADERACH_LOSSES = 7  # 2.01.10: battle losses over the whole game
PHASE_RULES = {GamePhase.BIDDING: "1.04", GamePhase.REVIVAL: "1.05", GamePhase.BATTLE: "1.07"}


def begin(state: Position) -> list[Event]:
    state.set_game(step="recording", waiting=(), revived=frozenset())
    return []


def _require(state: Position, action: FactionAction, phase: GamePhase) -> None:
    """A record belongs to its phase; the engine runs the Battle phase, where the records
    stay as the moderator's corrections (they leave the battle where it stands)."""
    game = state.whole
    engine_runs = phase is GamePhase.BATTLE and game.phase is phase and game.step != "done"
    if not engine_runs and (game.phase is not phase or game.step != "recording"):
        raise NotYourTurnError(
            f"{action.name} is recorded in the {phase.value.replace('_', ' ')} phase, "
            f"not now ({game.phase.value.replace('_', ' ')})",
            rule=PHASE_RULES[phase],
        )


def _check_amount(amount: int, what: str, rule: str) -> None:
    if amount < 0 or amount > 10_000:
        raise InvalidActionError(f"{what} cannot be {quote(amount)}", rule=rule)


def phase_done(state: Position, action: PhaseDone) -> list[Event]:
    game = state.whole
    if game.phase is GamePhase.BATTLE and game.step != "done":
        return _end_battles(state)
    if game.phase not in RECORDED_PHASES or game.step != "recording":
        raise NotYourTurnError(
            f"the {game.phase.value.replace('_', ' ')} phase is not recorded by the moderator",
            rule="1.00",
        )
    events: list[Event] = []
    if game.phase is GamePhase.REVIVAL:
        for faction in game.order:
            if faction not in state.whole.revived:
                events += _revive(state, faction, *free_forces(state, faction), None)
    state.set_game(step="done")
    return events


def _end_battles(state: Position) -> list[Event]:
    """The moderator ends the Battle phase early: the battle under way is dropped, the
    cards it played stay in hand, leaders go back to their pools (1.07.07)."""
    return battle_flow.end_phase(state)


# -- bidding ------------------------------------------------------------------------


def card_won(state: Position, action: RecordCardWon) -> list[Event]:
    _require(state, action, GamePhase.BIDDING)
    faction = action.faction
    _check_amount(action.price, "a price", BUY_RULE)
    own = state.factions[faction]
    limit = extras(faction)["hand_limit"]
    if len(own.cards) >= limit:
        raise IllegalActionError(
            f"{faction.label} holds {len(own.cards)} cards, its limit: it cannot bid",
            rule=HAND_RULE,
        )
    payers = _bid_payers(state, action)
    card, events = draw_treachery(state)
    if card is None:
        raise IllegalActionError("the treachery deck and its discards are empty", rule=BUY_RULE)
    emperor = Faction.EMPEROR if Faction.EMPEROR in state.factions else None
    for payer, amount in payers:
        state.pay(payer, amount, emperor if emperor is not payer else None)
    paid_to = emperor if emperor is not faction else None
    state.update(faction, cards=(*state.factions[faction].cards, card))
    events.append(CardWon(faction, action.price, paid_to if action.price else None, BUY_RULE))
    if faction is Faction.HARKONNEN and len(state.factions[faction].cards) < limit:
        extra, shuffled = draw_treachery(state)
        events += shuffled
        if extra is not None:
            state.update(faction, cards=(*state.factions[faction].cards, extra))
            events.append(CardWon(faction, 0, None, TOP_CARD_RULE))
    return events


def _bid_payers(state: Position, action: RecordCardWon) -> list[tuple[Faction, int]]:
    """Who pays what: the faction, and its ally for ``ally_pays`` (1.10.02.04); nobody
    pays more than it holds (1.04.06.03)."""
    faction = action.faction
    _check_amount(action.ally_pays, "an ally's share", ALLY_BID_RULE)
    ally = state.ally_of(faction)
    if action.ally_pays and (ally is None or action.ally_pays > action.price):
        raise IllegalActionError(
            f"{faction.label}'s ally can pay part of the price, no more: "
            f"{quote(action.ally_pays)} of {action.price}",
            rule=ALLY_BID_RULE,
        )
    payers = [(faction, action.price - action.ally_pays)]
    if ally is not None and action.ally_pays:
        payers.append((ally, action.ally_pays))
    for payer, amount in payers:
        if amount > state.factions[payer].spice:
            raise IllegalActionError(
                f"{payer.label} cannot pay {amount} spice: it holds {state.factions[payer].spice}",
                rule=BID_LIMIT_RULE,
            )
    return payers


# -- revival ------------------------------------------------------------------------


def free_revival(state: Position, faction: Faction) -> int:
    """The faction's free revival; 3 for the Fremen's ally (2.04.11, the Fremen's
    alliance grants it as it protects from worms: implied by the alliance)."""
    if faction is not Faction.FREMEN and state.ally_of(faction) is Faction.FREMEN:
        return FREMEN_ALLY_FREE
    return extras(faction)["free_revival"]


def free_forces(state: Position, faction: Faction) -> tuple[int, int]:
    """(regular, starred) forces the free revival alone brings back: regular ones first,
    at most one starred force in the advanced game (2.03.11, 2.04.19)."""
    own = state.factions[faction]
    free = free_revival(state, faction)
    regular = min(free, own.tanks)
    starred_limit = 1 if faction in STARRED and state.rules.advanced else free
    return regular, min(free - regular, own.special_tanks, starred_limit)


def revival(state: Position, action: RecordRevival) -> list[Event]:
    _require(state, action, GamePhase.REVIVAL)
    faction = action.faction
    if faction in state.whole.revived:
        raise IllegalActionError(
            f"{faction.label}'s revival is already recorded this turn", rule=REVIVAL_RULE
        )
    _check_amount(action.forces, "forces", REVIVAL_RULE)
    _check_amount(action.special, "starred forces", REVIVAL_RULE)
    own = state.factions[faction]
    limit = revival_limits()["forces_per_turn"]
    if action.forces + action.special > limit:
        raise IllegalActionError(
            f"at most {limit} forces are revived per turn, not {action.forces + action.special}",
            rule=REVIVAL_RULE,
        )
    if action.forces > own.tanks or action.special > own.special_tanks:
        raise IllegalActionError(
            f"{faction.label} has {own.tanks} forces and {own.special_tanks} starred forces "
            "in the tanks",
            rule=REVIVAL_RULE,
        )
    if action.special > 1 and faction in STARRED and state.rules.advanced:
        raise IllegalActionError(
            "at most one starred force is revived per turn", rule=STARRED_REVIVAL_RULES[faction]
        )
    leader = _revivable_leader(state, faction, action.leader) if action.leader else None
    events = _emperor_pays(state, action)
    return events + _revive(
        state, faction, action.forces, action.special, leader, action.emperor_pays
    )


def _bring_back(
    state: Position, faction: Faction, forces: int, special: int, leader: str | None
) -> None:
    """Forces from the tanks to reserves; a leader from the tanks to the pool."""
    own = state.factions[faction]
    state.update(
        faction,
        tanks=own.tanks - forces,
        special_tanks=own.special_tanks - special,
        reserves=own.reserves + forces,
        special_reserves=own.special_reserves + special,
    )
    game = state.whole
    if leader:
        tanks = tuple(n for n in game.held(game.leaders_tanks, faction) if n != leader)
        state.set_game(
            leaders_tanks=with_entry(game.leaders_tanks, faction, tanks),
            leaders=with_entry(game.leaders, faction, (*game.held(game.leaders, faction), leader)),
        )


def _emperor_pays(state: Position, action: RecordRevival) -> list[Event]:
    """2.03.07: the Emperor may pay for up to 3 of its ally's forces above the free ones."""
    count = action.emperor_pays
    if not count:
        return []
    paid = max(0, action.forces + action.special - free_revival(state, action.faction))
    emperor = Faction.EMPEROR
    if state.ally_of(action.faction) is not emperor or not 0 < count <= min(paid, EMPEROR_PAYS):
        raise IllegalActionError(
            f"the Emperor pays for up to {EMPEROR_PAYS} of its ally's paid forces; "
            f"{quote(count)} is not possible here",
            rule=EMPEROR_ALLY_RULE,
        )
    cost = count * revival_limits()["paid_force_cost"]
    if cost > state.factions[emperor].spice:
        raise IllegalActionError(
            f"the Emperor cannot pay {cost} spice: it holds {state.factions[emperor].spice}",
            rule=EMPEROR_ALLY_RULE,
        )
    state.pay(emperor, cost, None)
    return [SpicePaid(emperor, cost, None)]


def _revive(
    state: Position,
    faction: Faction,
    forces: int,
    special: int,
    leader: str | None,
    paid_by_emperor: int = 0,
) -> list[Event]:
    paid_forces = max(0, forces + special - free_revival(state, faction)) - paid_by_emperor
    cost = paid_forces * revival_limits()["paid_force_cost"]
    cost += leaders(faction)[leader] if leader else 0
    if cost > state.factions[faction].spice:
        raise IllegalActionError(
            f"{faction.label} cannot pay {cost} spice for this revival: it holds "
            f"{state.factions[faction].spice}",
            rule=REVIVAL_RULE,
        )
    state.pay(faction, cost, None)
    _bring_back(state, faction, forces, special, leader)
    state.set_game(revived=state.whole.revived | {faction})
    if not (forces or special or leader):
        return []
    rule = (
        REVIVAL_RULE
        if free_revival(state, faction) == extras(faction)["free_revival"]
        else FREMEN_ALLY_RULE
    )
    return [Revived(faction, forces, special, leader, cost, rule)]


def ghola(state: Position, action: RecordGhola) -> list[Event]:
    """Tleilaxu Ghola: 1 leader whatever the usual conditions, or up to 5 forces, free;
    the faction's normal revival still happens (3.01.20)."""
    _require(state, action, GamePhase.REVIVAL)
    faction = action.faction
    card = next((c for c in state.factions[faction].cards if same_card(c, GHOLA)), None)
    if card is None:
        raise IllegalActionError(f"{faction.label} holds no Tleilaxu Ghola", rule=GHOLA_RULE)
    for n in (action.forces, action.special):
        _check_amount(n, "forces", GHOLA_RULE)
    count = action.forces + action.special
    own = state.factions[faction]
    if (action.leader is None) == (count == 0) or count > GHOLA_FORCES:
        raise InvalidActionError(
            f"Tleilaxu Ghola revives one leader or 1 to {GHOLA_FORCES} forces", rule=GHOLA_RULE
        )
    if action.forces > own.tanks or action.special > own.special_tanks:
        raise IllegalActionError(
            f"{faction.label} has {own.tanks} forces and {own.special_tanks} starred forces "
            "in the tanks",
            rule=GHOLA_RULE,
        )
    leader = _leader_in_tanks(state, faction, action.leader) if action.leader else None
    state.discard(faction, card)
    _bring_back(state, faction, action.forces, action.special, leader)
    return [Revived(faction, action.forces, action.special, leader, 0, GHOLA_RULE)]


def _leader_in_tanks(state: Position, faction: Faction, name: str) -> str:
    game = state.whole
    found = next((n for n in game.held(game.leaders_tanks, faction) if same_card(n, name)), None)
    if found is None:
        raise IllegalActionError(
            f"{quote(name)} is not a leader of {faction.label} in the tanks",
            rule=LEADER_REVIVAL_RULE,
        )
    return found


def _revivable_leader(state: Position, faction: Faction, name: str) -> str:
    game = state.whole
    found = _leader_in_tanks(state, faction, name)
    all_died = all(game.leader_deaths.get(n, 0) for n in leaders(faction))
    if game.held(game.leaders, faction) and not all_died:
        raise IllegalActionError(
            f"{faction.label} may revive a leader only when it has none left or every one "
            "of its leaders has died",
            rule=LEADER_REVIVAL_RULE,
        )
    return found


# -- battle -------------------------------------------------------------------------


def _other(state: Position, text: str | None, rule: str) -> Faction | None:
    if text is None or text.strip().lower() == "bank":
        return None
    found = Faction.parse(text)
    if found is None or found not in state.factions:
        raise InvalidActionError(f"{quote(text)} is not a faction in this game", rule=rule)
    return found


def battle(state: Position, action: RecordBattle) -> list[Event]:
    _require(state, action, GamePhase.BATTLE)
    opponent = _other(state, action.opponent, BATTLE_RULE)
    if opponent is None or opponent is action.faction:
        raise InvalidActionError(
            f"a battle is fought against another faction, not {quote(action.opponent)}",
            rule=BATTLE_RULE,
        )
    state.set_game(dialers=(action.faction, opponent))
    return [BattleRecorded(action.faction, opponent)]


def losses(state: Position, action: RecordLosses) -> list[Event]:
    _require(state, action, GamePhase.BATTLE)
    territory = state.territory(action.territory, rule=BATTLE_RULE)
    lost = Stack(action.forces, action.special, action.advisors)
    for n in (lost.forces, lost.special, lost.advisors):
        _check_amount(n, "a loss", BATTLE_RULE)
    there = state.stack(action.faction, territory.name, action.sector)
    if not lost.total or not there.covers(lost):
        raise IllegalActionError(
            f"{action.faction.label} does not have those forces in {territory.name} "
            f"(sector {action.sector})",
            rule=BATTLE_RULE,
        )
    state.to_tanks(action.faction, territory.name, action.sector, lost)
    count_battle_losses(state, action.faction, lost.total)
    return [
        ForcesLost(
            action.faction,
            territory.name,
            action.sector,
            lost.forces,
            lost.special,
            lost.advisors,
            BATTLE_RULE,
        )
    ]


def count_battle_losses(state: Position, faction: Faction, count: int) -> None:
    """The Atreides' forces lost in battle, counted over the game: from 7 the Kwisatz
    Haderach is active for good (2.01.10, advanced)."""
    if faction is not Faction.ATREIDES or count <= 0:
        return
    losses = state.whole.atreides_battle_losses + count
    active = state.whole.kwisatz_haderach_active or (
        state.rules.advanced and losses >= KWISATZ_HADERACH_LOSSES
    )
    state.set_game(atreides_battle_losses=losses, kwisatz_haderach_active=active)


def leader_killed(state: Position, action: RecordLeaderKilled) -> list[Event]:
    _require(state, action, GamePhase.BATTLE)
    game = state.whole
    alive = game.held(game.leaders, action.faction)
    name = next((n for n in alive if same_card(n, action.leader)), None)
    if name is None:
        raise IllegalActionError(
            f"{quote(action.leader)} is not a living leader of {action.faction.label}",
            rule=BATTLE_RULE,
        )
    state.set_game(
        leaders=with_entry(game.leaders, action.faction, tuple(n for n in alive if n != name)),
        leaders_tanks=with_entry(
            game.leaders_tanks,
            action.faction,
            (*game.held(game.leaders_tanks, action.faction), name),
        ),
        leader_deaths={**game.leader_deaths, name: game.leader_deaths.get(name, 0) + 1},
    )
    return [LeaderKilled(action.faction, name, BATTLE_RULE)]


def discard(state: Position, action: RecordDiscard) -> list[Event]:
    _require(state, action, GamePhase.BATTLE)
    card = next(
        (c for c in state.factions[action.faction].cards if same_card(c, action.card)), None
    )
    if card is None:
        raise IllegalActionError(
            f"{action.faction.label} holds no {quote(action.card)}", rule=BATTLE_RULE
        )
    state.discard(action.faction, card)
    return [CardDiscarded(action.faction, card)]


def payment(state: Position, action: RecordPayment) -> list[Event]:
    _require(state, action, GamePhase.BATTLE)
    _check_amount(action.amount, "a payment", BATTLE_RULE)
    to = _other(state, action.to, BATTLE_RULE)
    if to is action.faction or action.amount == 0:
        raise InvalidActionError(
            "a payment goes from one faction to another or the bank", rule=BATTLE_RULE
        )
    if action.amount > state.factions[action.faction].spice:
        raise IllegalActionError(
            f"{action.faction.label} holds only {state.factions[action.faction].spice} spice",
            rule=BATTLE_RULE,
        )
    state.pay(action.faction, action.amount, to)
    return [SpicePaid(action.faction, action.amount, to)]


def income(state: Position, action: RecordIncome) -> list[Event]:
    _require(state, action, GamePhase.BATTLE)
    _check_amount(action.amount, "an income", BATTLE_RULE)
    if action.amount == 0:
        raise InvalidActionError("an income of 0 spice records nothing", rule=BATTLE_RULE)
    paid = state.from_bank(action.faction, action.amount)
    return [SpiceReceived(action.faction, paid, BATTLE_RULE)]


def candidates(state: Position) -> list[Record | PhaseDone]:
    """Some records the moderator could make now (small amounts), and "phase done"."""
    game = state.whole
    battle_runs = game.phase is GamePhase.BATTLE and game.step != "done"
    if not battle_runs and (game.phase not in RECORDED_PHASES or game.step != "recording"):
        return []
    out: list[Record | PhaseDone] = [PhaseDone()]
    for faction in game.order:
        own = state.factions[faction]
        if game.phase is GamePhase.BIDDING:
            out += [RecordCardWon(faction, p) for p in range(min(own.spice, 3) + 1)]
        elif game.phase is GamePhase.REVIVAL:
            out += [RecordRevival(faction, n) for n in range(min(own.tanks, 3) + 1)]
            out += [RecordGhola(faction, min(own.tanks, GHOLA_FORCES))] if own.tanks else []
            out += [
                RecordRevival(faction, 0, leader=n) for n in game.held(game.leaders_tanks, faction)
            ]
        else:
            out += _battle_candidates(state, faction)
    return out


def _battle_candidates(state: Position, faction: Faction) -> list[Record | PhaseDone]:
    game = state.whole
    out: list[Record | PhaseDone] = [
        RecordBattle(faction, f.value) for f in game.order if f is not faction
    ]
    for (f, territory, sector), stack in sorted(state.stacks.items(), key=lambda i: i[0][1]):
        if f is faction:
            out.append(
                RecordLosses(
                    faction, territory, sector, stack.forces, stack.special, stack.advisors
                )
            )
    out += [RecordLeaderKilled(faction, n) for n in game.held(game.leaders, faction)]
    out += [RecordDiscard(faction, c) for c in state.factions[faction].cards]
    if state.factions[faction].spice:
        out.append(RecordPayment(faction, 1))
    out.append(RecordIncome(faction, 1))
    return out
