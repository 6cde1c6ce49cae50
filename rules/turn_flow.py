"""Whose turn it is, what closes a prompt, and how the phase moves on (1.06.00)."""

from __future__ import annotations

from dataclasses import replace

from rules.actions import (
    Action,
    Advise,
    ClosePrompts,
    Decline,
    Flip,
    GuildNow,
    KaramaCancel,
    KaramaStopShipment,
    Pass,
    PlayHajr,
)
from rules.board import POLAR_SINK
from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError, quote
from rules.events import (
    AllianceConstraint,
    Event,
    HajrPlayed,
    MovementPassed,
    PromptDeclined,
    PromptsClosed,
    ShipmentPassed,
    TurnEnded,
)
from rules.factions import HAJR, Faction, same_card
from rules.model import PROMPT_RULES, Prompt, PromptKind, Stack, Step, Turn
from rules.position import Position

ORDER_RULE = "1.06.00"
CONSTRAINT_RULE = "1.06.03.08"
HAJR_RULE = "3.01.09"

PROMPT_ANSWERS: dict[type[Action], frozenset[PromptKind]] = {
    KaramaCancel: frozenset({PromptKind.KARAMA}),
    Advise: frozenset({PromptKind.ADVISE}),
    Flip: frozenset({PromptKind.INTRUSION, PromptKind.WARTIME}),
    GuildNow: frozenset({PromptKind.GUILD_TIMING}),
    KaramaStopShipment: frozenset({PromptKind.GUILD_STOP}),
    Pass: frozenset({PromptKind.ADVISE}),  # the Bene Gesserit's pass (never the one to act)
}
STEP_NAMES = {Step.SHIP: "shipment", Step.MOVE: "movement"}


# -- whose turn ---------------------------------------------------------------


def require_turn(state: Position, faction: Faction) -> Turn:
    """The turn of ``faction``; NotYourTurnError if another faction is to act."""
    turn = state.phase.turn
    if turn is None or turn.faction != faction:
        who = turn.faction.label if turn else "nobody"
        raise NotYourTurnError(
            f"it is not {faction.label}'s turn: {who} is to ship and move now", rule=ORDER_RULE
        )
    return turn


def next_faction(state: Position) -> Faction | None:
    phase = state.phase
    waiting = [f for f in phase.order if f not in phase.done]
    if phase.guild_delayed and len(waiting) > 1:
        waiting.remove(Faction.SPACING_GUILD)
    return waiting[0] if waiting else None


def guild_timing_open(state: Position) -> bool:
    """May the Guild still choose when to act (2.06.12, advanced game only)?"""
    phase = state.phase
    return (
        state.rules.advanced
        and state.guild_in_game
        and Faction.SPACING_GUILD not in phase.done
        and not phase.guild_timing_blocked
        and (phase.turn is None or phase.turn.faction != Faction.SPACING_GUILD)
    )


def end_step(state: Position) -> list[Event]:
    """The faction to act has finished a shipment (or skipped it)."""
    turn = state.phase.turn
    assert turn is not None
    state.set_phase(turn=replace(turn, step=Step.MOVE))
    return []


def count_move(state: Position) -> list[Event]:
    """A move was made: the turn ends after the last allowed move."""
    turn = state.phase.turn
    assert turn is not None
    turn = replace(turn, step=Step.MOVE, moves_made=turn.moves_made + 1)
    state.set_phase(turn=turn)
    if turn.moves_made >= turn.moves_allowed:
        return end_turn(state)
    return []


def end_turn(state: Position) -> list[Event]:
    turn = state.phase.turn
    assert turn is not None
    events = alliance_constraint(state, turn.faction)
    events.append(TurnEnded(turn.faction))
    delayed = state.phase.guild_delayed and turn.faction != Faction.SPACING_GUILD
    state.set_phase(turn=None, done=state.phase.done | {turn.faction}, guild_delayed=delayed)
    return events


def alliance_losses(state: Position, faction: Faction) -> list[tuple[str, int | None, Stack]]:
    """What the alliance constraint would send to the tanks if the turn ended now:
    fighters in a territory (not the Polar Sink) that also holds the ally's fighters."""
    ally = state.ally_of(faction)
    if ally is None or not state.in_game(ally):
        return []
    return [
        (territory, sector, Stack(stack.forces, stack.special))
        for (f, territory, sector), stack in sorted(state.stacks.items(), key=_key)
        if f == faction
        and territory != POLAR_SINK
        and stack.fighters
        and state.forces_in(ally, territory).fighters
    ]


def alliance_constraint(state: Position, faction: Faction) -> list[Event]:
    """At the end of a faction's turn, apply :func:`alliance_losses` (1.06.03.08)."""
    ally = state.ally_of(faction)
    events: list[Event] = []
    for territory, sector, lost in alliance_losses(state, faction):
        state.to_tanks(faction, territory, sector, lost)
        events.append(
            AllianceConstraint(
                faction=faction,
                ally=ally,
                territory=territory,
                sector=sector,
                forces=lost.forces,
                special=lost.special,
                rule=CONSTRAINT_RULE,
            )
        )
    return events


def _key(item: tuple[tuple[Faction, str, int | None], Stack]) -> tuple[str, int]:
    (_, territory, sector), _ = item
    return territory, sector or 0


# -- prompts ------------------------------------------------------------------


def answers_prompt(state: Position, action: Action, stages: tuple[tuple[Prompt, ...], ...]) -> bool:
    """Does ``action`` answer a prompt of ``stages`` that waits on its faction?

    A decline answers its own kind of prompt in any of ``stages``, so that a
    standing order declining a later prompt leaves the open stage to the others.
    Any other answer counts only in the open (first) stage. A pass answers only
    the Bene Gesserit's advise prompt, and never from the faction to act (whose
    pass ends its step).
    """
    if isinstance(action, Decline):
        return bool(waiting(action.faction, action.prompt, stages))
    faction = getattr(action, "faction", None)
    if isinstance(action, Pass) and faction == state.to_act():
        return False
    kinds = PROMPT_ANSWERS.get(type(action), frozenset())
    open_stage = stages[0] if stages else ()
    return any(p.kind in kinds and faction in p.waiting_on() for p in open_stage)


def waiting(
    faction: Faction, kind: PromptKind, stages: tuple[tuple[Prompt, ...], ...]
) -> list[Prompt]:
    """The prompts of ``kind`` in ``stages`` that wait on ``faction``."""
    return [p for stage in stages for p in stage if p.kind == kind and faction in p.waiting_on()]


def decline_stage(state: Position) -> list[Event]:
    """The flow moves on: every prompt of the open stage is declined."""
    stage, *rest = state.phase.stages
    state.set_phase(stages=tuple(rest))
    return [PromptsClosed(tuple(p.kind for p in stage))]


def remove_prompt(state: Position, prompt: Prompt) -> None:
    stages = []
    for stage in state.phase.stages:
        kept = tuple(p for p in stage if p is not prompt)
        if kept:
            stages.append(kept)
    state.set_phase(stages=tuple(stages))


def find_open_prompt(
    state: Position, faction: Faction, kinds: frozenset[PromptKind], *, rule: str
) -> Prompt:
    for prompt in state.phase.open_prompts:
        if prompt.kind in kinds and faction in prompt.waiting_on():
            return prompt
    names = " or ".join(sorted(k.value.replace("_", " ") for k in kinds))  # in words
    raise NotYourTurnError(f"{faction.label} has no open {names} prompt to answer", rule=rule)


def decline_for(state: Position, faction: Faction, kind: PromptKind | None = None) -> list[Event]:
    """``faction`` says no to every prompt (of ``kind``, if given) waiting on it."""
    stages = []
    declined = []
    for stage in state.phase.stages:
        kept = []
        for p in stage:
            if faction in p.waiting_on() and kind in (None, p.kind):
                declined.append(p.kind)
                p = replace(p, declined=p.declined | {faction})
            if p.waiting_on():
                kept.append(p)
        if kept:
            stages.append(tuple(kept))
    state.set_phase(stages=tuple(stages))
    return [PromptDeclined(faction, tuple(declined))]


# -- handlers -----------------------------------------------------------------


def pass_(state: Position, action: Pass) -> list[Event]:
    """The faction to act ends its step; the Bene Gesserit's pass declines its advise
    prompt. Anyone else's pass is out of turn (it declines no prompt)."""
    faction = action.faction
    if answers_prompt(state, action, state.phase.stages[:1]):
        return decline_for(state, faction, PromptKind.ADVISE)
    _check_not_passed(state, faction, action.step)
    turn = require_turn(state, faction)
    if turn.step is Step.SHIP:
        end_step(state)
        return [ShipmentPassed(faction)]
    events = [MovementPassed(faction)]
    return events + end_turn(state)


def _check_not_passed(state: Position, faction: Faction, step: str | None) -> None:
    """A pass naming a step that is already over is a repeated request: refused."""
    if step is None:
        return
    if step not in STEP_NAMES.values():
        raise InvalidActionError(
            f"a pass names the step 'shipment' or 'movement', not {quote(step)}", rule=ORDER_RULE
        )
    turn = state.phase.turn
    if faction in state.phase.done or (turn and turn.faction == faction):
        current = STEP_NAMES[turn.step] if turn and turn.faction == faction else None
        if current == step:
            return
        if current == "shipment":
            raise IllegalActionError(
                f"{faction.label} is still in its shipment step: pass the shipment first",
                rule=ORDER_RULE,
            )
        hint = "; to end its turn, pass its movement" if current == "movement" else ""
        raise IllegalActionError(
            f"{faction.label} already passed its {step}{hint}", rule=ORDER_RULE
        )


def decline(state: Position, action: Decline) -> list[Event]:
    """Say no to the prompts of one kind waiting on the faction."""
    known = {k.value for k in PromptKind}
    if action.prompt not in known:
        raise InvalidActionError(
            f"there is no prompt kind {quote(action.prompt)}; kinds: {', '.join(sorted(known))}",
            rule=ORDER_RULE,
        )
    kind = PromptKind(action.prompt)
    if not waiting(action.faction, kind, state.phase.stages):
        raise NotYourTurnError(
            f"{action.faction.label} has no open {kind} prompt to decline",
            rule=PROMPT_RULES[kind],
        )
    return decline_for(state, action.faction, kind)


def play_hajr(state: Position, action: PlayHajr) -> list[Event]:
    turn = require_turn(state, action.faction)
    card = next((c for c in state.factions[action.faction].cards if same_card(c, HAJR)), None)
    if card is None:
        raise IllegalActionError(f"{action.faction.label} holds no Hajr card", rule=HAJR_RULE)
    state.discard(action.faction, card)
    state.set_phase(turn=replace(turn, hajr_played=turn.hajr_played + 1))
    return [
        HajrPlayed(
            faction=action.faction,
            moves_allowed=turn.moves_allowed + 1,
            rule=HAJR_RULE,
        )
    ]


def close_prompts(state: Position, action: ClosePrompts) -> list[Event]:
    if not state.phase.stages:
        raise IllegalActionError("no prompt is open", rule=ORDER_RULE)
    return decline_stage(state)
