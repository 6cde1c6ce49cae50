"""The plan builder's menus and drafts, from the engine's plan options (1.07.04)."""

from __future__ import annotations

from typing import Any

from bot.words.plan_builder import (
    NONE,
    WITH_KH,
    Draft,
    choose,
    first_draft,
    menus,
    plan_of,
    summary,
)
from rules.battle.actions import BattlePlan
from rules.battle.plans import options_now
from rules.factions import Faction
from rules.game import GameState
from tests.rules.battle_helpers import at_battle, duel
from tests.rules.helpers import act

F = Faction


def test_the_menus_offer_what_the_engine_allows_and_the_draft_makes_a_legal_plan() -> None:
    state = duel({"cards": ("Lasgun", "Shield", "Cheap Hero", "Baliset")})
    options = options_now(state, F.HARKONNEN)
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
    options = options_now(state, F.HARKONNEN)
    assert options is not None
    offered = menus(options)
    assert options.max_spice and [v for _, v in offered["spice"]][-1] == str(options.max_spice)
    dials = [v for _, v in offered["number"]]
    assert dials[-1] == f"{options.max_number:g}" and all(len(offered[k]) <= 25 for k in offered)
    draft = first_draft(options).choose("number", dials[-1]).choose("spice", str(options.max_spice))
    assert state.is_legal(plan_of(F.HARKONNEN, options, draft))
    words = summary(state, F.HARKONNEN, options, draft)
    assert "**Spice…**" in words and f"paying {options.max_spice} spice" in words
    assert "Kwisatz Haderach" not in words  # the Harkonnen have none


def test_a_number_needing_spice_raises_it_and_less_spice_lowers_the_number() -> None:
    """Advanced: 5 Harkonnen forces dial 2.5 unpaid, 5 with 5 spice; every label says what
    a choice needs or allows, and the draft stays a legal plan."""
    state = duel(advanced=True)
    options = options_now(state, F.HARKONNEN)
    assert options is not None and options.dials == (2.5, 3, 3.5, 4, 4.5, 5)
    offered = menus(options)
    assert ("Dial 2.5", "2.5") in offered["number"]
    assert ("Dial 4 (pay 3 spice or more)", "4") in offered["number"]
    assert ("Pay 1 spice (dial up to 3)", "1") in offered["spice"]
    draft = choose(options, first_draft(options), "number", "4")
    assert (draft.number, draft.spice) == (4, 3)
    assert state.is_legal(plan_of(F.HARKONNEN, options, draft))
    more = choose(options, draft, "spice", "5")
    assert (more.number, more.spice) == (4, 5)  # more spice keeps the dial (fewer losses)
    less = choose(options, more, "spice", "1")
    assert (less.number, less.spice) == (3, 1)
    assert state.is_legal(plan_of(F.HARKONNEN, options, less))
    for junk in ("junk", "-1", "99", "1e9", "9" * 100):  # never past what may be paid
        odd = choose(options, less, "spice", junk)
        assert 0 <= odd.spice <= options.max_spice
        assert odd.number <= options.dials[odd.spice]


def atreides_at_plans(**fields: Any) -> GameState:
    """The Atreides (aggressor, a Cheap Hero in hand) against the Harkonnen in Arrakeen, at
    the plans (no Prescience)."""
    state = at_battle(
        seats=["atreides", "harkonnen", None, None, None, None],
        factions={"atreides": {"cards": ("Cheap Hero",)}},
        board=[("atreides", "Arrakeen", 9, 6), ("harkonnen", "Arrakeen", 9, 3)],
        **fields,
    )
    act(state, "atreides", "pass")
    assert state.whole.step == "plans"
    return state


def test_the_kwisatz_haderach_is_a_choice_of_the_leader_menu_when_it_may_fight() -> None:
    state = atreides_at_plans(advanced=True, kwisatz_haderach_active=True)
    options = options_now(state, F.ATREIDES)
    assert options is not None and options.kwisatz_haderach
    leader_menu = menus(options)["leader"]
    assert ("Duncan Idaho with the Kwisatz Haderach", WITH_KH + "Duncan Idaho") in leader_menu
    assert ("Cheap Hero with the Kwisatz Haderach", WITH_KH + "Cheap Hero") in leader_menu
    assert len(leader_menu) == 12 and all(len(v) <= 100 for _, v in leader_menu)
    draft = choose(options, first_draft(options), "leader", WITH_KH + "Duncan Idaho")
    assert (draft.leader, draft.kwisatz_haderach) == ("Duncan Idaho", True)
    assert draft.leader_value == WITH_KH + "Duncan Idaho"
    plan = plan_of(F.ATREIDES, options, draft)
    assert plan.kwisatz_haderach and state.is_legal(plan)
    assert "Duncan Idaho with the Kwisatz Haderach" in summary(state, F.ATREIDES, options, draft)
    plain = choose(options, draft, "leader", "Duncan Idaho")
    assert not plain.kwisatz_haderach  # choosing the leader alone leaves it out
    # inactive, or in the basic game: no such entry
    for fields in ({"advanced": True}, {"kwisatz_haderach_active": True}):
        basic = atreides_at_plans(**fields)
        opts = options_now(basic, F.ATREIDES)
        assert opts is not None and not opts.kwisatz_haderach
        assert not any(v.startswith(WITH_KH) for _, v in menus(opts)["leader"])


def test_a_dial_menu_past_25_keeps_every_whole_number() -> None:
    """20 forces with 10 spice dial up to 15 in halves (31 numbers): the menu keeps 0 to 15
    and the lowest halves, 25 in all, and its top number makes a legal plan."""
    state = duel(advanced=True, forces=(20, 3))
    options = options_now(state, F.HARKONNEN)
    assert options is not None and options.max_number == 15 and options.max_spice == 10
    dials = [v for _, v in menus(options)["number"]]
    assert len(dials) == 25 and dials[-1] == "15"
    assert {str(n) for n in range(16)} <= set(dials) and "0.5" in dials
    draft = choose(options, first_draft(options), "number", "15")
    assert draft.spice == 10 and state.is_legal(plan_of(F.HARKONNEN, options, draft))


def voiced(command: str, kind: str, cards: tuple[str, ...]) -> GameState:
    """The Atreides (holding ``cards``) at their plan, the Bene Gesserit's Voice on them."""
    state = at_battle(
        seats=["bene_gesserit", "harkonnen", "atreides", "fremen", "emperor", "spacing_guild"],
        factions={"atreides": {"cards": cards}},
        board=[("bene_gesserit", "Arrakeen", 9, 4), ("atreides", "Arrakeen", 9, 4)],
    )
    act(state, "bene_gesserit", "voice", command=command, kind=kind)
    act(state, "atreides", "pass")  # no Prescience
    assert state.whole.step == "plans"
    return state


def test_the_menus_follow_the_voice_and_the_first_draft_obeys_it() -> None:
    """2.02.06: a card of a kind the Voice forbids is not offered; commanded to play a kind,
    the builder starts with a card of it (as the deadline's default would): its draft, locked
    at once, is a legal plan."""
    cards = ("Crysknife", "Snooper", "Baliset", "Cheap Hero")
    forbidden = voiced("not_play", "worthless", cards)
    options = options_now(forbidden, F.ATREIDES)
    assert options is not None
    offered = menus(options)
    assert [v for _, v in offered["weapon"]] == [NONE, "Crysknife"]
    assert [v for _, v in offered["defense"]] == [NONE, "Snooper"]
    assert choose(options, first_draft(options), "weapon", "Baliset").weapon is None  # forged
    no_hero = options_now(voiced("not_play", "Cheap Hero", cards), F.ATREIDES)
    assert no_hero is not None and "Cheap Hero" not in dict(menus(no_hero)["leader"]).values()
    for command, kind, slot, card in (
        ("play", "projectile weapon", "weapon", "Crysknife"),
        ("play", "poison defense", "defense", "Snooper"),
        ("play", "worthless", "weapon", "Baliset"),
    ):
        state = voiced(command, kind, cards)
        options = options_now(state, F.ATREIDES)
        assert options is not None
        draft = first_draft(options)
        assert getattr(draft, slot) == card, (kind, draft)
        assert state.is_legal(plan_of(F.ATREIDES, options, draft)), kind
    state = voiced("play", "Cheap Hero", cards)
    options = options_now(state, F.ATREIDES)
    assert options is not None and first_draft(options).leader == "Cheap Hero"
    assert state.is_legal(plan_of(F.ATREIDES, options, first_draft(options)))


def test_values_outside_the_menus_leave_the_draft_as_it_was() -> None:
    """A forged or stale menu value (a card not held, a leader not free, the Kwisatz
    Haderach where it may not fight) changes nothing; the starting options are clamped."""
    state = duel({"cards": ("Lasgun", "Shield")})
    options = options_now(state, F.HARKONNEN)
    assert options is not None
    start = first_draft(options)
    for field, value in (
        ("leader", "Duke Leto Atreides"),
        ("leader", WITH_KH + start.leader_value),
        ("leader", "x" * 500),
        ("weapon", "Crysknife"),
        ("weapon", "Shield"),
        ("defense", "Lasgun"),
    ):
        assert choose(options, start, field, value) == start, (field, value)
    asked = first_draft(options, spice=99, kwisatz_haderach=True)
    assert asked == start and not asked.kwisatz_haderach and asked.spice == 0
    words = summary(state, F.HARKONNEN, options, asked)
    assert "Kwisatz Haderach" not in words
