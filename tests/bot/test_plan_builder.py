"""The plan builder's menus and drafts, from the engine's plan options (1.07.04)."""

from __future__ import annotations

from bot.plan_builder import NONE, Draft, first_draft, menus, plan_of, summary
from rules.actions import BattlePlan
from rules.factions import Faction
from tests.rules.battle_helpers import duel

F = Faction


def test_the_menus_offer_what_the_engine_allows_and_the_draft_makes_a_legal_plan() -> None:
    state = duel({"cards": ("Lasgun", "Shield", "Cheap Hero", "Baliset")})
    options = state.battle_plan_options(F.HARKONNEN)
    assert options is not None
    offered = menus(options)
    leaders = [v for _, v in offered["leader"]]
    assert leaders[-1] == "Cheap Hero" and NONE not in leaders  # one must lead
    assert [v for _, v in offered["number"]] == ["0", "1", "2", "3", "4", "5"]
    assert [v for _, v in offered["weapon"]] == [NONE, "Lasgun", "Baliset"]
    assert [v for _, v in offered["defense"]] == [NONE, "Shield", "Baliset"]
    assert "spice" not in offered and "kwisatz_haderach" not in offered  # basic game
    draft = first_draft(options)
    assert draft.leader == leaders[0]
    draft = draft.choose("number", "4").choose("weapon", "Lasgun").choose("defense", NONE)
    assert draft == Draft(leaders[0], 4, "Lasgun", None)
    assert draft.choose("number", "junk").number == 0 and draft.choose("number", "1e9").number == 0
    plan = plan_of(F.HARKONNEN, options, draft)
    assert plan == BattlePlan(F.HARKONNEN, "Carthag", leaders[0], 4, "Lasgun", None, 0, False)
    assert state.is_legal(plan)
    words = summary(state, F.HARKONNEN, options, draft)
    assert "against Emperor" in words and "dial 4" in words and "playing Lasgun" in words
    assert len(words) <= 2000


def test_the_advanced_game_offers_half_dials_and_spice() -> None:
    state = duel(advanced=True)
    options = state.battle_plan_options(F.HARKONNEN)
    assert options is not None
    offered = menus(options)
    assert options.max_spice and [v for _, v in offered["spice"]][-1] == str(options.max_spice)
    dials = [v for _, v in offered["number"]]
    assert dials[-1] == f"{options.max_number:g}" and all(len(offered[k]) <= 25 for k in offered)
    draft = first_draft(options).choose("number", dials[-1]).choose("spice", str(options.max_spice))
    assert state.is_legal(plan_of(F.HARKONNEN, options, draft))
    words = summary(state, F.HARKONNEN, options, draft)
    assert "`/battle-plan spice:`" in words and f"paying {options.max_spice} spice" in words
