"""What the session refuses, or reads into a request, before an action reaches the ledger."""

from __future__ import annotations

from bot.words import narrate
from rules.actions import Action, ClosePrompts, FactionAction, Pass
from rules.errors import MentatError, RulesError
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from rules.model import Step


class SessionError(MentatError):
    """A request the session cannot take (paused game, not a moderator, ...).

    ``rule`` names the game rule behind the refusal when there is one (e.g. an open
    Karama window, 3.01.11).
    """


class PromptClosedError(SessionError):
    """An answer to a prompt or step that is no longer open (a stale button)."""

    def __init__(self, how: str) -> None:
        super().__init__(f"this prompt has closed: {how}")
        self.how = how


def check_not_early(state: GameState, action: FactionAction) -> None:
    """While prompts are open, only their answers are taken: the rest waits, if it may be
    legal once they close (tried on a copy where the open stages are declined one by one,
    as when their windows run out, until it answers a prompt or none is left); what will
    not be gets the engine's own refusal, with its rule (a command of another phase or of
    another faction's turn, one the faction could never use, junk)."""
    prompts = state.public_view().prompts
    if not prompts or state.answers_open_prompt(action):
        return
    after: GameState | None = state.copy()
    try:
        while after is not None and after.open_prompts():
            if after.answers_open_prompt(action):
                break  # a later stage's prompt: its answer may be legal then
            after.apply(ClosePrompts())  # the window runs out: declined, the flow goes on
    except RulesError:
        after = None  # the flow cannot be told without an answer: the action waits
    if after is not None:
        after.apply(action)  # raises the engine's refusal: never legal once they close
    waiting = " ".join(narrate.describe_prompt(p) for p in prompts)
    rule = state.open_prompts()[0].rule
    raise SessionError(f"please wait until this closes: {waiting}", rule=rule)


def bare_pass_step(state: GameState, faction: Faction, last: Action | None) -> str | None:
    """The step a ``/pass`` without one means: the step the faction is in, except right
    after its own shipment pass (``last``): a repeated bare pass (a double Enter, a laggy
    retry) means the shipment again, and is refused as already passed. In the other
    phases of a whole turn a pass has no step (no storm card, done with the Nexus...)."""
    if state.game_phase is not GamePhase.SHIPMENT_MOVEMENT:
        return None
    if faction in state.phase.done:
        return "movement"
    turn = state.phase.turn
    if turn is None or turn.faction != faction:
        return None
    just_passed = isinstance(last, Pass) and last.faction == faction and turn.moves_made == 0
    if turn.step is Step.MOVE and not just_passed:
        return "movement"
    return "shipment"
