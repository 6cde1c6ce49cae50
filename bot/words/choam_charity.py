"""Words for the CHOAM Charity phase the engine runs (1.03): the charity paid, a claim in
its faction's words, what the phase asks and what a pass declines. :data:`WORDS` registers
them for the generic words (:mod:`bot.words.phase_words`).
"""

from __future__ import annotations

from bot.words.phase_words import OrderWords, PhaseWords, register
from rules.actions import Action
from rules.choam_charity.actions import ClaimCharity
from rules.choam_charity.charity import CHARITY_RULE, CharityStep, claims_open
from rules.choam_charity.events import CharityPaid
from rules.choam_charity.orders import ORDER
from rules.events import Event
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase


def describe_charity_event(event: Event) -> str | None:
    """The public sentence of a charity paid (None for any other event)."""
    match event:
        case CharityPaid(faction=faction, amount=amount):
            return f"{faction.label} receives {amount} spice of CHOAM Charity."
    return None


def answer_words(action: Action) -> str | None:
    """A claim in its faction's words (None for any other action)."""
    return "you claim CHOAM Charity" if isinstance(action, ClaimCharity) else None


def options(state: GameState, faction: Faction) -> list[str]:
    """The claim, in words, when it is offered now."""
    if any(isinstance(a, ClaimCharity) for a in state.legal_actions(faction)):
        return ["claim CHOAM Charity, up to 2 spice (`/charity`)"]
    return []


def declined(state: GameState, faction: Faction) -> tuple[str, str, str | None] | None:
    """What a pass declines while the claims are open: the charity."""
    if not claims_open(state.whole):
        return None
    return "you do not claim CHOAM Charity", "CHOAM Charity", CHARITY_RULE


ORDER_WORDS = {
    "claim": "always claim it when you may (else decline it)",
    "pass": "never claim it",
}
"""Each value of the charity's standing order (:mod:`rules.choam_charity.orders`), in words."""


def _order(value: str) -> str:
    return ORDER_WORDS.get(value, "as ordered")


WORDS = register(
    PhaseWords(
        GamePhase.CHOAM_CHARITY,
        name="CHOAM Charity",
        describe=describe_charity_event,
        answer=answer_words,
        options=options,
        steps={CharityStep.CLAIMS: "whether to claim CHOAM Charity"},
        step_passes={CharityStep.CLAIMS: "pass (no charity)"},
        declines=declined,
        passes={"": "claims no CHOAM Charity"},
        order=OrderWords(ORDER.name, "Charity", _order),
    )
)
"""The CHOAM Charity phase's words (its event, its claim, its step and its pass), for the
generic words."""
