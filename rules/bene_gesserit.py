"""Bene Gesserit: Spiritual Advisors and, in the advanced game, advisors (2.02.05-2.02.22).

Advisors coexist with everyone: they never count for the occupancy limit,
ornithopters or the alliance constraint. In one territory the Bene Gesserit
have only one kind of token (ADAPTIVE FORCE), so a flip turns every Bene
Gesserit token of a territory.
"""

from __future__ import annotations

from rules import turn_flow
from rules.actions import Advise, Flip, Move, action_to_dict
from rules.board import POLAR_SINK, Territory
from rules.errors import IllegalActionError
from rules.events import Event, Flipped, SpiritualAdvisor
from rules.factions import KARAMA, Faction, same_card
from rules.model import Ability, BlockedAbility, Prompt, PromptKind, Side, Stack
from rules.position import Position

BG = Faction.BENE_GESSERIT
SPIRITUAL_ADVISORS_RULE = "2.02.05"
ADVISORS_RULE = "2.02.11"
ENLISTMENT_RULE = "2.02.15"
INTRUSION_RULE = "2.02.16"
TAKE_UP_ARMS_RULE = "2.02.17"
WARTIME_RULE = "2.02.18"
PEACETIME_RULE = "2.02.19"
STORMED_IN_RULE = "2.02.20"
ADAPTIVE_RULE = "2.02.21"
STEWARDS_RULE = "2.02.22"


# -- prompts ---------------------------------------------------------------------


def advise_stage(
    state: Position, shipper: Faction, territory: str, sector: int | None
) -> tuple[Prompt, ...]:
    """SPIRITUAL ADVISORS: after another faction's shipment from off-planet."""
    if not state.bg_in_game or shipper is BG or not state.factions[BG].reserves:
        return ()
    return (Prompt(PromptKind.ADVISE, (BG,), subject=shipper, territory=territory, sector=sector),)


def intrusion_stage(state: Position, mover: Faction, territory: str) -> tuple[Prompt, ...]:
    """INTRUSION: a non-allied force entered a territory where the BG have fighters."""
    if not state.rules.advanced or not state.bg_in_game or mover is BG:
        return ()
    if state.ally_of(BG) == mover or not state.forces_in(BG, territory).fighters:
        return ()
    return (Prompt(PromptKind.INTRUSION, (BG,), subject=mover, territory=territory),)


def wartime_stage(state: Position) -> tuple[Prompt, ...]:
    """WARTIME: before the phase, the BG may flip advisors to fighters."""
    if not state.rules.advanced or not state.bg_in_game:
        return ()
    if not any(f is BG and s.advisors for (f, _, _), s in state.stacks.items()):
        return ()
    return (Prompt(PromptKind.WARTIME, (BG,)),)


# -- answers ------------------------------------------------------------------------


def advise(state: Position, action: Advise) -> list[Event]:
    if action.faction is not BG:
        raise IllegalActionError(
            "only the Bene Gesserit send spiritual advisors", rule=SPIRITUAL_ADVISORS_RULE
        )
    prompt = turn_flow.find_open_prompt(
        state, BG, frozenset({PromptKind.ADVISE}), rule=SPIRITUAL_ADVISORS_RULE
    )
    assert prompt.territory is not None
    target = state.territory(action.to, rule=SPIRITUAL_ADVISORS_RULE)
    if not state.factions[BG].reserves:
        raise IllegalActionError(
            "the Bene Gesserit have no forces in reserve", rule=SPIRITUAL_ADVISORS_RULE
        )
    turn_flow.remove_prompt(state, prompt)
    before = state.snapshot()
    if target.name == POLAR_SINK:
        sector, stack, kind = None, Stack(forces=1), "fighter"
    else:
        _check_advisor_target(state, target, prompt)
        sector, stack, kind = prompt.sector, Stack(advisors=1), "advisor"
    state.from_reserves(BG, stack)
    state.add(BG, target.name, sector, stack)
    state.push_stages(
        state.karama_stage([(BG, Ability.SPIRITUAL_ADVISORS)], before, action_to_dict(action))
    )
    return [
        SpiritualAdvisor(
            faction=BG,
            to=target.name,
            sector=sector,
            token=kind,
            rule=SPIRITUAL_ADVISORS_RULE if kind == "fighter" else ADVISORS_RULE,
        )
    ]


def _check_advisor_target(state: Position, target: Territory, prompt: Prompt) -> None:
    if not state.rules.advanced:
        raise IllegalActionError(
            "in the basic game the spiritual advisor goes to the Polar Sink",
            rule=SPIRITUAL_ADVISORS_RULE,
        )
    if target.name != prompt.territory:
        raise IllegalActionError(
            f"the advisor goes to the Polar Sink or to {prompt.territory}, where the shipment "
            f"landed, not to {target.name}",
            rule=ADVISORS_RULE,
        )
    if state.forces_in(BG, target.name).fighters:
        raise IllegalActionError(
            f"the Bene Gesserit already have fighters in {target.name}, so the advisor must go "
            "to the Polar Sink",
            rule=ADVISORS_RULE,
        )


def flip(state: Position, action: Flip) -> list[Event]:
    if action.faction is not BG:
        raise IllegalActionError("only the Bene Gesserit flip their forces", rule=INTRUSION_RULE)
    territory = state.territory(action.territory, rule=INTRUSION_RULE)
    if action.to is Side.ADVISORS:
        return _intrusion(state, action, territory)
    return _wartime(state, action, territory)


def _intrusion(state: Position, action: Flip, territory: Territory) -> list[Event]:
    prompt = next(
        (
            p
            for p in state.phase.open_prompts
            if p.kind is PromptKind.INTRUSION and p.territory == territory.name
        ),
        None,
    )
    if prompt is None:
        raise IllegalActionError(
            f"no force of another faction has just entered {territory.name}; the Bene Gesserit "
            "may flip fighters to advisors only then",
            rule=INTRUSION_RULE,
        )
    turn_flow.remove_prompt(state, prompt)
    return _flip_under_karama(state, action, territory, Ability.INTRUSION)


def _wartime(state: Position, action: Flip, territory: Territory) -> list[Event]:
    if not any(p.kind is PromptKind.WARTIME for p in state.phase.open_prompts):
        raise IllegalActionError(
            "advisors flip to fighters in WARTIME only before the first shipment of the phase",
            rule=WARTIME_RULE,
        )
    if BlockedAbility(Ability.WARTIME, territory.name) in state.phase.karama_blocked:
        raise IllegalActionError(
            f"a Karama cancelled WARTIME in {territory.name} this phase", rule=WARTIME_RULE
        )
    if not state.forces_in(BG, territory.name).advisors:
        raise IllegalActionError(
            f"the Bene Gesserit have no advisors in {territory.name}", rule=WARTIME_RULE
        )
    check_may_take_arms(state, territory)
    return _flip_under_karama(state, action, territory, Ability.WARTIME)


def _flip_under_karama(
    state: Position, action: Flip, territory: Territory, ability: Ability
) -> list[Event]:
    """Flip a territory with a ✷ ability: a Karama window opens on the flip."""
    before = state.snapshot()
    to_advisors = ability is Ability.INTRUSION
    count = flip_territory(state, territory.name, to_advisors=to_advisors)
    state.push_stages(state.karama_stage([(BG, ability)], before, action_to_dict(action)))
    return [_flip_event(territory, count, action.to, ability.rule)]


def check_may_take_arms(state: Position, territory: Territory) -> None:
    """PEACETIME and STORMED IN: when advisors may not become fighters."""
    ally = state.ally_of(BG)
    if ally is not None and state.forces_in(ally, territory.name).total:
        raise IllegalActionError(
            f"advisors cannot flip to fighters in {territory.name}: {ally.label}, the Bene "
            "Gesserit's ally, is there",
            rule=PEACETIME_RULE,
        )
    if state.stack(BG, territory.name, state.storm_sector).advisors:
        raise IllegalActionError(
            f"advisors cannot flip to fighters under the storm (sector {state.storm_sector} "
            f"of {territory.name})",
            rule=STORMED_IN_RULE,
        )


def flip_territory(state: Position, territory: str, *, to_advisors: bool) -> int:
    """Turn every Bene Gesserit token in ``territory`` to one side; return how many."""
    count = 0
    for (f, t, sector), stack in list(state.stacks.items()):
        if f is not BG or t != territory:
            continue
        tokens = stack.total
        state.stacks[(f, t, sector)] = Stack(advisors=tokens) if to_advisors else Stack(tokens)
        count += stack.fighters if to_advisors else stack.advisors
    return count


# -- moving Bene Gesserit tokens ----------------------------------------------------


def arrive(
    state: Position, action: Move, dest: Territory, sector: int | None, moved: Stack
) -> tuple[Stack, list[Event], list[tuple[Faction, Ability]]]:
    """Which side the moved tokens land on: ENLISTMENT, TAKE UP ARMS, ADAPTIVE FORCE."""
    if action.faction is not BG or not state.rules.advanced:
        return moved, [], []
    there = state.forces_in(BG, dest.name)
    others = state.factions_present(dest.name) - {BG}
    if moved.advisors:
        return _advisors_arrive(state, action, dest, sector, moved, there, bool(others))
    if there.advisors:
        event = _flip_event(dest, moved.fighters, Side.ADVISORS, ADAPTIVE_RULE)
        return Stack(advisors=moved.fighters), [event], []
    return moved, [], []


def _advisors_arrive(
    state: Position,
    action: Move,
    dest: Territory,
    sector: int | None,
    moved: Stack,
    there: Stack,
    occupied: bool,
) -> tuple[Stack, list[Event], list[tuple[Faction, Ability]]]:
    count = moved.advisors
    if there.fighters:
        return Stack(count), [_flip_event(dest, count, Side.FIGHTERS, ADAPTIVE_RULE)], []
    if not occupied and not there.advisors:
        return Stack(count), [_flip_event(dest, count, Side.FIGHTERS, ENLISTMENT_RULE)], []
    if not action.take_up_arms:
        return moved, [], []
    _check_take_up_arms(state, dest, there, occupied)
    event = _flip_event(dest, count, Side.FIGHTERS, TAKE_UP_ARMS_RULE)
    return Stack(count), [event], [(BG, Ability.TAKE_UP_ARMS)]


def _check_take_up_arms(state: Position, dest: Territory, there: Stack, occupied: bool) -> None:
    turn = state.phase.turn
    if turn is not None and Ability.TAKE_UP_ARMS in turn.disabled:
        raise IllegalActionError(
            "a Karama cancelled TAKE UP ARMS: retake the move without it", rule=TAKE_UP_ARMS_RULE
        )
    if there.advisors:
        raise IllegalActionError(
            f"the Bene Gesserit already have advisors in {dest.name}, so these cannot take up arms",
            rule=TAKE_UP_ARMS_RULE,
        )
    if state.is_full_for(dest, BG):
        raise IllegalActionError(
            f"{dest.name} already holds forces of two other factions: the advisors cannot "
            "take up arms there (occupancy limit)",
            rule=TAKE_UP_ARMS_RULE,
        )
    check_may_take_arms(state, dest)


def bg_karama_use(faction: Faction, card: str) -> tuple[Faction, Ability] | None:
    """A worthless card played as a Karama by the Bene Gesserit is itself a ✷ use (2.02.23)."""
    if faction is Faction.BENE_GESSERIT and not same_card(card, KARAMA):
        return (faction, Ability.BG_KARAMA)
    return None


def _flip_event(dest: Territory, count: int, to: Side, rule: str) -> Event:
    return Flipped(BG, territory=dest.name, to=to, forces=count, rule=rule)


def universal_stewards(state: Position) -> list[Event]:
    """At the end of the phase, advisors alone in a territory become fighters (2.02.22)."""
    if not state.rules.advanced or not state.bg_in_game:
        return []
    events = []
    territories = sorted({t for (f, t, _), s in state.stacks.items() if f is BG and s.advisors})
    for name in territories:
        if state.factions_present(name) - {BG}:
            continue
        count = 0
        for (f, t, sector), stack in list(state.stacks.items()):
            if f is BG and t == name and stack.advisors and not state.in_storm(sector):
                state.stacks[(f, t, sector)] = Stack(stack.total)
                count += stack.advisors
        if count:
            events.append(_flip_event(state.board[name], count, Side.FIGHTERS, STEWARDS_RULE))
    return events
