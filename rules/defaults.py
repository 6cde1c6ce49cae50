"""What a faction's choice is when its deadline passes without an answer.

The session applies :func:`default_action` to each faction a choice phase still waits on
when time runs out (docs/whole-turn-readings.md, "Defaults on a deadline", lists the
readings). Every default is one of the engine's legal actions, chosen without chance, so the
same position always gets the same default. The Shipment & Movement phase keeps its own
defaults (a faction passes its step; open prompts are declined), and the phases the
moderator records have none.
"""

from __future__ import annotations

from functools import partial

from rules.actions import AnswerTruthtrance, FactionAction, Pass
from rules.factions import Faction
from rules.legal import is_legal
from rules.phase_spec import first_of
from rules.phases import REGISTRY
from rules.position import Position
from rules.truthtrance_model import NO_ANSWER


def default_action(state: Position, faction: Faction) -> FactionAction | None:
    """The legal action that answers for ``faction`` by default now (None: nothing awaited
    of it here, or a phase without defaults). Each phase's pick is its spec's ``default``
    (the registry); a pass, else the first legal action, when it picks none."""
    game = state.game
    question = game.truthtrance
    if question is not None and question.open:  # Truthtrance: no answer given (T4)
        return AnswerTruthtrance(faction, NO_ANSWER) if faction is question.target else None
    if faction not in game.waiting:
        return None
    spec = REGISTRY.get(game.phase)
    if spec is None or spec.offered is None:
        return None
    legal = [a for a in spec.offers(state, faction) if is_legal(state, a)]
    if not legal:
        return None
    picked = spec.default(state, faction, legal, partial(is_legal, state)) if spec.default else None
    return picked or first_of(legal, Pass) or legal[0]
