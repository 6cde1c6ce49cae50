"""The moderators' records: the checks every record shares.

A record (a card won, a battle's losses, a leader killed, a payment...) is a correction the
moderator makes while the engine runs a phase; it is checked against the rules it can be
checked against and leaves the phase where it stands. Each phase keeps its own records (the
Bidding phase's card won in :mod:`rules.bidding.record`, the Battle phase's in
:mod:`rules.battle.record`, the Revival phase's in :mod:`rules.revival.record`) and lists them
for the moderator (its spec's ``records``); "phase done" ends a phase early where the
engine allows it (its spec's ``phase_done``, :mod:`rules.phase_spec`).
"""

from __future__ import annotations

from rules.actions import FactionAction
from rules.errors import InvalidActionError, NotYourTurnError, quote
from rules.factions import Faction
from rules.game_model import GamePhase, PhaseStep
from rules.position import Position


def require(state: Position, action: FactionAction, phase: GamePhase, rule: str) -> None:
    """A record belongs to its phase, while the engine runs it: the records are the
    moderator's corrections (they leave the phase where it stands)."""
    game = state.whole
    if game.phase is not phase or game.step == PhaseStep.DONE:
        raise NotYourTurnError(
            f"{action.name} is recorded in the {phase.value.replace('_', ' ')} phase, "
            f"not now ({game.phase.value.replace('_', ' ')})",
            rule=rule,
        )


def check_amount(amount: int, what: str, rule: str) -> None:
    if amount < 0 or amount > 10_000:
        raise InvalidActionError(f"{what} cannot be {quote(amount)}", rule=rule)


def other_faction(state: Position, text: str | None, rule: str) -> Faction | None:
    if text is None or text.strip().lower() == "bank":
        return None
    found = Faction.parse(text)
    if found is None or found not in state.factions:
        raise InvalidActionError(f"{quote(text)} is not a faction in this game", rule=rule)
    return found
