"""The advanced Fremen's choice of their storm losses (2.04.16): how many Fedaykin are among
a stack's losses, where the storm took half of a stack holding both kinds."""

from __future__ import annotations

from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError, quote
from rules.events import Event, ForcesDestroyed
from rules.factions import Faction
from rules.model import Stack
from rules.position import Position
from rules.storm.actions import FremenStormLosses
from rules.storm.model import FREMEN_LOSSES_RULE, StormStep
from rules.storm.move import finish


def fremen_losses(state: Position, action: FremenStormLosses) -> list[Event]:
    """The Fremen say how many Fedaykin are among a stack's storm losses (2.04.16)."""
    game = state.whole
    if game.step != StormStep.FREMEN_LOSSES or action.faction is not Faction.FREMEN:
        raise NotYourTurnError(
            "no Fremen storm losses are to be chosen now", rule=FREMEN_LOSSES_RULE
        )
    territory = state.territory(action.territory, rule=FREMEN_LOSSES_RULE).name
    pending = next((p for p in game.fremen_losses if p[:2] == (territory, action.sector)), None)
    if pending is None:
        raise IllegalActionError(
            f"the Fremen have no storm losses to choose in {territory} sector "
            f"{quote(action.sector)}",
            rule=FREMEN_LOSSES_RULE,
        )
    stack = state.stack(Faction.FREMEN, territory, action.sector)
    lost = Stack(pending[2] - action.special, action.special)
    if action.special < 0 or not stack.covers(lost) or lost.forces < 0:
        raise InvalidActionError(
            f"{pending[2]} forces are lost there: 0 to {min(stack.special, pending[2])} of them "
            f"Fedaykin, not {quote(action.special)}",
            rule=FREMEN_LOSSES_RULE,
        )
    state.to_tanks(Faction.FREMEN, territory, action.sector, lost)
    left = tuple(p for p in game.fremen_losses if p is not pending)
    state.set_game(fremen_losses=left)
    events: list[Event] = [
        ForcesDestroyed(
            Faction.FREMEN,
            territory,
            action.sector,
            lost.forces,
            lost.special,
            0,
            "storm",
            FREMEN_LOSSES_RULE,
        )
    ]
    return events if left else events + finish(state)
