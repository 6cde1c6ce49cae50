"""The Battle phase's actions (1.07) as the phase machine dispatches them, and the choices
a faction has now (:func:`candidates`, for ``legal_actions`` and the defaults).

The flow is :mod:`rules.battle.flow`, the plans :mod:`rules.battle.plans`, the reveal and the
resolution :mod:`rules.battle.resolution`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from itertools import combinations

from rules.actions import (
    Action,
    FactionAction,
    Pass,
    RecordDiscard,
    RecordIncome,
    RecordLeaderKilled,
    RecordLosses,
    RecordPayment,
)
from rules.battle import flow as battle
from rules.battle import record, traitors
from rules.battle import resolution as battle_resolution
from rules.battle import view as battle_view
from rules.battle.actions import (
    BattlePlan,
    CallTraitor,
    Capture,
    KeepCards,
    Prescience,
    RecordBattle,
    StartBattle,
    Voice,
)
from rules.battle.events import BattlePlanIn
from rules.battle.model import BATTLE, BattleStep
from rules.battle.plans import VOICE_KINDS, PlanOptions, check_plan, plan_options, voice_cards
from rules.components import leader_strength
from rules.errors import NotYourTurnError
from rules.events import Event, Passed
from rules.factions import Faction
from rules.game_model import GamePhase, TurnState
from rules.phase_spec import PhaseSpec, PhaseWaits, handlers, on
from rules.position import Position

PLAN_RULE = "1.07.04"


def battle_plan(state: Position, action: BattlePlan) -> list[Event]:
    """A side's secret plan; when both are in, the reveal and the resolution follow."""
    game = state.whole
    faction = action.faction
    fight = BATTLE.of(game)
    if game.phase is not GamePhase.BATTLE or fight is None or faction not in fight.sides:
        raise NotYourTurnError(f"{faction.label} fights no battle now", rule=PLAN_RULE)
    if game.step in battle.BEFORE_PLANS:
        who = " and ".join(f.label for f in game.waiting)
        raise NotYourTurnError(
            f"plans come after the Voice and Prescience: waiting for {who}", rule=PLAN_RULE
        )
    if game.step != BattleStep.PLANS or faction not in game.waiting:
        raise NotYourTurnError(f"{faction.label}'s battle plan is already in", rule=PLAN_RULE)
    plan = check_plan(state, action)
    fight = replace(fight, plans={**fight.plans, faction: plan})
    state.set_game(parts=BATTLE.put(game.parts, fight), waiting=battle.missing_plans(fight))
    events: list[Event] = [BattlePlanIn(faction)]
    events += battle_resolution.answer_prescience(state, faction)
    if state.whole.waiting:
        return events
    return events + battle_resolution.reveal(state)


def pass_(state: Position, action: Pass) -> list[Event]:
    """Decline a choice: the Voice, Prescience, a traitor call, keeping cards (the winner
    then keeps them all) or a capture. A battle and a plan cannot be declined."""
    game = state.whole
    faction = action.faction
    step = game.step
    fight = BATTLE.of(game)
    if (
        fight is None
        or faction not in game.waiting
        or step in (BattleStep.CHOOSE, BattleStep.PLANS)
    ):
        what = "name its battle" if step == BattleStep.CHOOSE else "submit its plan"
        raise NotYourTurnError(
            f"{faction.label} has nothing to decline now"
            + (f": it must {what}" if faction in game.waiting else ""),
            rule=battle.DETERMINATION_RULE if step == BattleStep.CHOOSE else PLAN_RULE,
        )
    if step == BattleStep.KEEP:
        return battle_resolution.keep_cards(state, KeepCards(faction, fight.to_keep))
    if step in battle.BEFORE_PLANS:
        voiced = faction is Faction.BENE_GESSERIT and "voice" not in fight.asked
        ability = "voice" if voiced else "prescience"
        return [_passed(faction, ability), *battle.settled(state, faction, ability)]
    if step == BattleStep.TRAITOR_CALLS:
        return [_passed(faction, str(step)), *battle_resolution.no_call(state, faction)]
    return [_passed(faction, str(step)), *battle_resolution.after_capture(state)]


def _passed(faction: Faction, choice: str) -> Passed:
    return Passed(faction, GamePhase.BATTLE.value, choice)


def call_traitor(state: Position, action: CallTraitor) -> list[Event]:
    battle.current(
        state, action, frozenset({BattleStep.TRAITOR_CALLS}), battle_resolution.TRAITOR_RULE
    )
    return battle_resolution.call(state, action.faction)


def keep_cards(state: Position, action: KeepCards) -> list[Event]:
    battle.current(state, action, frozenset({BattleStep.KEEP}), battle_resolution.WINNER_RULE)
    return battle_resolution.keep_cards(state, action)


def capture(state: Position, action: Capture) -> list[Event]:
    battle.current(state, action, frozenset({BattleStep.CAPTURE}), battle_resolution.CAPTURE_RULE)
    return battle_resolution.capture(state, action)


# -- the choices a faction has now -----------------------------------------------------


def candidates(state: Position, faction: Faction) -> list[FactionAction]:
    """``faction``'s choices now (some of them where there are many: plans), each to be
    tested with ``is_legal``; [] when nothing is awaited of it."""
    game = state.whole
    if faction not in game.waiting:
        return []
    step = game.step
    if step == BattleStep.CHOOSE:
        return [
            StartBattle(
                faction, site.territory, other.value, site.sectors[0] if site.split else None
            )
            for site, other in battle.fights(state, faction)
        ]
    fight = BATTLE.of(game)
    if fight is None:
        return []
    found: list[FactionAction] = []
    if step in battle.BEFORE_PLANS and faction is Faction.BENE_GESSERIT:
        kinds = [*VOICE_KINDS, "Cheap Hero", "Lasgun"]
        found += [Voice(faction, c, k) for c in battle.COMMANDS for k in kinds]
    if step in battle.BEFORE_PLANS and faction is Faction.ATREIDES:
        found += [Prescience(faction, a) for a in (*battle.ASKS, "plan")]
    if step == BattleStep.PLANS:
        options = plan_options(state, faction)
        found += plans(faction, options) if options else []
    if step == BattleStep.TRAITOR_CALLS and battle_resolution.holds_traitor(state, fight, faction):
        found.append(CallTraitor(faction))
    if step == BattleStep.KEEP:
        cards = fight.to_keep
        found += [
            KeepCards(faction, c) for n in range(len(cards) + 1) for c in combinations(cards, n)
        ]
    if step == BattleStep.CAPTURE and fight.captive:
        found += [Capture(faction, fight.captive, kill) for kill in (False, True)]
    if step != BattleStep.PLANS:
        found.append(Pass(faction))
    return found


def plans(faction: Faction, options: PlanOptions) -> list[FactionAction]:
    """A spread of plans: each leader (weakest first), dials 0, half and most, with no
    card, each card alone, and a weapon with a defense."""
    leaders: list[str | None] = [*options.leaders, *options.cheap_heroes]
    if not options.must_lead:
        leaders.append(None)
    spice = options.max_spice
    dials = sorted({0, int(options.max_number // 2), int(options.max_number)})
    found: list[FactionAction] = []
    for leader in leaders:
        cards: list[tuple[str | None, str | None]] = [(None, None)]
        if leader is not None:
            cards += [(w, None) for w in options.weapons]
            cards += [(None, d) for d in options.defenses]
            cards += [(w, d) for w in options.weapons[:1] for d in options.defenses[:1] if w != d]
        for number in dials:
            paid = spice if number else 0
            for weapon, defense in cards:
                found.append(
                    BattlePlan(
                        faction,
                        options.territory,
                        leader,
                        number,
                        weapon,
                        defense,
                        paid,
                        options.kwisatz_haderach and leader is not None and number > 0,
                    )
                )
    return found


# -- the default on a deadline and the phase's spec ----------------------------------


def default(
    state: Position,
    faction: Faction,
    legal: Sequence[FactionAction],
    is_legal: Callable[[Action], bool],
) -> FactionAction | None:
    """The weakest free leader (else a Cheap Hero, else none), number 0, no spice, no
    card; a card (or the Cheap Hero) only where the Voice commands it and it can obey.
    The aggressor's battle: the first offered (board order); other choices: pass (no
    Voice, no Prescience, no traitor called, every card kept, no capture)."""
    plans = [a for a in legal if isinstance(a, BattlePlan)]
    options = plan_options(state, faction)
    if not plans or options is None:
        return None
    leader = next(iter(options.leaders), next(iter(options.cheap_heroes), None))
    weapon = defense = None
    if options.voice is not None and options.voice[0] == "play" and leader is not None:
        if options.voice[1] == "Cheap Hero" and options.cheap_heroes:
            leader = options.cheap_heroes[0]
        weapon, defense = voice_cards(options)
    wanted = BattlePlan(faction, options.territory, leader, 0, weapon, defense)
    if is_legal(wanted):
        return wanted
    return min(plans, key=lambda a: (_strength(a.leader), a.number, len(_cards(a))))


def _cards(plan: BattlePlan) -> list[str]:
    return [c for c in (plan.weapon, plan.defense) if c]


def _strength(leader: str | None) -> int:
    return leader_strength(leader) if leader else 0


def battle_part(game: TurnState) -> str:
    """Each battle of the phase is its own wait (its own deadline): its territory, part
    and sides name it."""
    fight = BATTLE.of(game)
    if fight is None:
        return ""
    return f":{fight.territory}/{fight.sectors}/{fight.aggressor.value}/{fight.defender.value}"


SPEC = PhaseSpec(
    phase=GamePhase.BATTLE,
    rule=battle.BATTLE_RULE,
    steps=BattleStep,
    begin=battle.begin,
    handlers=handlers(
        on(StartBattle, battle.start_battle),
        on(Voice, battle.voice),
        on(Prescience, battle.prescience),
        on(BattlePlan, battle_plan),
        on(CallTraitor, call_traitor),
        on(KeepCards, keep_cards),
        on(Capture, capture),
        # the moderator's corrections (they leave the battle where it stands)
        on(RecordBattle, record.battle),
        on(RecordLosses, record.losses),
        on(RecordLeaderKilled, record.leader_killed),
        on(RecordDiscard, record.discard),
        on(RecordPayment, record.payment),
        on(RecordIncome, record.income),
    ),
    pass_=pass_,
    phase_done=record.end_battles,  # the battle under way dropped
    records=record.candidates,
    views=(battle_view.VIEW, battle_view.TRAITORS_VIEW),
    setup=(traitors.CHOICE,),
    scenario_keys=(traitors.SCENARIO_KEY,),
    offered=candidates,
    default=default,
    waits=PhaseWaits(step_part=battle_part),
    # a pass uses no Voice nor Prescience, calls no traitor, keeps the cards, captures none
    declinable=frozenset(
        {*battle.BEFORE_PLANS, BattleStep.TRAITOR_CALLS, BattleStep.KEEP, BattleStep.CAPTURE}
    ),
)
