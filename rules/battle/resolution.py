"""A battle's reveal and resolution (1.07.05-1.07.06), in the rules' order: traitor calls,
the lasgun/shield explosion, weapons against defenses, totals; then losses and payments,
the winner's cards, the Harkonnen's capture (advanced), and the next battle.

Called by :mod:`rules.battle.spec`; the flow between battles is :mod:`rules.battle.flow`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from rules import karama_turn
from rules.battle import flow as battle
from rules.battle.actions import Capture, KeepCards
from rules.battle.events import (
    BattleWon,
    CardsKept,
    KwisatzHaderachKilled,
    LasgunShield,
    LeaderCaptured,
    PlanRevealed,
    PrescienceAnswered,
    TraitorCalled,
    WeaponStruck,
)
from rules.battle.model import BATTLE, FOUGHT, Battle, BattleStep, Plan, set_battle
from rules.battle.plans import abilities_used, fighters, leader_worth, worth
from rules.battle.record import count_battle_losses
from rules.battle.traitors import TRAITORS
from rules.components import card_kind
from rules.errors import IllegalActionError
from rules.events import CardDiscarded, Event, ForcesLost, SpicePaid, SpiceReceived
from rules.factions import Faction, same_card
from rules.game_model import with_entry
from rules.model import Ability, Stack
from rules.position import Position
from rules.variants import EllacaDrug

REVEAL_RULE = "1.07.05"
WEAPON_RULE = "1.07.06.01"
TIE_RULE = "1.07.06.00"
KILLED_RULE = "1.07.06.02"
LOSER_RULE = "1.07.06.04"
WINNER_RULE = "1.07.06.05"
TRAITOR_RULE = "1.07.06.06"
TWO_TRAITORS_RULE = "1.07.06.06.02"
LASGUN_RULE = "3.01.14"
KH_RULE = "2.01.11"
KH_DEATH_RULE = "2.01.13"
CAPTURE_RULE = "2.05.10"
KILL_SPICE = 2
KH_BONUS = 2
LASGUN = "Lasgun"


def _battle(state: Position) -> Battle:
    found = BATTLE.of(state.whole)
    assert found is not None
    return found


# -- Prescience's answer and the reveal ----------------------------------------------


def answer_prescience(state: Position, faction: Faction) -> list[Event]:
    """``faction``'s plan is in: if the Atreides asked it, the element is shown (2.01.08);
    the whole plan (1.14.01) goes to the Atreides' private view only."""
    fight = _battle(state)
    asker = fight.prescience_by
    if fight.prescience is None or asker is None:
        return []
    side = asker if asker in fight.sides else state.ally_of(asker)
    if side not in fight.sides or fight.opponent(side) is not faction:
        return []
    plan = fight.plans[faction]
    ask = fight.prescience
    answers = {
        "leader": plan.leader or "none",
        "weapon": plan.weapon or "none",
        "defense": plan.defense or "none",
        "number": str(plan.number),
        "plan": "",
    }
    return [PrescienceAnswered(faction, ask, answers[ask], "2.01.08")]


def reveal(state: Position) -> list[Event]:
    """Both plans are shown at once (1.07.05); then traitors may be called."""
    fight = _battle(state)
    events: list[Event] = []
    for side in fight.sides:
        events += [
            *_stopped(state, side, fight.opponent(side)),
            _revealed(side, fight.plans[side]),
        ]
    for side in fight.sides:
        plan = fight.plans[side]
        if plan.leader and not plan.cheap_hero:
            battle.fought(state, plan.leader, fight.territory)
        if plan.kwisatz_haderach:
            state.set_game(kwisatz_haderach_territory=fight.territory)
    callers = traitor_callers(state, fight)
    set_battle(state, replace(_battle(state), revealed=True, callers=callers))
    if callers:
        state.set_game(step=BattleStep.TRAITOR_CALLS, waiting=callers)
        return events
    return events + resolve(state)


def _stopped(state: Position, side: Faction, opponent: Faction) -> list[Event]:
    """A Karama waiting for a worth ability of this side stops it now (3.01.11.02)."""
    events: list[Event] = []
    for ability in abilities_used(state, side, opponent):
        if ability.value in state.whole.prevented:
            events += karama_turn.uses(state, ability)[1]
    return events


def _revealed(side: Faction, plan: Plan) -> PlanRevealed:
    return PlanRevealed(
        side, plan.leader, plan.number, plan.spice, plan.weapon, plan.defense, plan.kwisatz_haderach
    )


def traitor_callers(state: Position, fight: Battle) -> tuple[Faction, ...]:
    """Who is asked about a traitor (1.07.06.06): each side whose opponent played a leader
    that can be betrayed (not a Cheap Hero, not with the Kwisatz Haderach, 2.01.12), and
    the Harkonnen beside their ally (2.05.09). Everyone who could hold the card is asked,
    whether or not they hold it, so that the question tells nobody who holds a traitor."""
    found: list[Faction] = []
    for side in fight.sides:
        plan = fight.plans[fight.opponent(side)]
        if plan.leader is None or plan.cheap_hero or plan.kwisatz_haderach:
            continue
        found.append(side)
        ally = state.ally_of(side)
        if ally is Faction.HARKONNEN and ally not in fight.sides:
            found.append(ally)
    return tuple(dict.fromkeys(found))


def holds_traitor(state: Position, fight: Battle, caller: Faction) -> bool:
    """Does ``caller`` hold the traitor card of the leader opposing its side?"""
    game = state.whole
    side = _side_of(state, fight, caller)
    leader = fight.plans[fight.opponent(side)].leader
    return leader is not None and any(
        same_card(t, leader) for t in game.held(TRAITORS.of(game), caller)
    )


def _side_of(state: Position, fight: Battle, caller: Faction) -> Faction:
    if caller in fight.sides:
        return caller
    ally = state.ally_of(caller)
    assert ally is not None
    return ally


def call(state: Position, caller: Faction) -> list[Event]:
    fight = _battle(state)
    side = _side_of(state, fight, caller)
    opponent = fight.opponent(side)
    leader = fight.plans[opponent].leader
    assert leader is not None
    if not holds_traitor(state, fight, caller):
        raise IllegalActionError(
            f"{caller.label} holds no traitor card for {leader}", rule=TRAITOR_RULE
        )
    called = tuple(dict.fromkeys((*fight.called, side)))
    set_battle(state, replace(fight, called=called))
    events: list[Event] = [TraitorCalled(caller, leader, opponent, TRAITOR_RULE)]
    return events + no_call(state, caller)


def no_call(state: Position, faction: Faction) -> list[Event]:
    waiting = tuple(f for f in state.whole.waiting if f is not faction)
    state.set_game(waiting=waiting)
    return [] if waiting else resolve(state)


# -- resolution -----------------------------------------------------------------------


def resolve(state: Position) -> list[Event]:
    fight = _battle(state)
    state.set_game(dialers=fight.sides)
    if len(fight.called) == 2:
        events = _two_traitors(state, fight)
    elif fight.called:
        events = _traitor(state, fight, fight.called[0])
    elif _explodes(fight):
        events = _explosion(state, fight)
    else:
        events = _fight(state, fight)
    return events + _after_resolution(state)


def _explodes(fight: Battle) -> bool:
    cards = [c for p in fight.plans.values() for c in (p.weapon, p.defense) if c]
    lasgun = any(same_card(c, LASGUN) for c in cards)
    shield = any(card_kind(c) == "defense_projectile" for c in cards)
    return lasgun and shield


def _fight(state: Position, fight: Battle) -> list[Event]:
    events: list[Event] = []
    killed: dict[Faction, bool] = {}
    for side in fight.sides:
        struck, dead = _strike(state, fight, fight.opponent(side), side)
        events += struck
        killed[side] = dead
    totals = {side: _total(fight.plans[side], killed[side]) for side in fight.sides}
    aggressor, defender = fight.sides
    won = totals[aggressor] >= totals[defender]  # ties to the aggressor (1.07.06.00)
    winner, loser = (aggressor, defender) if won else (defender, aggressor)
    events.append(
        BattleWon(
            winner,
            loser,
            fight.territory,
            totals[winner],
            totals[loser],
            TIE_RULE if totals[winner] == totals[loser] else "1.07.06",
        )
    )
    earned = 0
    for side in fight.sides:
        plan = fight.plans[side]
        if killed[side] and plan.leader and not plan.cheap_hero:
            earned += leader_worth(plan.leader)
            events += battle.kill_leader(state, side, plan.leader, KILLED_RULE)
    if earned:
        events.append(SpiceReceived(winner, state.from_bank(winner, earned), KILLED_RULE))
    events += _lose_all(state, fight, loser, LOSER_RULE)
    events += _discard(state, loser, fight.plans[loser].cards)
    events += _lose_dial(state, fight, winner)
    events += _pay_dials(state, fight, fight.sides)
    events += _winner_cards(state, fight, winner, fight.plans[winner].cards)
    return events


def _strike(
    state: Position, fight: Battle, attacker: Faction, target: Faction
) -> tuple[list[Event], bool]:
    """``attacker``'s weapon against ``target``'s leader (1.07.06.01): (events, killed)."""
    weapon = fight.plans[attacker].weapon
    plan = fight.plans[target]
    kind = card_kind(weapon) if weapon else None
    if weapon is None or plan.leader is None or kind not in _STOPPED_BY:
        return [], False
    stopper = _STOPPED_BY[kind]
    if weapon == "Ellaca Drug" and state.rules.ellaca_drug is EllacaDrug.SHIELD:  # D17
        stopper = "defense_projectile"
    defense = plan.defense if plan.defense and card_kind(plan.defense) == stopper else None
    killed = defense is None
    event = WeaponStruck(attacker, weapon, plan.leader, killed, defense, WEAPON_RULE)
    return [event], killed


_STOPPED_BY = {
    "weapon_projectile": "defense_projectile",
    "weapon_poison": "defense_poison",
    "weapon_lasgun": "none",  # no defense stops it
}


def _total(plan: Plan, killed: bool) -> float:
    total = float(plan.number)
    if not killed:
        total += leader_worth(plan.leader)
        total += KH_BONUS if plan.kwisatz_haderach else 0
    return int(total) if total.is_integer() else total


def _traitor(state: Position, fight: Battle, side: Faction) -> list[Event]:
    """One traitor (1.07.06.06): the caller's side wins and loses nothing, is paid the
    traitor's strength and pays no dialed spice; the betrayed side loses everything."""
    betrayed = fight.opponent(side)
    traitor = fight.plans[betrayed].leader
    assert traitor is not None
    events: list[Event] = [BattleWon(side, betrayed, fight.territory, 0, 0, TRAITOR_RULE)]
    own = fight.plans[side].leader
    if own and not fight.plans[side].cheap_hero:  # back to the pool, may fight again
        kept = {n: t for n, t in FOUGHT.of(state.whole).items() if n != own}
        state.set_game(parts=FOUGHT.put(state.whole.parts, kept))
    if fight.plans[side].kwisatz_haderach:  # unused (1.07.06.06.00)
        state.set_game(kwisatz_haderach_territory=None)
    events += battle.kill_leader(state, betrayed, traitor, KILLED_RULE)
    events.append(SpiceReceived(side, state.from_bank(side, leader_worth(traitor)), TRAITOR_RULE))
    events += _lose_all(state, fight, betrayed, TRAITOR_RULE)
    events += _discard(state, betrayed, fight.plans[betrayed].cards)
    events += _pay_dials(state, fight, (betrayed,))
    set_battle(state, replace(_battle(state), winner=side, to_keep=fight.plans[side].cards))
    return events


def _two_traitors(state: Position, fight: Battle) -> list[Event]:
    """Both leaders are traitors (1.07.06.06.02): both sides lose forces, cards and
    leaders; nobody is paid."""
    events: list[Event] = []
    for side in fight.sides:
        leader = fight.plans[side].leader
        if leader:
            events += battle.kill_leader(state, side, leader, KILLED_RULE)
    for side in fight.sides:
        events += _lose_all(state, fight, side, TWO_TRAITORS_RULE)
        events += _discard(state, side, fight.plans[side].cards)
    return events + _pay_dials(state, fight, fight.sides)


def _explosion(state: Position, fight: Battle) -> list[Event]:
    """Lasgun and shield (3.01.14): every force in the territory dies, its spice goes to
    the bank, both leaders (and the Kwisatz Haderach) die, all cards played are
    discarded; dialed spice is still paid."""
    spice = 0
    for (territory, sector), amount in list(state.board_spice.items()):
        if territory == fight.territory:
            state.take_spice(territory, sector, amount)
            state.spice_bank += amount
            spice += amount
    events: list[Event] = [LasgunShield(fight.territory, spice, LASGUN_RULE)]
    for (faction, territory, sector), stack in sorted(
        state.stacks_in(fight.territory).items(), key=lambda i: (i[0][0].value, i[0][2] or 0)
    ):
        events += _to_tanks(state, faction, territory, sector, stack, LASGUN_RULE)
    for side in fight.sides:
        plan = fight.plans[side]
        if plan.leader and not plan.cheap_hero:
            events += battle.kill_leader(state, side, plan.leader, KILLED_RULE)
        if plan.kwisatz_haderach:
            state.set_game(kwisatz_haderach_dead=True)
            events.append(KwisatzHaderachKilled(KH_DEATH_RULE))
    for side in fight.sides:
        events += _discard(state, side, fight.plans[side].cards)
    return events + _pay_dials(state, fight, fight.sides)


# -- losses and payments ----------------------------------------------------------------


def _to_tanks(
    state: Position,
    faction: Faction,
    territory: str,
    sector: int | None,
    lost: Stack,
    rule: str,
) -> list[Event]:
    if not lost.total:
        return []
    state.to_tanks(faction, territory, sector, lost)
    count_battle_losses(state, faction, lost.total)
    return [ForcesLost(faction, territory, sector, lost.forces, lost.special, lost.advisors, rule)]


def _lose_all(state: Position, fight: Battle, faction: Faction, rule: str) -> list[Event]:
    """Every fighter of ``faction`` in the battle's sectors to the tanks."""
    events: list[Event] = []
    for sector in fight.sectors:
        stack = state.stack(faction, fight.territory, sector)
        events += _to_tanks(
            state, faction, fight.territory, sector, Stack(stack.forces, stack.special), rule
        )
    return events


def _lose_dial(state: Position, fight: Battle, winner: Faction) -> list[Event]:
    """The winner loses the forces that made up its dial (1.07.06.05)."""
    plan = fight.plans[winner]
    value = worth(state, winner, fight.opponent(winner))
    lost = value.dial_losses(fighters(state, winner, fight), plan.number, plan.spice)
    events: list[Event] = []
    for sector in fight.sectors:
        stack = state.stack(winner, fight.territory, sector)
        here = Stack(min(lost.forces, stack.forces), min(lost.special, stack.special))
        lost = lost - here
        events += _to_tanks(state, winner, fight.territory, sector, here, WINNER_RULE)
    return events


def _pay_dials(state: Position, fight: Battle, payers: tuple[Faction, ...]) -> list[Event]:
    """Dialed spice goes to the bank whatever the result (1.13.04.04); under D13 "yes"
    the ally pays what the side could not."""
    events: list[Event] = []
    for side in payers:
        plan = fight.plans[side]
        own = plan.spice - plan.ally_spice
        parts = [(side, own)]
        ally = state.ally_of(side)
        if plan.ally_spice and ally is not None:
            parts.append((ally, plan.ally_spice))
        for payer, amount in parts:
            amount = min(amount, state.factions[payer].spice)
            if amount > 0:
                state.pay(payer, amount, None)
                events.append(SpicePaid(payer, amount, None))
    return events


def _discard(state: Position, faction: Faction, cards: tuple[str, ...]) -> list[Event]:
    events: list[Event] = []
    for card in cards:
        if card in state.factions[faction].cards:
            state.discard(faction, card)
            events.append(CardDiscarded(faction, card))
    return events


def _winner_cards(
    state: Position, fight: Battle, winner: Faction, cards: tuple[str, ...]
) -> list[Event]:
    """Cheap Heroes and worthless cards are discarded; the rest the winner may keep."""
    gone = tuple(c for c in cards if card_kind(c) in ("special", "worthless"))
    events = _discard(state, winner, gone)
    keep = list(cards)
    for card in gone:
        keep.remove(card)
    set_battle(state, replace(_battle(state), winner=winner, to_keep=tuple(keep)))
    return events


# -- leaders -------------------------------------------------------------------------


# -- after the resolution: cards kept, capture, next battle --------------------------------


def _after_resolution(state: Position) -> list[Event]:
    fight = _battle(state)
    if fight.winner is not None and fight.to_keep:
        state.set_game(step=BattleStep.KEEP, waiting=(fight.winner,))
        return []
    return _open_capture(state)


def keep_cards(state: Position, action: KeepCards) -> list[Event]:
    """The winner keeps the cards it names of those it played; the rest are discarded."""
    fight = _battle(state)
    left = Counter(fight.to_keep)
    kept = []
    for name in action.cards:
        card = next((c for c in left if left[c] and same_card(c, name)), None)
        if card is None:
            raise IllegalActionError(
                f"{action.faction.label} may keep only cards it played in this battle: "
                f"{', '.join(fight.to_keep)}",
                rule=WINNER_RULE,
            )
        left[card] -= 1
        kept.append(card)
    events: list[Event] = [CardsKept(action.faction, tuple(kept))] if kept else []
    events += _discard(state, action.faction, tuple(left.elements()))
    set_battle(state, replace(fight, to_keep=()))
    return events + _open_capture(state)


def capturable(state: Position, fight: Battle) -> list[str]:
    """The loser's leaders the Harkonnen may draw: in its pool, not fought elsewhere this
    phase (2.05.10)."""
    game = state.whole
    if fight.winner is None:
        return []
    loser = fight.opponent(fight.winner)
    return [
        n
        for n in game.held(game.leaders, loser)
        if FOUGHT.of(game).get(n, fight.territory) == fight.territory
    ]


def _open_capture(state: Position) -> list[Event]:
    fight = _battle(state)
    hark = Faction.HARKONNEN
    candidates = capturable(state, fight)
    if not (state.rules.advanced and fight.winner is hark and candidates):
        return after_capture(state)
    works, stopped = karama_turn.uses(state, Ability.CAPTURE)
    if not works:
        return stopped + after_capture(state)
    drawn, chance = state.whole.chance.pick(sorted(candidates))
    state.set_game(
        chance=chance,
        parts=BATTLE.put(state.whole.parts, replace(fight, captive=drawn)),
        step=BattleStep.CAPTURE,
        waiting=(hark,),
    )
    return []


def capture(state: Position, action: Capture) -> list[Event]:
    """The Harkonnen take the drawn leader into their pool, or kill it for 2 spice."""
    fight = _battle(state)
    drawn = fight.captive
    assert drawn is not None and fight.winner is not None
    if not same_card(action.leader, drawn):
        raise IllegalActionError(
            f"the Harkonnen drew {drawn} at random: capture or kill that leader, or pass",
            rule=CAPTURE_RULE,
        )
    victim = fight.opponent(fight.winner)
    hark = Faction.HARKONNEN
    events: list[Event] = [LeaderCaptured(hark, victim, action.kill, CAPTURE_RULE)]
    if action.kill:  # face down: no leader_killed event names it (2.05.10)
        battle.leader_to_tanks(state, victim, victim, drawn)
        events.append(SpiceReceived(hark, state.from_bank(hark, KILL_SPICE), CAPTURE_RULE))
    else:
        battle.drop_leader(state, victim, drawn)
        game = state.whole
        state.set_game(
            leaders=with_entry(game.leaders, hark, (*game.held(game.leaders, hark), drawn)),
            captives={**game.captives, drawn: victim},
            parts=FOUGHT.put(game.parts, {n: t for n, t in FOUGHT.of(game).items() if n != drawn}),
        )
    return events + after_capture(state)


def after_capture(state: Position) -> list[Event]:
    return battle.next_battle(state)
