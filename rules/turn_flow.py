"""Whose turn it is, what closes a prompt, and how the phase moves on (1.06.00)."""

from __future__ import annotations

from dataclasses import replace

from rules.actions import (
    Action,
    Advise,
    ClosePrompts,
    Flip,
    GuildNow,
    KaramaCancel,
    KaramaStopShipment,
    Pass,
    PlayHajr,
)
from rules.board import POLAR_SINK
from rules.errors import IllegalActionError, NotYourTurnError
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
from rules.model import Prompt, PromptKind, Stack, Step, Turn
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
}


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

    A pass answers a prompt of any of ``stages`` (of its kind, if it names one),
    except the plain pass of the faction to act, which ends its step; any other
    answer counts only in the open (first) stage.
    """
    faction = getattr(action, "faction", None)
    if isinstance(action, Pass):
        if action.prompt is None and faction == state.to_act():
            return False
        return any(
            faction in p.waiting_on() and action.prompt in (None, p.kind)
            for stage in stages
            for p in stage
        )
    kinds = PROMPT_ANSWERS.get(type(action), frozenset())
    open_stage = stages[0] if stages else ()
    return any(p.kind in kinds and faction in p.waiting_on() for p in open_stage)


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
    names = " or ".join(sorted(k.value for k in kinds))
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
    """The faction to act ends its step; anyone else declines its prompts."""
    faction = action.faction
    if action.prompt is not None or faction != state.to_act():
        if answers_prompt(state, action, state.phase.stages):
            return decline_for(state, faction, action.prompt)
        if action.prompt is not None:
            raise NotYourTurnError(
                f"{faction.label} has no open {action.prompt} prompt to decline", rule=ORDER_RULE
            )
        require_turn(state, faction)
    turn = require_turn(state, faction)
    if turn.step is Step.SHIP:
        end_step(state)
        return [ShipmentPassed(faction)]
    events = [MovementPassed(faction)]
    return events + end_turn(state)


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
