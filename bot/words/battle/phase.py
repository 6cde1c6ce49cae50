"""Words for the Battle phase (1.07): its events' public sentences, what each step waits
for, its choices, answers and passes, and the Atreides' private look at a whole plan.

Every battle event is public: a plan is "in" until both are revealed, a captured leader is
never named (only the Harkonnen and the victim see which, in their private views).
:data:`WORDS` registers them for the generic words (:mod:`bot.words.phase_words`):
:func:`describe_battle_event` is part of :func:`bot.words.turn.describe_turn_event`.
"""

from __future__ import annotations

from bot.publisher import Answer
from bot.words.answers import presents
from bot.words.battle.summary import SUMMARY
from bot.words.common import and_list, possessive
from bot.words.phase_words import DIAL_ROW, PhaseWords, ShieldRow, register
from rules.actions import Action, FactionAction
from rules.battle.actions import (
    BattlePlan,
    CallTraitor,
    Capture,
    KeepCards,
    Prescience,
    StartBattle,
    Voice,
)
from rules.battle.events import (
    BattlePlanIn,
    BattleRecorded,
    BattlesOver,
    BattleStarted,
    BattleWon,
    CaptivesReleased,
    CardsKept,
    KwisatzHaderachKilled,
    LasgunShield,
    LeaderCaptured,
    PlanRevealed,
    PrescienceAnswered,
    PrescienceAsked,
    TraitorCalled,
    VoiceUsed,
    WeaponStruck,
)
from rules.battle.model import BATTLE, BattleStep, Plan
from rules.battle.plans import options_now
from rules.battle.view import battle_of, battle_secrets
from rules.events import Event, KaramaPower
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from rules.view import PrivateView

ASKED = {
    "leader": "the leader",
    "weapon": "the weapon",
    "defense": "the defense",
    "number": "the number dialed",
    "plan": "the whole plan (Karama)",
}


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _plan(event: PlanRevealed) -> str:
    leader = event.leader or "no leader"
    parts = [leader + (" with the Kwisatz Haderach" if event.kwisatz_haderach else "")]
    parts.append(f"dials {_number(event.number)}")
    if event.spice:
        parts.append(f"pays {event.spice} spice")
    cards = [c for c in (event.weapon, event.defense) if c]
    parts.append(f"plays {and_list(cards)}" if cards else "plays no card")
    return f"{possessive(event.faction)} plan: {', '.join(parts)}."


def describe_battle_event(event: Event) -> str | None:
    """The public sentence of a Battle phase event; None for any other kind."""
    match event:
        case BattleRecorded(faction=faction, opponent=opponent):  # a battle the moderators record
            return f"Battle: {faction.label} against {opponent.label}."
        case BattleStarted(aggressor=aggressor, opponent=opponent, territory=t, sector=s):
            where = t if s is None else f"{t} (the part of sector {s})"
            return f"Battle in {where}: {aggressor.label} attacks {opponent.label}."
        case VoiceUsed(faction=faction, target=target, command=command, card_kind=kind):
            verb = "to play" if command == "play" else "not to play"
            return f"{faction.label} uses the Voice: {target.label} must choose {verb} {kind}."
        case KaramaPower(faction=faction, card=card, power="plan"):
            return (
                f"{faction.label} plays {card} to see their opponent's whole battle plan "
                "(once a game)."
            )
        case PrescienceAsked(faction=faction, target=target, ask=ask):
            return f"{faction.label} uses Prescience: {target.label} must show {ASKED[ask]}."
        case PrescienceAnswered(faction=faction, ask="plan"):
            return f"{faction.label} shows their whole plan to the Atreides alone."
        case PrescienceAnswered(faction=faction, ask=ask, answer=answer):
            return f"Prescience: {faction.label} shows {ASKED.get(ask, ask)}: {answer}."
        case BattlePlanIn(faction=faction):
            return f"{possessive(faction)} battle plan is in (secret until both are)."
        case PlanRevealed() as plan:
            return _plan(plan)
        case TraitorCalled(faction=faction, leader=leader, against=against):
            return f"Traitor! {faction.label} reveals {leader} as a traitor to {against.label}."
        case LasgunShield(territory=territory, spice_lost=spice):
            lost = f"; {spice} spice there is lost" if spice else ""
            return f"Lasgun and shield explode in {territory}: everything there dies{lost}."
        case WeaponStruck(card=card, target=target, killed=True):
            return f"{card} kills {target}."
        case WeaponStruck(card=card, target=target, defense=defense):
            return f"{card} is stopped by {defense}: {target} survives."
        case BattleWon(winner=winner, loser=loser, rule="1.07.06.06"):
            return f"{winner.label} wins the battle by treachery; {loser.label} loses."
        case BattleWon(winner=winner, loser=loser, winner_total=won, loser_total=lost) as e:
            tie = " (a tie goes to the aggressor)" if e.rule == "1.07.06.00" else ""
            return (
                f"{winner.label} wins {_number(won)} to {_number(lost)} against {loser.label}{tie}."
            )
        case CardsKept(faction=faction, cards=cards):
            return f"{faction.label} keeps {and_list(list(cards))}."
        case KwisatzHaderachKilled():
            return "The Kwisatz Haderach dies in the explosion."
        case LeaderCaptured(faction=faction, victim=victim, kill=True):
            leaders = f"{possessive(victim)} leaders"
            return f"{faction.label} kills one of {leaders}, face down, for 2 spice."
        case LeaderCaptured(faction=faction, victim=victim):
            return f"{faction.label} captures one of {possessive(victim)} leaders."
        case CaptivesReleased(leaders=names):
            return f"Captured leaders go home: {and_list(list(names))}."
        case BattlesOver():
            return "No battle is left: the surviving leaders return to their owners."
    return None


# -- the whole plan the Atreides' Karama shows them (1.14.01), for their eyes only ------------

KARAMA_PLAN_RULE = "1.14.01"


def plan_words(plan: Plan) -> str:
    """A plan in words: "Feyd Rautha, dial 5, paying 2 spice, playing Chaumas and Shield"."""
    cards = [c for c in (plan.weapon, plan.defense) if c]
    leader = plan.leader or "no leader"
    leader += " with the Kwisatz Haderach" if plan.kwisatz_haderach else ""
    spice = f", paying {plan.spice} spice" if plan.spice else ""
    played = f", playing {and_list(cards)}" if cards else ", no card"
    return f"{leader}, dial {_number(plan.number)}{spice}{played}"


def foreseen_line(view: PrivateView) -> str | None:
    """What the Atreides' Karama bought them (the opponent's whole plan), from their own
    private view: the plan once it is in, else that it is awaited; None for anyone else,
    once the plans are revealed, or when no battle is under way with that power played."""
    fight = battle_of(view.public.game)
    if fight is None or fight.prescience != "plan" or fight.revealed:
        return None  # once revealed, both plans are everyone's (1.07.05)
    if view.faction is not Faction.ATREIDES or view.faction not in (
        fight.aggressor,
        fight.defender,
    ):
        return None  # the power is the Atreides', in their own battle
    opponent = fight.defender if view.faction is fight.aggressor else fight.aggressor
    plan = battle_secrets(view.secrets).foreseen_plan
    if plan is not None:
        return (
            f"Your Karama shows you {possessive(opponent)} whole battle plan: "
            f"{plan_words(Plan.from_dict(plan))} (only you see it, rule {KARAMA_PLAN_RULE})."
        )
    if opponent in fight.plans_in:
        return None
    return (
        f"Your Karama shows you {possessive(opponent)} whole battle plan as soon as it is in: "
        "it is not in yet. It will be shown in your channel, in `/status` and in "
        f"`/battle-plan`; a plan you lock before it is final (rule {KARAMA_PLAN_RULE})."
    )


def foreseen_lines(events: list[Event], view: PrivateView) -> list[str]:
    """The Atreides' own side of an opponent's plan coming in after their Karama."""
    came = any(isinstance(e, PrescienceAnswered) and e.ask == "plan" for e in events)
    line = foreseen_line(view) if came else None
    return [line] if line is not None and battle_secrets(view.secrets).foreseen_plan else []


# -- a choice of the Battle phase in words (bot.words.choices, bot.session.passes) ------------

STEPS: dict[str, str] = {
    BattleStep.CHOOSE: "the aggressor names the next battle",
    BattleStep.VOICE: "whether the Bene Gesserit use the Voice",
    BattleStep.PRESCIENCE: "whether the Atreides use Prescience",
    BattleStep.VOICE_PRESCIENCE: "the Voice and Prescience",
    BattleStep.PLANS: "the battle plans, secret until both are in",
    BattleStep.TRAITOR_CALLS: "whether to call a traitor",
    BattleStep.KEEP: "which played cards the winner keeps",
    BattleStep.CAPTURE: "whether the Harkonnen capture or kill a leader",
}


def battle_answer(action: Action) -> str | None:
    """A battle answer in the words of the faction that gave it ("you call a traitor")."""
    match action:
        case StartBattle(territory=territory, opponent=opponent):
            other = Faction.parse(opponent)
            return f"you attack {other.label if other else opponent} in {territory}"
        case BattlePlan(leader=leader, number=number) as plan:
            cards = [c for c in (plan.weapon, plan.defense) if c]
            played = f", playing {and_list(cards)}" if cards else ", no card"
            spice = f", paying {plan.spice} spice" if plan.spice else ""
            return f"your plan: {leader or 'no leader'}, dial {_number(number)}{spice}{played}"
        case Voice(command=command, kind=kind):
            verb = "to play" if command == "play" else "not to play"
            return f"you use the Voice: {verb} {kind}"
        case Prescience(ask=ask):
            return f"you use Prescience: {ASKED.get(ask, ask)}"
        case CallTraitor():
            return "you call a traitor"
        case KeepCards(cards=cards):
            return f"you keep {and_list(list(cards))}" if cards else "you discard every card played"
        case Capture(leader=leader, kill=kill):
            return f"you {'kill' if kill else 'capture'} {leader}"
    return None


TRAITOR_QUESTION = (
    "call a traitor if you hold the traitor card of the leader opposing you (the button or "
    "`/traitor call`)"
)
"""Asked in the same words of every side that could call, holder or not (1.07.06.06)."""


@presents(CallTraitor)
def traitor_button(state: GameState, action: FactionAction) -> Answer:
    return traitor_call(action)


def traitor_call(action: FactionAction) -> Answer:
    return Answer(action, "Call a traitor", "Traitor called")


def asked_alike(
    state: GameState, faction: Faction, answers: tuple[Answer, ...]
) -> tuple[Answer, ...]:
    """Both sides asked the traitor question get the same buttons, holder or not (who
    holds a traitor is secret, 1.07.06.06): a side's own traitor call is its button even
    where the engine would refuse it (the click then says why, privately)."""
    game = state.whole
    asked = game.step == BattleStep.TRAITOR_CALLS and faction in game.waiting
    call = traitor_call(CallTraitor(faction))
    if not asked or any(a.key == call.key for a in answers):
        return answers
    return (call, *answers)


def battle_options(state: GameState, faction: Faction) -> list[str]:
    """What ``faction`` may answer in the Battle phase now, in words."""
    legal = list(state.legal_actions(faction))
    kinds = {a.name for a in legal}
    out: list[str] = []
    battles = [a for a in legal if isinstance(a, StartBattle)]
    if battles:
        where = and_list([f"{a.territory} against {_label(a.opponent)}" for a in battles])
        out.append(f"name your next battle with `/battle`: {where}")
    if "voice" in kinds:
        out.append("use the Voice on your opponent with `/voice`")
    if "prescience" in kinds:
        out.append(
            "use Prescience with `/prescience`: see your opponent's leader, weapon, defense "
            "or number"
        )
    options = options_now(state, faction)
    if options is not None:
        leaders = and_list([*options.leaders, *options.cheap_heroes]) or "no leader"
        out.append(
            f"build your secret battle plan with `/battle-plan` in {options.territory}: "
            f"{leaders}, a number up "
            f"to {_number(options.max_number)}"
            + (f", up to {options.max_spice} spice" if options.max_spice else "")
            + (", the Kwisatz Haderach beside your leader" if options.kwisatz_haderach else "")
        )
    if state.whole.step == BattleStep.TRAITOR_CALLS and faction in state.whole.waiting:
        out.append(TRAITOR_QUESTION)
    if "keep_cards" in kinds:
        out.append("keep or discard the cards you played with `/keep-cards`")
    if "capture" in kinds:
        out.append("capture or kill the leader you drew with `/capture`")
    return out


def _label(name: str) -> str:
    found = Faction.parse(name)
    return found.label if found else name


STEP_PASSES: dict[str, str] = {
    BattleStep.KEEP: "pass (keep every card you played)",
    **dict.fromkeys(
        (
            BattleStep.VOICE,
            BattleStep.PRESCIENCE,
            BattleStep.VOICE_PRESCIENCE,
            BattleStep.TRAITOR_CALLS,
            BattleStep.CAPTURE,
        ),
        "pass (not now)",
    ),
}
"""What a prompt's pass declines, step by step."""

DECLINED: dict[str, tuple[str, str, str | None]] = {
    BattleStep.VOICE: ("you do not use the Voice", "the Voice", "2.02.06"),
    BattleStep.PRESCIENCE: ("you do not use Prescience", "Prescience", "2.01.08"),
    BattleStep.TRAITOR_CALLS: ("you call no traitor", "the traitor call", "1.07.06.06"),
    BattleStep.KEEP: ("you keep every card you played", "the cards you played", "1.07.06.05"),
    BattleStep.CAPTURE: ("you neither capture nor kill a leader", "the capture", "2.05.10"),
}
"""Each step's pass: the reply to it ("you do not use the Voice"), what it passed on and
the rule of that choice."""


def declined(state: GameState, faction: Faction) -> tuple[str, str, str | None] | None:
    """What a pass of ``faction`` declines now (None: no such choice of the phase); the
    Voice and Prescience asked at once are split by who passes."""
    game = state.whole
    step = game.step
    if step == BattleStep.VOICE_PRESCIENCE:
        fight = BATTLE.of(game)
        voiced = fight is not None and "voice" in fight.asked
        bene_gesserit = faction is Faction.BENE_GESSERIT and not voiced
        step = BattleStep.VOICE if bene_gesserit else BattleStep.PRESCIENCE
    return DECLINED.get(step)


def _atreides(event: Event) -> tuple[Faction, ...]:
    """The Atreides see the whole plan their Karama asked for (1.14.01)."""
    return (Faction.ATREIDES,) if isinstance(event, PrescienceAnswered) else ()


def shield(view: PrivateView) -> list[ShieldRow]:
    """A faction's battle plan behind its shield, before the reveal."""
    plan = battle_secrets(view.secrets).battle_plan
    return [] if plan is None else [(DIAL_ROW + 5, "Battle plan", plan_words(Plan.from_dict(plan)))]


WORDS = register(
    PhaseWords(
        GamePhase.BATTLE,
        name="Battle",
        describe=describe_battle_event,
        own_lines=foreseen_lines,
        own_side=(PrescienceAnswered,),
        seen_by=_atreides,
        answer=battle_answer,
        options=battle_options,
        answers=asked_alike,
        status=foreseen_line,
        shield=shield,
        summary=SUMMARY,
        steps=STEPS,
        step_passes=STEP_PASSES,
        declines=declined,
        passes={
            "voice": "does not use the Voice",
            "prescience": "does not use Prescience",
            "traitor_calls": "calls no traitor",
            "capture": "neither captures nor kills a leader",
            "": "passes",
        },
    )
)
"""The Battle phase's words, for the generic words."""
