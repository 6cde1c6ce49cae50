"""The Shipment & Movement phase (1.06) as the machine runs it: its actions and their
handlers, how it begins, and how it moves on (turns in storm order, the prompts' stages
declined by a later action, the phase complete at the end).

The actions themselves are the rule modules' (:mod:`rules.shipment`,
:mod:`rules.movement`, :mod:`rules.turn_flow`, the faction modules).
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from rules import bene_gesserit, guild, karama, movement, shipment, turn_flow
from rules.actions import (
    Action,
    Advise,
    ClosePrompts,
    CrossShip,
    Decline,
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
from rules.components import leaders
from rules.errors import NotYourTurnError
from rules.events import Event, PhaseComplete, TurnStarted
from rules.factions import Faction
from rules.game_model import Chance, GamePhase, TurnState
from rules.model import Phase, Prompt, PromptKind, Turn
from rules.phase_spec import PhaseSpec, handlers, on
from rules.position import Position

PHASE_RULE = "1.06"


class ShipmentMovementStep(StrEnum):
    """The phase's step in a whole game: its turns are under way (then done)."""

    RUNNING = "running"


HANDLERS = handlers(
    on(Ship, shipment.ship),
    on(Send, shipment.send),
    on(CrossShip, shipment.cross_ship),
    on(ShipToReserves, shipment.ship_to_reserves),
    on(Move, movement.move),
    on(Pass, turn_flow.pass_),
    on(Decline, turn_flow.decline),
    on(PlayHajr, turn_flow.play_hajr),
    on(KaramaCancel, karama.cancel),
    on(KaramaPrevent, karama.prevent),
    on(KaramaStopShipment, guild.stop_shipment),
    on(Advise, bene_gesserit.advise),
    on(Flip, bene_gesserit.flip),
    on(GuildNow, guild.now),
    on(GuildDelay, guild.delay),
    on(ClosePrompts, turn_flow.close_prompts),
)


def alone(order: tuple[Faction, ...], factions: Iterable[Faction]) -> TurnState:
    """The whole game's state of a Shipment & Movement phase played alone (a scenario,
    the phase demo): a game whose turn 1 is that phase, its turns under way, in storm
    ``order``, that stops once the phase is done; each faction's leaders in its pool."""
    playing = sorted(factions)
    return TurnState(
        chance=Chance(0),
        phase=GamePhase.SHIPMENT_MOVEMENT,
        last_turn=1,
        order=order,
        leaders={f: tuple(leaders(f)) for f in playing},
        leaders_tanks=dict.fromkeys(playing, ()),
        step=ShipmentMovementStep.RUNNING,
        stop_after=GamePhase.SHIPMENT_MOVEMENT,
    )


def begin(state: Position) -> list[Event]:
    """The phase of a whole game begins: the Guild's Karama, once a game (1.14.05), is
    remembered; the first turn starts."""
    used = Faction.SPACING_GUILD in state.whole.karama_powers_used
    state.phase = Phase(order=state.whole.order, started=True, guild_karama_used=used)
    state.set_game(step=ShipmentMovementStep.RUNNING)
    return start_phase(state)


def finished(state: Position) -> bool:
    """The phase's turns are over (the machine then marks its step done)."""
    return state.whole.step == ShipmentMovementStep.RUNNING and state.phase.complete


def play(state: Position, action: Action) -> list[Event]:
    """An action in the phase of a whole game: one of the phase's, else refused."""
    if type(action) not in HANDLERS:
        raise NotYourTurnError(
            f"{action.name} is not an action of the Shipment & Movement phase",
            rule=turn_flow.ORDER_RULE,
        )
    return phase_action(state, action)


def phase_action(state: Position, action: Action) -> list[Event]:
    """Carry out ``action``: the prompts' stages it does not answer are declined first,
    then the next turn starts (or the phase completes)."""
    if state.phase.complete:
        raise NotYourTurnError("the Shipment & Movement phase is over", rule=turn_flow.ORDER_RULE)
    entry = HANDLERS.get(type(action))
    if entry is None:
        raise NotYourTurnError(
            f"{action.name} is not an action of the Shipment & Movement phase",
            rule=turn_flow.ORDER_RULE,
        )
    events: list[Event] = []
    while state.phase.stages and not _keeps_stages(state, action):
        events += turn_flow.decline_stage(state)
    events += entry.run(state, action)
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


SPEC = PhaseSpec(
    phase=GamePhase.SHIPMENT_MOVEMENT,
    rule=PHASE_RULE,
    steps=ShipmentMovementStep,
    begin=begin,
    handlers=HANDLERS,
    dispatch=play,
    finished=finished,
)
