"""The phase machine: dispatch an action to its rule module, then move the phase on.

Actions go to the rule modules (shipment, movement, the faction modules, the
moderators' corrections), which take the :class:`~rules.position.Position`. The machine declines the
stages of prompts an action does not answer, and after each action starts
the next turn or completes the phase (1.06.00).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules import (
    battle,
    battle_actions,
    bene_gesserit,
    bidding,
    bribes,
    charity,
    collection,
    corrections,
    guild,
    karama,
    karama_turn,
    mentat_pause,
    movement,
    nexus,
    recorded,
    revival,
    setup,
    shipment,
    spice_blow,
    storm,
    truthtrance,
    turn_flow,
)
from rules.actions import (
    Action,
    Advise,
    Ally,
    AnswerTruthtrance,
    BattlePlan,
    Bid,
    BreakAlliance,
    Bribe,
    CallTraitor,
    Capture,
    ClaimCharity,
    ClosePrompts,
    Correction,
    CrossShip,
    Decline,
    Dial,
    FactionAction,
    FamilyAtomics,
    Flip,
    FremenAllyWorm,
    FremenStormLosses,
    GiveBackCards,
    GiveSpice,
    GuildDelay,
    GuildNow,
    KaramaBuy,
    KaramaCancel,
    KaramaPrevent,
    KaramaRevive,
    KaramaStopShipment,
    KaramaTakeHand,
    KaramaWorm,
    KeepCards,
    KeepTraitor,
    Move,
    Pass,
    PayAllyRevival,
    PhaseDone,
    PlaceAdvisor,
    PlaceFremen,
    PlaceWorm,
    PlayGhola,
    PlayHajr,
    PlayTruthtrance,
    Predict,
    Prescience,
    RecordBattle,
    RecordCardWon,
    RecordDiscard,
    RecordGhola,
    RecordIncome,
    RecordLeaderKilled,
    RecordLosses,
    RecordPayment,
    RecordRevival,
    Revive,
    RideWorm,
    Send,
    Ship,
    ShipToReserves,
    StartBattle,
    SupportBids,
    Voice,
    WeatherControl,
)
from rules.errors import NotYourTurnError
from rules.events import Event, PhaseBegan, PhaseComplete, TurnStarted
from rules.factions import Faction
from rules.game_model import TURN_PHASES, GamePhase
from rules.model import Phase, Prompt, PromptKind, Turn
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


WHOLE_TURN_HANDLERS: dict[type[Action], Handler] = {
    KeepTraitor: setup.keep_traitor,
    Predict: setup.predict,
    PlaceFremen: setup.place_fremen,
    PlaceAdvisor: setup.place_advisor,
    Dial: storm.dial,
    WeatherControl: storm.weather_control,
    FremenStormLosses: storm.fremen_losses,
    FamilyAtomics: storm.family_atomics,
    Ally: nexus.ally,
    RideWorm: nexus.ride_worm,
    PlaceWorm: spice_blow.place_worm,
    BreakAlliance: nexus.break_alliance,
    ClaimCharity: charity.claim,
    RecordCardWon: lambda state, action: _record_card(state, action),
    # -- revival (rules.revival) --
    Revive: revival.revive,
    KaramaRevive: revival.karama_revive,
    PayAllyRevival: revival.pay_ally_revival,
    RecordRevival: revival.record_revival,
    RecordGhola: revival.record_ghola,
    # -- end revival --
    RecordBattle: recorded.battle,
    RecordLosses: recorded.losses,
    RecordLeaderKilled: recorded.leader_killed,
    RecordDiscard: recorded.discard,
    RecordPayment: recorded.payment,
    RecordIncome: recorded.income,
    # -- the Battle phase (rules.battle, rules.battle_actions) --
    StartBattle: battle.start_battle,
    Voice: battle.voice,
    Prescience: battle.prescience,
    BattlePlan: battle_actions.battle_plan,
    CallTraitor: battle_actions.call_traitor,
    KeepCards: battle_actions.keep_cards,
    Capture: battle_actions.capture,
    PhaseDone: lambda state, action: _phase_done(state, action),
    # -- the Bidding phase (rules.bidding) --
    Bid: bidding.bid,
    KaramaBuy: bidding.karama_buy,
    SupportBids: bidding.support_bids,
    KaramaTakeHand: bidding.karama_take_hand,
    GiveBackCards: bidding.give_back_cards,
}
PHASE_ACTIONS: dict[GamePhase, tuple[type[Action], ...]] = {
    GamePhase.SETUP: (KeepTraitor, Predict, PlaceFremen, PlaceAdvisor),
    GamePhase.STORM: (Dial, WeatherControl, FamilyAtomics, FremenStormLosses, Pass),
    GamePhase.SPICE_BLOW: (Ally, BreakAlliance, RideWorm, PlaceWorm, Pass),
    GamePhase.CHOAM_CHARITY: (ClaimCharity, Pass),
    GamePhase.BIDDING: (
        Bid,
        Pass,
        KaramaBuy,
        SupportBids,
        KaramaTakeHand,
        GiveBackCards,
        RecordCardWon,
        PhaseDone,
    ),
    GamePhase.REVIVAL: (
        Revive,
        KaramaRevive,
        PayAllyRevival,
        Pass,
        RecordRevival,
        RecordGhola,
        PhaseDone,
    ),
    GamePhase.BATTLE: (
        StartBattle,
        Voice,
        Prescience,
        BattlePlan,
        CallTraitor,
        KeepCards,
        Capture,
        Pass,
        # the moderator's corrections (they leave the battle where it stands)
        RecordBattle,
        RecordLosses,
        RecordLeaderKilled,
        RecordDiscard,
        RecordPayment,
        RecordIncome,
        PhaseDone,
    ),
}
"""The actions each phase the engine runs (1.06 aside) accepts."""
PASS_HANDLERS: dict[GamePhase, Handler] = {
    GamePhase.STORM: storm.pass_cards,
    GamePhase.SPICE_BLOW: nexus.pass_,
    GamePhase.CHOAM_CHARITY: charity.decline,
    GamePhase.BATTLE: battle_actions.pass_,
    GamePhase.BIDDING: bidding.pass_,
    GamePhase.REVIVAL: revival.pass_,  # revival: the free revival alone
}
PHASE_BEGIN: dict[GamePhase, Callable[[Position], list[Event]]] = {
    GamePhase.SETUP: setup.begin,
    GamePhase.STORM: storm.begin,
    GamePhase.SPICE_BLOW: spice_blow.begin,
    GamePhase.CHOAM_CHARITY: charity.begin,
    GamePhase.BIDDING: bidding.begin,
    GamePhase.REVIVAL: revival.begin,
    GamePhase.BATTLE: battle.begin,
    GamePhase.SPICE_COLLECTION: collection.begin,
    GamePhase.MENTAT_PAUSE: mentat_pause.begin,
}
PHASE_RULES = {
    GamePhase.SETUP: "0.00",
    GamePhase.STORM: "1.01",
    GamePhase.SPICE_BLOW: "1.02",
    GamePhase.CHOAM_CHARITY: "1.03",
    GamePhase.BIDDING: "1.04",
    GamePhase.REVIVAL: "1.05",
    GamePhase.SHIPMENT_MOVEMENT: "1.06",
    GamePhase.BATTLE: "1.07",
    GamePhase.SPICE_COLLECTION: "1.08",
    GamePhase.MENTAT_PAUSE: "1.09",
    GamePhase.OVER: "1.09",
}


def apply_action(state: Position, action: Action) -> list[Event]:
    """Carry out ``action`` on ``state`` (the caller restores the position on a refusal)."""
    own, steps = apply_split(state, action)
    return own + steps


def apply_split(state: Position, action: Action) -> tuple[list[Event], list[Event]]:
    """:func:`apply_action`, its events split in two: the action's own, and those of the
    steps the engine then ran by itself (phases begun, blown, collected...).

    A moderator's correction is nobody's turn and answers no prompt: it changes the
    position and leaves the phase where it is (even a complete phase or a game over),
    with no steps after it.
    """
    if isinstance(action, Correction):
        return corrections.correct(state, action), []
    if isinstance(action, FactionAction) and not state.in_game(action.faction):
        raise NotYourTurnError(
            f"{action.faction.label} is not in this game", rule=turn_flow.ORDER_RULE
        )
    game = state.game
    if game is None:
        return _phase_action(state, action), []
    if game.halted:
        raise NotYourTurnError(
            f"the game is stopped before the {phase_name(game.phase)} phase of turn {game.turn}",
            rule=PHASE_RULES[game.phase],
        )
    truthtrance.check_held(state, action)  # an open Truthtrance question waits (3.01.21)
    if any_time(action):
        own = ANY_TIME_HANDLERS[type(action)](state, action)
    elif game.phase is not GamePhase.SHIPMENT_MOVEMENT:
        own = _whole_turn_action(state, action)
    elif type(action) in WHOLE_TURN_HANDLERS:
        raise NotYourTurnError(
            f"{action.name} is not an action of the Shipment & Movement phase",
            rule=turn_flow.ORDER_RULE,
        )
    else:
        own = _phase_action(state, action)
    return own, advance(state)


def _karama_prevent(state: Position, action: KaramaPrevent) -> list[Event]:
    """A Karama against a whole turn's ✷ ability (reading K1): the Emperor's payment for
    its ally's revival (2.03.07), if open now, is stopped at once."""
    return karama_turn.prevent(state, action) + revival.after_prevent(state)


ANY_TIME_HANDLERS: dict[type[Action], Handler] = {
    KaramaPrevent: _karama_prevent,
    KaramaWorm: karama_turn.karama_worm,
    FremenAllyWorm: karama_turn.ally_worm,
    Bribe: bribes.bribe,
    GiveSpice: bribes.give_spice,  # the Emperor, to its ally (2.03.06)
    PlayGhola: revival.play_ghola,  # revival: Tleilaxu Ghola, any time (3.01.20)
    PlayTruthtrance: truthtrance.play,  # Truthtrance: a question, any time (3.01.21)
    AnswerTruthtrance: truthtrance.answer,
}
"""Whole-game actions played in any phase: they leave the phase where it is."""


# -- the Bidding phase: the moderator's record and "phase done" there (rules.bidding) --

PHASE_DONE: dict[GamePhase, Handler] = {
    GamePhase.BIDDING: bidding.phase_done,
    GamePhase.REVIVAL: revival.phase_done,  # revival: free revival for the rest
    GamePhase.BATTLE: recorded.end_battles,  # battle: the battle under way dropped
}
"""Phases the engine runs where the moderator's "phase done" ends the phase early."""


def _phase_done(state: Position, action: PhaseDone) -> list[Event]:
    handler = PHASE_DONE.get(state.whole.phase, recorded.phase_done)
    return handler(state, action)


def _record_card(state: Position, action: RecordCardWon) -> list[Event]:
    """A card recorded during the auction: a correction that leaves the auction as it is."""
    bidding.check_record(state, action)
    events = recorded.win_card(state, action)
    return events + bidding.after_record(state)


def any_time(action: Action) -> bool:
    if isinstance(action, KaramaPrevent):
        return action.ability in karama_turn.TURN_ABILITIES
    return type(action) in ANY_TIME_HANDLERS


def _whole_turn_action(state: Position, action: Action) -> list[Event]:
    game = state.whole
    phase = game.phase
    if phase is GamePhase.OVER:
        raise NotYourTurnError(game_over(state), rule=game.winner.rule if game.winner else "1.09")
    handler = WHOLE_TURN_HANDLERS.get(type(action))
    if isinstance(action, Pass):
        handler = PASS_HANDLERS.get(phase)
    if handler is None or not isinstance(action, PHASE_ACTIONS.get(phase, ())):
        raise NotYourTurnError(
            f"{action.name} is not an action of the {phase_name(phase)} phase (turn {game.turn})",
            rule=PHASE_RULES[phase],
        )
    return handler(state, action)


def game_over(state: Position) -> str:
    game = state.whole
    if game.winner is None:
        return "the game is over"
    names = " and ".join(f.label for f in game.winner.factions)
    return f"the game is over: {names} won ({game.winner.how}) on turn {game.turn}"


def phase_name(phase: GamePhase) -> str:
    return phase.value.replace("_", " ").replace("choam", "CHOAM")


def advance(state: Position) -> list[Event]:
    """Carry out every step that needs no choice: begin phases, close finished ones,
    and stop where the game waits for a faction or the moderator (or is over)."""
    events: list[Event] = []
    while True:
        game = state.whole
        if game.phase is GamePhase.OVER or game.waiting or game.halted:
            return events
        shipment_movement = game.phase is GamePhase.SHIPMENT_MOVEMENT
        if game.step == "":
            begin = _begin_shipment_movement if shipment_movement else PHASE_BEGIN[game.phase]
            events += begin(state)
        elif shipment_movement and game.step == "running" and state.phase.complete:
            state.set_game(step="done")
        elif game.step == "done":
            events += _next_phase(state)
        else:
            return events


def _next_phase(state: Position) -> list[Event]:
    game = state.whole
    if game.phase is GamePhase.SETUP:
        nxt, turn = GamePhase.STORM, game.turn
    elif game.phase is GamePhase.MENTAT_PAUSE:
        nxt, turn = GamePhase.STORM, game.turn + 1
    else:
        nxt, turn = TURN_PHASES[TURN_PHASES.index(game.phase) + 1], game.turn
    state.set_game(phase=nxt, turn=turn, step="", waiting=())
    return [PhaseBegan(turn, nxt.value)]


def _begin_shipment_movement(state: Position) -> list[Event]:
    used = Faction.SPACING_GUILD in state.whole.karama_powers_used  # once a game (1.14.05)
    state.phase = Phase(order=state.whole.order, started=True, guild_karama_used=used)
    state.set_game(step="running")
    return start_phase(state)


def _phase_action(state: Position, action: Action) -> list[Event]:
    if state.phase.complete:
        raise NotYourTurnError("the Shipment & Movement phase is over", rule=turn_flow.ORDER_RULE)
    handler = HANDLERS.get(type(action))
    if handler is None:
        raise NotYourTurnError(
            f"{action.name} is not an action of the Shipment & Movement phase",
            rule=turn_flow.ORDER_RULE,
        )
    events: list[Event] = []
    while state.phase.stages and not _keeps_stages(state, action):
        events += turn_flow.decline_stage(state)
    events += handler(state, action)
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
