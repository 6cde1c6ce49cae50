"""The Revival phase's declaration for the registry (:data:`rules.phases.REGISTRY`)."""

from __future__ import annotations

from rules.actions import PlayGhola, RecordGhola
from rules.game_model import GamePhase
from rules.phase_spec import PhaseSpec, PhaseWaits, handlers, on
from rules.revival.actions import KaramaRevive, PayAllyRevival, RecordRevival, Revive
from rules.revival.ghola import ghola_candidates, karama_revive, play_ghola
from rules.revival.model import PHASE_RULE, RevivalStep, reviving
from rules.revival.phase import (
    after_prevent,
    begin,
    candidates,
    default,
    left_to_moderators,
    pass_,
    pay_ally_revival,
    phase_done,
    revive,
)
from rules.revival.record import record_ghola, record_revival, records

SPEC = PhaseSpec(
    phase=GamePhase.REVIVAL,
    rule=PHASE_RULE,
    steps=RevivalStep,
    begin=begin,
    handlers=handlers(
        on(Revive, revive),
        on(KaramaRevive, karama_revive),
        on(PayAllyRevival, pay_ally_revival),
        on(RecordRevival, record_revival),
        on(RecordGhola, record_ghola),
    ),
    pass_=pass_,
    phase_done=phase_done,
    offered=candidates,
    default=default,
    waits=PhaseWaits(left_to_moderators=left_to_moderators, asked_alike=reviving),
    declinable=frozenset({RevivalStep.REVIVE}),
    own_answers=(Revive, KaramaRevive),
    records=records,
    any_time=handlers(on(PlayGhola, play_ghola)),  # Tleilaxu Ghola, any time (3.01.20)
    any_time_offered=ghola_candidates,
    prevented=after_prevent,
)
