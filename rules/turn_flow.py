"""Whose turn it is, what closes a prompt, and how the phase moves on (1.06.00)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

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
from rules.board import POLAR_SINK, storm_order_seats
from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError
from rules.events import Event
from rules.factions import HAJR, Faction, same_card
from rules.model import PROMPT_RULES, Prompt, PromptKind, Stack, Step, Turn

if TYPE_CHECKING:
    from rules.game import GameState

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


def storm_order(seats: tuple[Faction | None, ...], storm_sector: int) -> tuple[Faction, ...]:
    """Seated factions in storm order, first player first; empty seats skipped."""
    padded = list(seats) + [None] * (6 - len(seats))
    return tuple(f for i in storm_order_seats(storm_sector) if (f := padded[i]) is not None)


# -- whose turn ---------------------------------------------------------------


def require_turn(state: GameState, faction: Faction) -> Turn:
    """The turn of ``faction``; NotYourTurnError if another faction is to act."""
    turn = state.phase.turn
    if turn is None or turn.faction != faction:
        who = turn.faction.label if turn else "nobody"
        raise NotYourTurnError(
            f"it is not {faction.label}'s turn: {who} is to ship and move now", rule=ORDER_RULE
        )
    return turn


def next_faction(state: GameState) -> Faction | None:
    phase = state.phase
    waiting = [f for f in phase.order if f not in phase.done]
    if phase.guild_delayed and len(waiting) > 1:
        waiting.remove(Faction.SPACING_GUILD)
    return waiting[0] if waiting else None


def guild_timing_open(state: GameState) -> bool:
    """May the Guild still choose when to act (2.06.12, advanced game only)?"""
    phase = state.phase
    return (
        state.rules.advanced
        and state.guild_in_game
        and Faction.SPACING_GUILD not in phase.done
        and not phase.guild_timing_blocked
        and (phase.turn is None or phase.turn.faction != Faction.SPACING_GUILD)
    )


def start_phase(state: GameState) -> list[Event]:
    from rules import bene_gesserit

    state.append_stage(bene_gesserit.wartime_stage(state))
    return settle(state)


def start_turn(state: GameState, faction: Faction) -> list[Event]:
    state.set_phase(turn=Turn(faction, ornithopters_at_start=state.has_ornithopters(faction)))
    events = [Event.of("turn_started", faction=faction)]
    if faction != Faction.SPACING_GUILD and guild_timing_open(state):
        state.append_stage(
            (Prompt(PromptKind.GUILD_TIMING, (Faction.SPACING_GUILD,), subject=faction),)
        )
    return events


def settle(state: GameState) -> list[Event]:
    """Start the next turn when none is running; complete the phase at the end."""
    events: list[Event] = []
    while not state.phase.complete and state.phase.turn is None:
        nxt = next_faction(state)
        if nxt is None:
            if state.phase.stages:
                break
            events += complete_phase(state)
        else:
            events += start_turn(state, nxt)
    return events


def end_step(state: GameState) -> list[Event]:
    """The faction to act has finished a shipment (or skipped it)."""
    turn = state.phase.turn
    assert turn is not None
    state.set_phase(turn=replace(turn, step=Step.MOVE))
    return []


def count_move(state: GameState) -> list[Event]:
    """A move was made: the turn ends after the last allowed move."""
    turn = state.phase.turn
    assert turn is not None
    turn = replace(turn, step=Step.MOVE, moves_made=turn.moves_made + 1)
    state.set_phase(turn=turn)
    if turn.moves_made >= turn.moves_allowed:
        return end_turn(state)
    return []


def end_turn(state: GameState) -> list[Event]:
    turn = state.phase.turn
    assert turn is not None
    events = alliance_constraint(state, turn.faction)
    events.append(Event.of("turn_ended", faction=turn.faction))
    delayed = state.phase.guild_delayed and turn.faction != Faction.SPACING_GUILD
    state.set_phase(turn=None, done=state.phase.done | {turn.faction}, guild_delayed=delayed)
    return events


def alliance_losses(state: GameState, faction: Faction) -> list[tuple[str, int | None, Stack]]:
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


def alliance_constraint(state: GameState, faction: Faction) -> list[Event]:
    """At the end of a faction's turn, apply :func:`alliance_losses` (1.06.03.08)."""
    ally = state.ally_of(faction)
    events = []
    for territory, sector, lost in alliance_losses(state, faction):
        state.to_tanks(faction, territory, sector, lost)
        events.append(
            Event.of(
                "alliance_constraint",
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


def complete_phase(state: GameState) -> list[Event]:
    from rules import bene_gesserit

    events = bene_gesserit.universal_stewards(state)
    state.set_phase(complete=True)
    events.append(Event.of("phase_complete"))
    return events


def _key(item: tuple[tuple[Faction, str, int | None], Stack]) -> tuple[str, int]:
    (_, territory, sector), _ = item
    return territory, sector or 0


# -- prompts ------------------------------------------------------------------


def answers_open_prompt(state: GameState, action: Action) -> bool:
    """Does ``action`` answer a prompt of the open stage (so it keeps the others open)?

    A decline answers its own kind of prompt in any stage, so that a standing order
    declining a later prompt leaves the open stage to the others.
    """
    if isinstance(action, ClosePrompts):
        return True
    if isinstance(action, Decline):
        return bool(_waiting(state, action.faction, action.prompt, state.phase.stages))
    kinds = PROMPT_ANSWERS.get(type(action), frozenset())
    faction = getattr(action, "faction", None)
    return any(p.kind in kinds and faction in p.waiting_on() for p in state.phase.open_prompts)


def answers_first_stage(state: GameState, action: Action) -> bool:
    """Does ``action`` answer a prompt of the open stage itself (not a later one)?"""
    if isinstance(action, Decline):
        return bool(_waiting(state, action.faction, action.prompt, state.phase.stages[:1]))
    return not isinstance(action, ClosePrompts) and answers_open_prompt(state, action)


def _waiting(
    state: GameState, faction: Faction, kind: str, stages: tuple[tuple[Prompt, ...], ...]
) -> list[Prompt]:
    return [p for stage in stages for p in stage if p.kind == kind and faction in p.waiting_on()]


def decline_stage(state: GameState) -> list[Event]:
    """The flow moves on: every prompt of the open stage is declined."""
    stage, *rest = state.phase.stages
    state.set_phase(stages=tuple(rest))
    return [Event.of("prompts_closed", prompts=[p.kind.value for p in stage])]


def remove_prompt(state: GameState, prompt: Prompt) -> None:
    stages = []
    for stage in state.phase.stages:
        kept = tuple(p for p in stage if p is not prompt)
        if kept:
            stages.append(kept)
    state.set_phase(stages=tuple(stages))


def find_open_prompt(
    state: GameState, faction: Faction, kinds: frozenset[PromptKind], *, rule: str
) -> Prompt:
    for prompt in state.phase.open_prompts:
        if prompt.kind in kinds and faction in prompt.waiting_on():
            return prompt
    names = " or ".join(sorted(k.value for k in kinds))
    raise NotYourTurnError(f"{faction.label} has no open {names} prompt to answer", rule=rule)


def decline_for(state: GameState, faction: Faction, kind: str | None = None) -> list[Event]:
    """``faction`` says no to every prompt (of ``kind``, if given) waiting on it."""
    stages = []
    declined = []
    for stage in state.phase.stages:
        kept = []
        for p in stage:
            if faction in p.waiting_on() and kind in (None, p.kind.value):
                declined.append(p.kind.value)
                p = replace(p, declined=p.declined | {faction})
            if p.waiting_on():
                kept.append(p)
        if kept:
            stages.append(tuple(kept))
    state.set_phase(stages=tuple(stages))
    return [Event.of("prompt_declined", faction=faction, prompts=declined)]


# -- handlers -----------------------------------------------------------------


def pass_(state: GameState, action: Pass) -> list[Event]:
    """The faction to act ends its step; the Bene Gesserit's pass declines its advise
    prompt. Anyone else's pass is out of turn (it declines no prompt)."""
    faction = action.faction
    if faction != state.to_act() and answers_open_prompt(state, action):
        return decline_for(state, faction, PromptKind.ADVISE.value)
    _check_not_passed(state, faction, action.step)
    turn = require_turn(state, faction)
    if turn.step is Step.SHIP:
        end_step(state)
        return [Event.of("shipment_passed", faction=faction)]
    events = [Event.of("movement_passed", faction=faction)]
    return events + end_turn(state)


def _check_not_passed(state: GameState, faction: Faction, step: str | None) -> None:
    """A pass naming a step that is already over is a repeated request: refused."""
    if step is None:
        return
    if step not in STEP_NAMES.values():
        raise InvalidActionError(
            f"a pass names the step 'shipment' or 'movement', not {step[:80]!r}", rule=ORDER_RULE
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


def decline(state: GameState, action: Decline) -> list[Event]:
    """Say no to the prompts of one kind waiting on the faction."""
    known = {k.value for k in PromptKind}
    if action.prompt not in known:
        raise InvalidActionError(
            f"there is no prompt kind {action.prompt[:80]!r}; kinds: {', '.join(sorted(known))}",
            rule=ORDER_RULE,
        )
    if not _waiting(state, action.faction, action.prompt, state.phase.stages):
        raise NotYourTurnError(
            f"{action.faction.label} has no open {action.prompt} prompt to decline",
            rule=PROMPT_RULES[PromptKind(action.prompt)],
        )
    return decline_for(state, action.faction, action.prompt)


def play_hajr(state: GameState, action: PlayHajr) -> list[Event]:
    turn = require_turn(state, action.faction)
    card = next((c for c in state.factions[action.faction].cards if same_card(c, HAJR)), None)
    if card is None:
        raise IllegalActionError(f"{action.faction.label} holds no Hajr card", rule=HAJR_RULE)
    state.discard(action.faction, card)
    state.set_phase(turn=replace(turn, hajr_played=turn.hajr_played + 1))
    return [
        Event.of(
            "hajr_played",
            faction=action.faction,
            moves_allowed=turn.moves_allowed + 1,
            rule=HAJR_RULE,
        )
    ]


def close_prompts(state: GameState, action: ClosePrompts) -> list[Event]:
    if not state.phase.stages:
        raise IllegalActionError("no prompt is open", rule=ORDER_RULE)
    return decline_stage(state)


# -- what a faction may do now -------------------------------------------------


def legal_action_names(
    state: GameState, faction: Faction, *, open_stage_only: bool = False
) -> list[str]:
    from rules import guild, karama, shipment

    names: list[str] = []
    turn = state.phase.turn
    stages = state.phase.stages[:1] if open_stage_only else state.phase.stages
    if open_stage_only and stages:
        return [
            n for p in stages[0] if faction in p.waiting_on() for n in _answers(state, faction, p)
        ]
    if turn is not None and turn.faction == faction:
        if turn.step is Step.SHIP:
            names += shipment.shipment_kinds(state, faction)
        names += ["move", "pass"]
        if any(same_card(c, HAJR) for c in state.factions[faction].cards):
            names.append("hajr")
        if guild.may_delay(state, faction):
            names.append("guild_delay")
    for stage in stages:  # answering a later prompt declines the earlier stages
        for prompt in stage:
            if faction in prompt.waiting_on():
                names += _answers(state, faction, prompt)
    if karama.may_prevent(state, faction):
        names.append("karama_prevent")
    return list(dict.fromkeys(names))


def _answers(state: GameState, faction: Faction, prompt: Prompt) -> list[str]:
    kind = prompt.kind
    holds = state.karama_card(faction) is not None
    if kind is PromptKind.KARAMA:
        return ["karama_cancel", "decline"] if holds else ["decline"]
    if kind is PromptKind.GUILD_STOP:
        return ["karama_stop_shipment", "decline"] if holds else ["decline"]
    if kind is PromptKind.ADVISE:
        return ["advise", "pass", "decline"]
    if kind in (PromptKind.INTRUSION, PromptKind.WARTIME):
        return ["flip", "decline"]
    return ["guild_now", "decline"]
