"""What a game waits on: the faction to act, an open stage of prompts, the factions whose
choice a phase awaits, or the moderators recording a phase.

A :class:`Wait`'s ``key`` names it exactly, so the session can tell whether what is
awaited changed (a new deadline, new prompt messages) or not (a correction, a pause, one
of several factions answering a choice they all make).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from rules.phases import REGISTRY

STEP, PROMPT, CHOICE, MODERATORS = "step", "prompt", "choice", "moderators"


@dataclass(frozen=True, slots=True)
class Wait:
    """What the game waits on now: its identity, kind and who may end it.

    ``kind`` is "step" (a faction's Shipment & Movement step), "prompt" (an open stage of
    prompts), "choice" (the factions a phase waits on: set-up, dials, Nexus, charity...) or
    "moderators" (a phase the moderators record; no faction is asked). ``questions`` says,
    for each of ``factions`` in a choice, what it is asked (so a changed question shows).
    """

    key: str
    kind: str
    factions: tuple[Faction, ...]
    questions: tuple[str, ...] = ()

    def question(self, faction: Faction) -> str:
        if faction in self.factions and len(self.questions) == len(self.factions):
            return self.questions[self.factions.index(faction)]
        return ""


def game_over(state: GameState) -> bool:
    """A game is over when it is won (or ends), or once the one phase it was to play is
    done (a Shipment & Movement phase played alone)."""
    return state.game.phase is GamePhase.OVER or state.game.stopped


def wait_of(state: GameState) -> Wait | None:
    """What ``state`` waits on (None once the game is over, or a scenario halted it)."""
    game = state.game
    question = game.truthtrance
    if question is not None and question.open:  # Truthtrance: the game waits for the answer
        key = f"game:{game.turn}:{game.phase.value}:truthtrance:{question.number}"
        return Wait(key, CHOICE, (question.target,), ("truthtrance_answer",))
    spec = REGISTRY.get(game.phase)  # None: the game is over
    if spec is not None and spec.dispatch is not None:  # turns and prompts (1.06)
        wait = _phase_wait(state)
        return None if wait is None else replace(wait, key=f"t{game.turn}:{wait.key}")
    if spec is None or game.halted or game.stopped:
        return None
    where = f"game:{game.turn}:{game.phase.value}"
    if spec.waits.left_to_moderators(game):
        return Wait(f"{where}:record", MODERATORS, ())
    if not game.waiting:
        return None
    questions = tuple(
        ",".join(sorted({a.name for a in spec.offers(state, f)})) if spec.offered else ""
        for f in game.waiting
    )
    step = f"{game.step}{spec.waits.step_part(game)}"
    key = f"{where}:{step}:{game.chance.draws}{spec.waits.turn_part(state)}"
    return Wait(key, CHOICE, game.waiting, questions)


def _phase_wait(state: GameState) -> Wait | None:
    """One Shipment & Movement phase: the open prompts first, else the faction's step."""
    if state.is_complete:
        return None
    prompts = state.open_prompts()
    if prompts:
        who = tuple(dict.fromkeys(f for p in prompts for f in p.waiting_on()))
        parts = [f"{p.kind.value}/{p.subject}/{p.ability}/{p.territory}" for p in prompts]
        return Wait("prompts:" + "|".join(parts), PROMPT, who)
    turn = state.phase.turn
    assert turn is not None
    key = f"turn:{turn.faction.value}:{turn.step.value}:{turn.moves_made}:{turn.hajr_played}"
    return Wait(key + f":{sorted(f.value for f in state.phase.done)}", STEP, (turn.faction,))
