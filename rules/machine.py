"""The phase machine: dispatch an action to its rule module, then move the phase on.

Actions go to the rule modules (shipment, movement, the faction modules),
which take the :class:`~rules.position.Position`. The machine declines the
stages of prompts an action does not answer, and after each action starts
the next turn or completes the phase (1.06.00).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules import bene_gesserit, guild, karama, movement, shipment, turn_flow
from rules.actions import (
    Action,
    Advise,
    ClosePrompts,
    CrossShip,
    Decline,
    FactionAction,
    Flip,
    GuildDelay,
    GuildNow,
    KaramaCancel,
    KaramaPrevent,
    KaramaStopShipment,
    Move,
    Pass,
    PlayHajr,
    Send,
    Ship,
    ShipToReserves,
)
from rules.errors import NotYourTurnError
from rules.events import Event, PhaseComplete, TurnStarted
from rules.factions import Faction
from rules.model import Prompt, PromptKind, Turn
from rules.position import Position

Handler = Callable[[Any, Any], list[Event]]

HANDLERS: dict[type[Action], Handler] = {
    Ship: shipment.ship,
    Send: shipment.send,
    CrossShip: shipment.cross_ship,
    ShipToReserves: shipment.ship_to_reserves,
    Move: movement.move,
    Pass: turn_flow.pass_,
    Decline: turn_flow.decline,
    PlayHajr: turn_flow.play_hajr,
    KaramaCancel: karama.cancel,
    KaramaPrevent: karama.prevent,
    KaramaStopShipment: guild.stop_shipment,
    Advise: bene_gesserit.advise,
    Flip: bene_gesserit.flip,
    GuildNow: guild.now,
    GuildDelay: guild.delay,
    ClosePrompts: turn_flow.close_prompts,
}


def apply_action(state: Position, action: Action) -> list[Event]:
    """Carry out ``action`` on ``state`` (the caller restores the position on a refusal)."""
    if isinstance(action, FactionAction) and not state.in_game(action.faction):
        raise NotYourTurnError(
            f"{action.faction.label} is not in this game", rule=turn_flow.ORDER_RULE
        )
    if state.phase.complete:
        raise NotYourTurnError("the Shipment & Movement phase is over", rule=turn_flow.ORDER_RULE)
    events: list[Event] = []
    while state.phase.stages and not _keeps_stages(state, action):
        events += turn_flow.decline_stage(state)
    events += HANDLERS[type(action)](state, action)
    events += settle(state)
    return events


def _keeps_stages(state: Position, action: Action) -> bool:
    """Closing prompts, or answering one, leaves the earlier stages to the action itself."""
    if isinstance(action, ClosePrompts):
        return True
    return turn_flow.answers_prompt(state, action, state.phase.stages)


# -- how the phase moves on -----------------------------------------------------


def start_phase(state: Position) -> list[Event]:
    state.append_stage(bene_gesserit.wartime_stage(state))
    return settle(state)


def start_turn(state: Position, faction: Faction) -> list[Event]:
    state.set_phase(turn=Turn(faction, ornithopters_at_start=state.has_ornithopters(faction)))
    events: list[Event] = [TurnStarted(faction)]
    if faction != Faction.SPACING_GUILD and turn_flow.guild_timing_open(state):
        state.append_stage(
            (Prompt(PromptKind.GUILD_TIMING, (Faction.SPACING_GUILD,), subject=faction),)
        )
    return events


def settle(state: Position) -> list[Event]:
    """Start the next turn when none is running; complete the phase at the end."""
    events: list[Event] = []
    while not state.phase.complete and state.phase.turn is None:
        nxt = turn_flow.next_faction(state)
        if nxt is None:
            if state.phase.stages:
                break
            events += complete_phase(state)
        else:
            events += start_turn(state, nxt)
    return events


def complete_phase(state: Position) -> list[Event]:
    events = bene_gesserit.universal_stewards(state)
    state.set_phase(complete=True)
    events.append(PhaseComplete())
    return events
