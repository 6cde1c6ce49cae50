"""The Battle phase's choices in words (bot.words.battle): what a side is told it may put
in its plan."""

from __future__ import annotations

from bot.words.battle import battle_options, foreseen_line, foreseen_lines
from rules.factions import Faction
from rules.game import GameState
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


def karama_plan_battle() -> GameState:
    state = at_battle(
        advanced=True, seats=SEATS, board=BOARD, factions={"atreides": {"cards": ("Karama",)}}
    )
    act(state, "atreides", "prescience", ask="plan")
    return state


def test_the_karama_plan_is_awaited_then_shown_to_the_atreides_alone() -> None:
    state = karama_plan_battle()
    awaited = foreseen_line(state.view_for(Faction.ATREIDES))
    assert awaited is not None and "it is not in yet" in awaited
    assert foreseen_line(state.view_for(Faction.EMPEROR)) is None
    events = act(state, "emperor", "battle_plan", territory="Carthag", leader="Bashar", number=1)
    mine = foreseen_lines(events, state.view_for(Faction.ATREIDES))
    assert mine == [
        "Your Karama shows you Emperor's whole battle plan: Bashar, dial 1, no card "
        "(only you see it, rule 1.14.01)."
    ]
    assert foreseen_lines(events, state.view_for(Faction.EMPEROR)) == []


def test_atreides_who_lock_first_see_the_plan_at_the_reveal_only() -> None:
    state = karama_plan_battle()
    act(state, "atreides", "battle_plan", territory="Carthag", leader="Duncan Idaho", number=1)
    events = act(state, "emperor", "battle_plan", territory="Carthag", leader="Bashar", number=1)
    assert any(e.kind == "plan_revealed" for e in events)
    assert foreseen_line(state.view_for(Faction.ATREIDES)) is None  # the reveal shows it
    assert foreseen_lines(events, state.view_for(Faction.ATREIDES)) == []
