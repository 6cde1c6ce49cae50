"""The CHOAM Charity Phase (1.03): a faction holding 0 or 1 spice may claim up to 2.

The claim is optional and at most one per turn (1.03.02). Spice is behind shields, so the
game asks every faction alike (docs/secrets-and-waits.md): whom it waits on never tells
who holds 0 or 1 spice; whether a faction may claim is checked at its claim, so spice
received during the phase (the Emperor's gift) counts. The advanced Bene Gesserit
receive 2 whatever they hold, without asking (2.02.09; reading D10: advanced only unless
the table's ``bg_charity`` switch says "always"): they alone are not asked. The phase's own
action (``ClaimCharity``) and event (``CharityPaid``) are declared in this package.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum

from rules import karama_turn
from rules.actions import Action, FactionAction, Pass
from rules.choam_charity.actions import ClaimCharity
from rules.choam_charity.events import CharityPaid
from rules.errors import IllegalActionError, NotYourTurnError
from rules.events import Event, Passed
from rules.factions import Faction
from rules.game_model import GamePhase, PhaseStep
from rules.model import Ability
from rules.phase_spec import Stepped, first_of
from rules.position import Position
from rules.variants import BgCharity

CHARITY_RULE = "1.03.01"
BG_CHARITY_RULE = "2.02.09"
CHARITY_LEVEL = 2
PHASE_RULE = "1.03"


class CharityStep(StrEnum):
    """The phase's one step: the factions asked answer (claim or pass)."""

    CLAIMS = "claims"


def bg_always(state: Position) -> bool:
    return Faction.BENE_GESSERIT in state.factions and (
        state.rules.advanced or state.rules.bg_charity is BgCharity.ALWAYS
    )


def begin(state: Position) -> list[Event]:
    events: list[Event] = []
    bg_paid = False
    if bg_always(state):
        bg_paid, stopped = karama_turn.uses(state, Ability.BG_CHARITY)
        events += stopped
    if bg_paid:
        paid = state.from_bank(Faction.BENE_GESSERIT, CHARITY_LEVEL)
        events.append(CharityPaid(Faction.BENE_GESSERIT, paid, BG_CHARITY_RULE))
    waiting = tuple(f for f in state.whole.order if asked(f, bg_paid=bg_paid))
    state.set_game(waiting=waiting, step=CharityStep.CLAIMS if waiting else PhaseStep.DONE)
    return events


def asked(faction: Faction, *, bg_paid: bool = False) -> bool:
    """Every faction is asked, on public facts only: all but the Bene Gesserit once paid
    their own charity (an announced payment)."""
    return not (faction is Faction.BENE_GESSERIT and bg_paid)


def may_claim(state: Position, faction: Faction) -> bool:
    """A faction holding 0 or 1 spice now (1.03.01)."""
    return state.factions[faction].spice < CHARITY_LEVEL


def _require(state: Position, faction: Faction) -> None:
    if not state.in_phase(GamePhase.CHOAM_CHARITY) or state.whole.step != CharityStep.CLAIMS:
        raise NotYourTurnError("CHOAM Charity is not being paid now", rule=CHARITY_RULE)
    if faction not in state.whole.waiting:
        raise NotYourTurnError(
            f"{faction.label} is not asked about CHOAM Charity any more this turn: a faction "
            "answers once a turn",
            rule=CHARITY_RULE,
        )


def claim(state: Position, action: ClaimCharity) -> list[Event]:
    _require(state, action.faction)
    if not may_claim(state, action.faction):
        raise IllegalActionError(
            f"{action.faction.label} holds {state.factions[action.faction].spice} spice: only "
            "a faction holding 0 or 1 spice may claim CHOAM Charity",
            rule=CHARITY_RULE,
        )
    amount = CHARITY_LEVEL - state.factions[action.faction].spice
    paid = state.from_bank(action.faction, amount)
    _done(state, action.faction)
    return [CharityPaid(action.faction, paid, CHARITY_RULE)]


def decline(state: Position, action: Pass) -> list[Event]:
    _require(state, action.faction)
    _done(state, action.faction)
    return [Passed(action.faction, "choam_charity")]


def _done(state: Position, faction: Faction) -> None:
    waiting = tuple(f for f in state.whole.waiting if f != faction)
    state.set_game(waiting=waiting, step=CharityStep.CLAIMS if waiting else PhaseStep.DONE)


def candidates(state: Position, faction: Faction) -> list[FactionAction]:
    if state.whole.step != CharityStep.CLAIMS or faction not in state.whole.waiting:
        return []
    return [ClaimCharity(faction), Pass(faction)]


def claims_open(game: Stepped) -> bool:
    """Every faction asked answers alike, claim or pass (docs/secrets-and-waits.md)."""
    return game.phase == GamePhase.CHOAM_CHARITY and game.step == CharityStep.CLAIMS


def default(
    state: Position,
    faction: Faction,
    legal: Sequence[FactionAction],
    is_legal: Callable[[Action], bool],
) -> FactionAction | None:
    """Claimed: it costs the faction nothing."""
    return first_of(legal, ClaimCharity)
