"""The CHOAM Charity phase's declaration for the registry (:data:`rules.phases.REGISTRY`)."""

from __future__ import annotations

from rules.choam_charity.actions import ClaimCharity
from rules.choam_charity.charity import (
    PHASE_RULE,
    CharityStep,
    begin,
    candidates,
    claim,
    claims_open,
    decline,
    default,
)
from rules.game_model import GamePhase
from rules.phase_spec import PhaseSpec, PhaseWaits, handlers, on

SPEC = PhaseSpec(
    phase=GamePhase.CHOAM_CHARITY,
    rule=PHASE_RULE,
    steps=CharityStep,
    begin=begin,
    handlers=handlers(on(ClaimCharity, claim)),
    pass_=decline,
    offered=candidates,
    default=default,
    waits=PhaseWaits(asked_alike=claims_open),
    declinable=frozenset({CharityStep.CLAIMS}),
)
