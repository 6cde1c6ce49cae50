"""Words for the choices of a whole game: what a faction is asked, what its default or
standing order answered, what the moderators are to record, and who is awaited.

The texts addressed to one faction (:func:`choice_prompt`, :func:`answer_words`) may name its
secrets (its traitor, its dial); they go to that faction alone. :func:`describe_game_wait` and
:func:`to_record` read only public material. A phase's own words (its prompt, its wait, its
steps, answers, options and passes) are its words module's, found in
:mod:`bot.words.phase_words`; this module holds the generic ones and those of the phases
without a words module of their own.
"""

from __future__ import annotations

from bot.orders import asked_alike
from bot.publisher import PrivateNotice
from bot.waits import Wait
from bot.words import phase_words
from bot.words import truthtrance as truthtrance_words
from bot.words.answers import buttons
from bot.words.turn import phase_name
from rules.actions import (
    Action,
    Ally,
    AnswerTruthtrance,
    BreakAlliance,
    Pass,
    PhaseDone,
    PlaceAdvisor,
    PlaceFremen,
    PlaceWorm,
    Predict,
    RideWorm,
)
from rules.defaults import default_action
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from rules.spice_blow import SpiceBlowStep
from rules.view import PublicView


def phase_title(phase: str) -> str:
    """A phase in words, as the public log names it ("Spice Blow")."""
    return phase_name(phase)


def _names(factions: tuple[Faction, ...] | list[Faction]) -> str:
    labels = [f.label for f in factions]
    if len(labels) <= 1:
        return "".join(labels)
    return ", ".join(labels[:-1]) + " and " + labels[-1]


def describe_game_wait(view: PublicView) -> str:
    """Who a game waits for now, in public words ("" in the Shipment & Movement phase,
    which :func:`bot.words.narrate.describe_wait` tells)."""
    game = view.game
    if game.in_shipment_movement:
        return ""
    if game.phase == GamePhase.OVER.value:
        return ""
    title = phase_title(game.phase)
    if not game.waiting:
        return ""
    for words in phase_words.of(game.phase):
        if words.wait is not None:
            return words.wait(view)
    return f"Waiting for {_names(game.waiting)} ({title}: {_step_words(game.phase, game.step)})."


STEP_WORDS: dict[str, str] = {
    **dict.fromkeys((SpiceBlowStep.NEXUS_A, SpiceBlowStep.NEXUS_B), "the Nexus: alliances"),
    **dict.fromkeys(
        (SpiceBlowStep.RIDE_A, SpiceBlowStep.RIDE_B), "whether the Fremen ride the worm"
    ),
    **dict.fromkeys(
        (SpiceBlowStep.WORM_A, SpiceBlowStep.WORM_B), "where the Fremen place the worm"
    ),
}
"""What a choice's step waits for, in public words (a phase's words module says its own:
:attr:`bot.words.phase_words.PhaseWords.steps`)."""


def _step_words(phase: str, step: str) -> str:
    for words in phase_words.of(phase):
        if step in words.steps:
            return words.steps[step]
    return STEP_WORDS.get(step) or "their choices"


def to_record(phase: str, turn: int) -> str:
    """For the moderators, where a phase waits for them (the revivals recorded, its
    "phase done"): what to do."""
    what = "record the phase, then `/mod record done`"
    return f"Turn {turn}, {phase_title(phase)} phase: please {what}."


def answer_words(action: Action, phase: str = "") -> str:
    """An answer in the words of the faction that gave it ("you dial 2"); ``phase``, the
    game's phase, names what a pass means there."""
    for words in phase_words.every():
        said = words.answer(action) if words.answer is not None else None
        if said:
            return said
    if isinstance(action, Pass):
        passed = [w.pass_answer for w in phase_words.of(phase) if w.pass_answer]
        if passed:
            return passed[0]
    match action:
        case Predict():
            who = Faction.parse(action.who)
            return f"you predict {who.label if who else action.who} will win on turn {action.turn}"
        case PlaceFremen():
            return (
                f"you place {action.sietch_tabr} forces in Sietch Tabr, {action.false_wall_south} "
                f"in False Wall South and {action.false_wall_west} in False Wall West"
            )
        case PlaceAdvisor():
            sector = f" (sector {action.sector})" if action.sector is not None else ""
            return f"you place your advisor in {action.to}{sector}"
        case PlaceWorm():
            return f"you place the worm in {action.territory}"
        case RideWorm():
            return f"you ride the worm to {action.to}"
        case Ally():
            other = Faction.parse(action.with_)
            return f"you ask {other.label if other else action.with_} to ally"
        case BreakAlliance():
            return "you break your alliance"
        case Pass():
            return "you pass"
        case PhaseDone():
            return "the phase is closed"
        case AnswerTruthtrance():
            return truthtrance_words.answer_words(action.answer, action.remark)
    return f"you answer {action.name.replace('_', ' ')}"


def _options(state: GameState, faction: Faction) -> list[str]:
    """What ``faction`` may answer now, in words (never internal ids)."""
    legal = list(state.legal_actions(faction))
    kinds = {a.name for a in legal}
    out: list[str] = []
    for words in phase_words.every():  # a phase's own choices first
        out += words.options(state, faction) if words.options is not None else []
    if "predict" in kinds:
        out.append("predict which faction will win, and on which turn (`/predict`)")
    if "place_fremen" in kinds:
        out.append(
            "place your 10 forces in Sietch Tabr, False Wall South and False Wall West "
            "(`/fremen place`)"
        )
    if "place_advisor" in kinds:
        out.append("place your advisor in any territory (or the Polar Sink) (`/place-advisor`)")
    if "place_worm" in kinds:
        out.append("place the worm in a sand territory (`/fremen worm`)")
    if "ride_worm" in kinds:
        out.append("ride the worm to another territory (`/fremen ride`)")
    allies = [Faction.parse(a.with_) for a in legal if isinstance(a, Ally)]
    if allies:
        named = _names([f for f in allies if f is not None])
        out.append(f"ask to ally with {named} (`/ally`)")
    if "break_alliance" in kinds:
        out.append("break your alliance (`/ally-break`)")
    if "pass" in kinds:
        out.append(_pass_words(state) + " (`/pass` or the button)")
    return out


STEP_PASS_WORDS: dict[str, str] = {
    **dict.fromkeys((SpiceBlowStep.NEXUS_A, SpiceBlowStep.NEXUS_B), "pass (done with this Nexus)"),
    **dict.fromkeys((SpiceBlowStep.RIDE_A, SpiceBlowStep.RIDE_B), "pass (no ride)"),
}
"""What a pass declines, step by step (a phase's words module says its own:
:attr:`bot.words.phase_words.PhaseWords.step_passes`)."""


def _pass_words(state: GameState) -> str:
    game = state.game
    for words in phase_words.of(game.phase):
        if game.step in words.step_passes:
            return words.step_passes[game.step]
    return STEP_PASS_WORDS.get(game.step, "pass")


# -- what a /pass declines (bot.passes) ---------------------------------------------

NEXUS = ("you are done with this Nexus", "this Nexus", "1.10.01")
NO_RIDE = ("the Fremen stay where they are: no worm ride", "the worm ride", "2.04.08")
DECLINED: dict[str, tuple[str, str, str | None]] = {
    SpiceBlowStep.NEXUS_A: NEXUS,
    SpiceBlowStep.NEXUS_B: NEXUS,
    SpiceBlowStep.RIDE_A: NO_RIDE,
    SpiceBlowStep.RIDE_B: NO_RIDE,
}
"""Each step's pass: the reply to it ("you are done with this Nexus"), what it passed
on and the rule of that choice (a phase's words module says its own:
:attr:`bot.words.phase_words.PhaseWords.declines`)."""


def declined(state: GameState, faction: Faction) -> tuple[str, str, str | None] | None:
    """What a pass of ``faction`` declines now: the reply to it ("you do not use the
    Voice"), what it passed on and the rule of that choice (None: no such choice)."""
    for words in phase_words.of(state.game_phase):
        said = words.declines(state, faction) if words.declines is not None else None
        if said is not None:
            return said
    return DECLINED.get(state.whole.step)


def choice_prompt(
    state: GameState, faction: Faction, wait: Wait, token: str | None, deadline: str
) -> PrivateNotice:
    """What ``faction`` is asked in a choice phase: the choices in words, its spice, what
    happens if it does not answer, the deadline."""
    game = state.whole
    if truthtrance_words.is_asked(state, faction):  # the game waits for its answer
        return truthtrance_words.question_prompt(state, faction, token, deadline)
    for words in phase_words.of(game.phase):
        if words.prompt is not None:
            return words.prompt(state, faction, token, deadline)
    mine = state.view_for(faction)
    options = _options(state, faction)
    default = default_action(state, faction)
    fallback = f" If you do not answer in time, {answer_words(default)}." if default else ""
    lines = [
        f"**Turn {game.turn}, {phase_title(game.phase.value)}**: your choice.",
        "You may: " + "; ".join(options) + "." if options else "Nothing is asked of you now.",
        f"You hold {mine.spice} spice.{fallback} Deadline: {deadline}.",
        *filter(None, [asked_alike(state, faction)]),
    ]
    answers = buttons(state, state.legal_actions(faction))
    for words in phase_words.every():  # who holds a secret is asked as everyone alike
        answers = words.answers(state, faction, answers) if words.answers is not None else answers
    return PrivateNotice(faction, "\n".join(lines), answers=answers, token=token)
