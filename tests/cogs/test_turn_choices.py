"""The whole turn's choices in words (cogs.turn.choices) against engine positions:
each faction is offered its own legal choices only, and nothing when it is not its turn."""

from __future__ import annotations

import pytest

from cogs.battle.choices import traitors
from cogs.turn import choices as ch
from rules.actions import Pass, PlaceFremen, Predict
from rules.battle.actions import KeepTraitor
from rules.battle.view import traitor_secrets
from rules.factions import Faction
from rules.game import GameState
from rules.model import RuleSet
from tests.rules.game_helpers import game_at
from tests.rules.helpers import act

F = Faction
SEATS = [F.HARKONNEN, F.SPACING_GUILD, F.ATREIDES, F.FREMEN, F.EMPEROR, F.BENE_GESSERIT]
WORM = "Shai-Hulud"


def new_game(*, advanced: bool = True) -> GameState:
    return GameState.new_game(SEATS, seed=1234, rules=RuleSet(advanced=advanced))


def values(pairs: list[ch.Choice[str]] | list[ch.Choice[int]]) -> list[object]:
    return [value for _, value in pairs]


# -- set-up ---------------------------------------------------------------------------


def test_each_faction_is_offered_its_own_traitors_in_words() -> None:
    state = new_game()
    offered = {}
    for faction in F:
        secrets = state.view_for(faction).secrets
        assert secrets is not None
        offered[faction] = traitors(state, faction)
        if faction is not F.HARKONNEN:
            assert values(offered[faction]) == list(traitor_secrets(secrets).traitors_offered)
    assert offered[F.HARKONNEN] == []  # keeps all four: no choice to make
    assert len(offered[F.ATREIDES]) == 4
    label, value = offered[F.ATREIDES][0]
    owner = next(f for f in F if value in state.whole.leaders.get(f, ()))
    assert label.startswith(f"{value} ({owner.label}, strength ")
    names = [set(values(pairs)) for pairs in offered.values() if pairs]
    assert sum(len(n) for n in names) == len(set().union(*names))  # nobody sees another's


def test_a_kept_traitor_ends_the_choice() -> None:
    state = new_game()
    leader = traitors(state, F.ATREIDES)[1][1]
    state.apply(KeepTraitor(F.ATREIDES, leader))
    assert traitors(state, F.ATREIDES) == []
    assert traitors(state, F.EMPEROR)  # the others still choose


def test_only_the_bene_gesserit_are_offered_a_prediction() -> None:
    state = new_game()
    for faction in F:
        if faction is not F.BENE_GESSERIT:
            assert ch.predicted_factions(state, faction) == []
            assert ch.predicted_turns(state, faction) == []
    factions = ch.predicted_factions(state, F.BENE_GESSERIT)
    assert ("Atreides", "atreides") in factions and len(factions) == 5
    assert "bene_gesserit" not in values(factions)
    turns = ch.predicted_turns(state, F.BENE_GESSERIT)
    assert turns[0] == ("turn 1", 1) and values(turns) == list(range(1, 11))
    state.apply(Predict(F.BENE_GESSERIT, "fremen", 4))
    assert ch.predicted_factions(state, F.BENE_GESSERIT) == []


def test_fremen_placement_narrows_as_counts_are_filled_in() -> None:
    state = new_game()
    nothing: dict[str, int | None] = {}
    assert values(ch.fremen_counts(state, F.FREMEN, "sietch_tabr", nothing)) == list(range(11))
    south = ch.fremen_counts(state, F.FREMEN, "false_wall_south", {"sietch_tabr": 4})
    assert values(south) == list(range(7))
    west = ch.fremen_counts(
        state, F.FREMEN, "false_wall_west", {"sietch_tabr": 4, "false_wall_south": 5}
    )
    assert west == [("1 force", 1)]
    assert ch.fremen_counts(state, F.ATREIDES, "sietch_tabr", nothing) == []
    too_many = {"sietch_tabr": 8, "false_wall_south": 5}
    assert ch.fremen_counts(state, F.FREMEN, "false_wall_west", too_many) == []


def test_the_advisor_waits_for_the_fremen_then_offers_territories_and_sectors() -> None:
    state = new_game()
    assert ch.advisor_territories(state, F.BENE_GESSERIT) == []  # 2.02.08
    state.apply(PlaceFremen(F.FREMEN, 4, 3, 3))
    territories = values(ch.advisor_territories(state, F.BENE_GESSERIT))
    assert "Arrakeen" in territories and "Polar Sink" in territories
    assert ch.advisor_sectors(state, F.BENE_GESSERIT, "arrakeen") == [("sector 9", 9)]
    assert ch.advisor_sectors(state, F.BENE_GESSERIT, "Polar Sink") == []  # no sector
    assert ch.advisor_sectors(state, F.BENE_GESSERIT, "x" * 500) == []
    assert ch.advisor_territories(state, F.ATREIDES) == []
    assert ch.advisor_territories(new_game(advanced=False), F.BENE_GESSERIT) == []


# -- spice blow and Nexus -------------------------------------------------------------


def test_the_advanced_fremen_place_the_worm_in_sand_only() -> None:
    state = game_at(
        "spice_blow",
        advanced=True,
        board=[("harkonnen", "Imperial Basin", 10, 2), ("fremen", "Imperial Basin", 9, 2)],
        spice_deck=(WORM, WORM, "Red Chasm", "South Mesa"),
        spice_discard=("Old Gap",),
    )
    places = values(ch.worm_territories(state, F.FREMEN))
    assert "Imperial Basin" in places and "Carthag" not in places
    assert "Shield Wall" not in places
    assert ch.worm_territories(state, F.HARKONNEN) == []


def nexus() -> GameState:
    return game_at("spice_blow", spice_deck=(WORM, "Red Chasm"), spice_discard=("Old Gap",))


def test_nexus_allies_in_words_and_an_offer_is_marked() -> None:
    state = nexus()
    offered = ch.allies(state, F.ATREIDES)
    assert ("Emperor", "emperor") in offered and "atreides" not in values(offered)
    act(state, "emperor", "ally", with_="atreides")
    assert ("Emperor (asks you)", "emperor") in ch.allies(state, F.ATREIDES)
    assert ("Atreides", "atreides") in ch.allies(state, F.HARKONNEN)
    act(state, "atreides", "ally", with_="emperor")
    assert ch.allies(state, F.ATREIDES) == []  # allied: may only break or pass
    assert ch.pass_words(state, F.ATREIDES) == "you are done with this Nexus"
    act(state, "harkonnen", "pass")
    assert ch.allies(state, F.HARKONNEN) == []
    assert "harkonnen" not in values(ch.allies(state, F.FREMEN))


def test_the_worm_ride_offers_legal_destinations() -> None:
    state = game_at(
        "spice_blow",
        storm=10,
        board=[("fremen", "Old Gap", 8, 3), ("harkonnen", "Carthag", 10, 2)],
        spice_deck=(WORM, "Red Chasm"),
        spice_discard=("Old Gap",),
    )
    assert ch.ride_territories(state, F.FREMEN) == []  # the Nexus first
    for faction in state.waiting_on():
        state.apply(Pass(faction))
    places = values(ch.ride_territories(state, F.FREMEN))
    assert "Red Chasm" in places and "Old Gap" not in places
    assert ch.ride_sectors(state, F.FREMEN, "Red Chasm") == [("sector 6", 6)]
    assert ch.ride_territories(state, F.ATREIDES) == []
    assert ch.pass_words(state, F.FREMEN) == "the Fremen stay where they are: no worm ride"


def test_charity_pass_words_only_for_the_asked() -> None:
    state = game_at("choam_charity", advanced=True, factions={"atreides": {"spice": 0}})
    assert ch.pass_words(state, F.ATREIDES) == "you do not claim CHOAM Charity"
    assert ch.pass_words(state, F.HARKONNEN) == "you do not claim CHOAM Charity"  # asked alike
    assert ch.pass_words(state, F.BENE_GESSERIT) is None  # paid their own: not asked


def test_no_choices_outside_a_whole_game_or_for_a_faction_not_in_it() -> None:
    three = game_at("storm", turn=1, seats=["harkonnen", "atreides", "emperor"])
    assert ch.legal(three, F.FREMEN, Pass) == []
    assert ch.pass_words(three, F.FREMEN) is None


# -- filtering ------------------------------------------------------------------------


@pytest.mark.parametrize(("typed", "expected"), [("", 21), ("1", 11), ("dial 2", 2), ("x", 0)])
def test_matching_filters_by_label_and_caps_at_25(typed: str, expected: int) -> None:
    found = ch.matching(typed, [(f"dial {n}", n) for n in range(21)])
    assert len(found) == expected
    many = ch.matching("", [(f"t{n}", f"t{n}") for n in range(40)])
    assert len(many) == ch.MAX_CHOICES
    long = ch.matching("", [("y" * 300, "y")])
    assert long == [("y" * 100, "y")]


def test_leader_words_prints_the_leader_and_cuts_junk() -> None:
    assert ch.leader_words("duncan idaho") == "Duncan Idaho (Atreides, strength 2)"
    assert ch.leader_words("x" * 500) == "x" * 80
