"""The Storm phase's declaration for the registry (:data:`rules.phases.REGISTRY`): what it
offers a faction now and its pick on a deadline."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rules.actions import Action, FactionAction, Pass
from rules.factions import Faction
from rules.game_model import GamePhase
from rules.phase_spec import PhaseSpec, PhaseWaits, handlers, on
from rules.position import Position
from rules.storm.actions import Dial, FamilyAtomics, FremenStormLosses, WeatherControl
from rules.storm.cards import (
    FAMILY_ATOMICS,
    WEATHER_CONTROL,
    WEATHER_CONTROL_RANGE,
    family_atomics,
    pass_cards,
    playable,
    weather_control,
)
from rules.storm.dials import begin, dial, dial_range
from rules.storm.fremen import fremen_losses
from rules.storm.model import PHASE_RULE, StormStep, asking_storm_cards
from rules.storm.view import VIEW


def candidates(state: Position, faction: Faction) -> list[FactionAction]:
    game = state.whole
    if faction not in game.waiting:
        return []
    if game.step == StormStep.FREMEN_LOSSES:
        return [
            FremenStormLosses(faction, territory, sector, n)
            for territory, sector, lost in game.fremen_losses
            for n in range(min(lost, state.stack(faction, territory, sector).special) + 1)
        ]
    if game.step == StormStep.STORM_CARDS:
        cards = playable(state, faction)
        out: list[FactionAction] = [Pass(faction)]
        if WEATHER_CONTROL in cards:
            out += [WeatherControl(faction, n) for n in WEATHER_CONTROL_RANGE]
        if FAMILY_ATOMICS in cards:
            out.append(FamilyAtomics(faction))
        return out
    if game.step != StormStep.DIAL:
        return []
    return [Dial(faction, v) for v in dial_range(state)]


def default(
    state: Position,
    faction: Faction,
    legal: Sequence[FactionAction],
    is_legal: Callable[[Action], bool],
) -> FactionAction | None:
    """The lowest dial allowed (0 on turn 1, 1 after); as few Fedaykin lost as the rules
    allow, stack by stack; storm cards: none played (the fallback, a pass)."""
    dials = [a for a in legal if isinstance(a, Dial)]
    losses = [a for a in legal if isinstance(a, FremenStormLosses)]
    return min(dials, key=lambda a: a.value, default=None) or min(
        losses, key=lambda a: a.special, default=None
    )


SPEC = PhaseSpec(
    phase=GamePhase.STORM,
    rule=PHASE_RULE,
    steps=StormStep,
    begin=begin,
    handlers=handlers(
        on(Dial, dial),
        on(WeatherControl, weather_control),
        on(FamilyAtomics, family_atomics),
        on(FremenStormLosses, fremen_losses),
    ),
    pass_=pass_cards,
    offered=candidates,
    default=default,
    waits=PhaseWaits(asked_alike=asking_storm_cards),
    declinable=frozenset({StormStep.STORM_CARDS}),
    views=(VIEW,),
)
