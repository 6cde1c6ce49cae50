"""The Battle phase's choices in words (bot.battle_words): what a side is told it may put
in its plan."""

from __future__ import annotations

from bot.battle_words import battle_options
from rules.factions import Faction
from tests.rules.battle_helpers import at_battle
from tests.rules.helpers import act

SEATS = ["atreides", None, None, None, "emperor", None]
BOARD = [("atreides", "Carthag", 10, 3), ("emperor", "Carthag", 10, 3)]


def plan_words(**kwargs: object) -> str:
    state = at_battle(advanced=True, seats=SEATS, board=BOARD, **kwargs)
    act(state, "atreides", "pass")  # no Prescience
    said = [o for o in battle_options(state, Faction.ATREIDES) if "`/battle-plan`" in o]
    assert len(said) == 1
    return said[0]


def test_the_plan_prompt_offers_the_kwisatz_haderach_once_active() -> None:
    words = plan_words(kwisatz_haderach_active=True, atreides_battle_losses=7)
    assert "Duncan Idaho" in words and "the Kwisatz Haderach beside your leader" in words


def test_no_kwisatz_haderach_before_it_is_active() -> None:
    assert "Kwisatz Haderach" not in plan_words()
