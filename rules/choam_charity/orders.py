"""The CHOAM Charity phase's standing order (1.03): "claim" (always claim it when the
faction may, else decline it) or "pass" (never claim it). Pure, like the rest of the
engine; the bot finds it by the phase's name (``rules.<phase>.orders`` exporting ``ORDER``)
and never names it.
"""

from __future__ import annotations

from typing import Final

from rules.actions import FactionAction, Pass
from rules.choam_charity.actions import ClaimCharity
from rules.choam_charity.charity import claims_open
from rules.factions import Faction
from rules.game import GameState

VALUES: Final = frozenset({"claim", "pass"})
"""Each value the order may hold ("ask" aside): its words are the phase's
(:mod:`bot.words.choam_charity`)."""


class CharityOrder:
    """The CHOAM Charity phase's order kind: its name, its values and the answer it gives."""

    name: Final = "charity"
    side_actions: Final[tuple[type[FactionAction], ...]] = ()

    def valid(self, value: str) -> bool:
        return value in VALUES

    def answer(self, state: GameState, faction: Faction, value: str) -> FactionAction | None:
        """ "claim": the claim when the faction may (0 or 1 spice), else a pass; "pass": a
        pass; None outside the claims."""
        if not claims_open(state.whole):
            return None
        claim = ClaimCharity(faction)
        return claim if value == "claim" and state.is_legal(claim) else Pass(faction)

    def as_a_pass(self, state: GameState, faction: Faction) -> tuple[FactionAction, ...]:
        """None: a claim is an answer."""
        del state, faction
        return ()


ORDER = CharityOrder()
"""The CHOAM Charity phase's order kind, as the bot's standing orders look it up."""
