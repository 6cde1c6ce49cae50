"""The Battle phase's flow (1.07.01-1.07.04, 1.07.07): where battles happen, the aggressor's
order, Voice and Prescience before the plans, secret plans, defaults, the phase's end."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules.actions import Pass, PhaseDone
from rules.battle.actions import BattlePlan, StartBattle
from rules.battle.model import BATTLE, FOUGHT
from rules.battle.plans import options_now
from rules.battle.view import battle_of, battle_secrets
from rules.defaults import default_action
from rules.errors import NotYourTurnError, RulesError
from rules.factions import Faction
from rules.game import GameState
from tests.rules.battle_helpers import at_battle, duel, fight, no_calls, of, plan
from tests.rules.helpers import act

F = Faction
NONE: dict[str, Any] = {}


def started(state: GameState) -> tuple[str, str, str] | None:
    battle = BATTLE.of(state.whole)
    if battle is None:
        return None
    return battle.territory, battle.aggressor.value, battle.defender.value


# -- where battles happen ------------------------------------------------------------


def test_no_battle_in_the_polar_sink_between_allies_or_with_advisors() -> None:
    state = at_battle(
        seats=["harkonnen", "atreides", None, "fremen", "emperor", "bene_gesserit"],
        alliances=[["fremen", "emperor"]],
        board=[
            ("harkonnen", "Polar Sink", None, 3),
            ("atreides", "Polar Sink", None, 3),
            ("fremen", "Carthag", 10, 2),
            ("emperor", "Carthag", 10, 2),
        ],
        advisors=[("Arrakeen", 9, 2)],
        special=[],
    )
    state2 = at_battle(
        board=[("atreides", "Arrakeen", 9, 2)],
        advisors=[("Arrakeen", 9, 2)],
    )
    for s in (state, state2):
        assert BATTLE.of(s.whole) is None and s.game_phase.value == "spice_collection"


@pytest.mark.parametrize(
    ("sectors", "blind", "battle"),
    [
        ((13, 15), True, False),  # the storm in 14 separates them (1.07.01.00)
        ((15, 16), True, True),  # one side of the storm
        ((14, 14), True, True),  # battling blind, the rulebook (D3)
        ((14, 14), False, False),  # D3 switch off: no battle under the storm
        ((14, 15), True, False),  # one in the storm, one not
    ],
)
def test_storm_separation_and_battling_blind(
    sectors: tuple[int, int], blind: bool, battle: bool
) -> None:
    state = at_battle(
        storm=14,
        seats=["harkonnen", None, None, None, "emperor", None],
        variants={"battles_under_storm": blind},
        board=[("harkonnen", "Wind Pass", sectors[0], 2), ("emperor", "Wind Pass", sectors[1], 2)],
    )
    assert (BATTLE.of(state.whole) is not None) is battle


def test_the_aggressor_names_its_battles_in_the_order_it_likes() -> None:
    state = at_battle(
        seats=["harkonnen", None, "atreides", None, "emperor", None],
        board=[
            ("harkonnen", "Carthag", 10, 3),
            ("emperor", "Carthag", 10, 3),
            ("harkonnen", "Arrakeen", 9, 3),
            ("atreides", "Arrakeen", 9, 3),
        ],
    )
    assert state.whole.step == "choose" and state.waiting_on() == (F.HARKONNEN,)
    assert set(state.legal_actions(F.HARKONNEN)) == {
        StartBattle(F.HARKONNEN, "Arrakeen", "atreides"),
        StartBattle(F.HARKONNEN, "Carthag", "emperor"),
    }
    act(state, "harkonnen", "battle", territory="carthag", opponent="emperor")
    assert started(state) == ("Carthag", "harkonnen", "emperor")
    fight(state, ("harkonnen", "Feyd Rautha", 3, NONE), ("emperor", "Bashar", 0, NONE))
    assert started(state) == ("Arrakeen", "harkonnen", "atreides")  # the only one left
    act(state, "harkonnen", "battle", territory="Arrakeen", opponent="atreides")  # accepted
    assert state.whole.step == "prescience" and state.waiting_on() == (F.ATREIDES,)
    act(state, "atreides", "pass")
    fight(state, ("harkonnen", "Beast Rabban", 0, NONE), ("atreides", "Thufir Hawat", 1, NONE))
    # Feyd Rautha fought in Carthag: not free for Arrakeen (1.07.04.03) -- checked below
    assert state.whole.dialers == (F.HARKONNEN, F.ATREIDES)  # the last battle's wheels
    assert FOUGHT.of(state.whole) == {}  # back in the pools (1.07.07)


def test_a_leader_fights_in_one_territory_a_phase() -> None:
    state = at_battle(
        seats=["harkonnen", None, "atreides", None, "emperor", None],
        board=[
            ("harkonnen", "Carthag", 10, 3),
            ("emperor", "Carthag", 10, 3),
            ("harkonnen", "Arrakeen", 9, 3),
            ("atreides", "Arrakeen", 9, 3),
        ],
    )
    act(state, "harkonnen", "battle", territory="Carthag", opponent="emperor")
    fight(state, ("harkonnen", "Feyd Rautha", 3, NONE), ("emperor", "Bashar", 0, NONE))
    act(state, "atreides", "pass")
    options = options_now(state, F.HARKONNEN)
    assert options is not None and "Feyd Rautha" not in options.leaders
    with pytest.raises(RulesError) as info:
        plan(state, "harkonnen", "Feyd Rautha", 1)
    assert getattr(info.value, "rule", None) == "1.07.04.03"


def test_three_factions_the_aggressor_picks_then_the_others_fight() -> None:
    state = at_battle(
        seats=["harkonnen", None, "atreides", None, "emperor", None],
        board=[
            ("harkonnen", "Carthag", 10, 1),
            ("emperor", "Carthag", 10, 5),
            ("atreides", "Carthag", 10, 3),
        ],
    )
    assert state.whole.step == "choose"  # whom to fight first (1.07.03)
    act(state, "harkonnen", "battle", territory="Carthag", opponent="emperor")
    fight(state, ("harkonnen", "Umman Kudu", 0, NONE), ("emperor", "Bashar", 3, NONE))
    # the Harkonnen lost everything: the Atreides, next in storm order, fight the Emperor
    assert started(state) == ("Carthag", "atreides", "emperor")


def test_a_storm_split_territory_needs_the_sector() -> None:
    state = at_battle(
        storm=14,
        seats=["harkonnen", None, None, None, "emperor", None],
        board=[
            ("harkonnen", "Wind Pass", 13, 1),
            ("emperor", "Wind Pass", 13, 1),
            ("harkonnen", "Wind Pass", 16, 1),
            ("emperor", "Wind Pass", 16, 1),
        ],
    )
    assert state.whole.step == "choose"
    with pytest.raises(RulesError) as info:
        act(state, "harkonnen", "battle", territory="Wind Pass", opponent="emperor")
    assert "sector" in str(info.value)
    act(state, "harkonnen", "battle", territory="Wind Pass", opponent="emperor", sector=16)
    assert BATTLE.of(state.whole) is not None and BATTLE.of(state.whole).sectors == (15, 16)
    fight(state, ("harkonnen", "Feyd Rautha", 1, NONE), ("emperor", "Bashar", 0, NONE))
    assert state.stack(F.HARKONNEN, "Wind Pass", 13).forces == 1  # the other side untouched
    assert BATTLE.of(state.whole) is not None and BATTLE.of(state.whole).sectors == (13,)


# -- Voice and Prescience ------------------------------------------------------------


def bg_against_atreides(**fields: Any) -> GameState:
    return at_battle(
        seats=["bene_gesserit", None, "atreides", None, None, None],
        factions={
            "atreides": {"cards": ("Crysknife", "Snooper", "Baliset")},
            "bene_gesserit": {"cards": ("Shield",)},
        },
        board=[("bene_gesserit", "Arrakeen", 9, 4), ("atreides", "Arrakeen", 9, 4)],
        **fields,
    )


def test_voice_then_prescience_then_the_plans() -> None:
    """D15 default: the Voice first (the Landsraad's order), then Prescience."""
    state = bg_against_atreides()
    assert (state.whole.step, state.waiting_on()) == ("voice", (F.BENE_GESSERIT,))
    with pytest.raises(NotYourTurnError):
        act(state, "atreides", "prescience", ask="weapon")  # not yet
    events = act(state, "bene_gesserit", "voice", command="play", kind="projectile weapon")
    assert of(events, "voice_used")[0]["card_kind"] == "projectile weapon"
    assert (state.whole.step, state.waiting_on()) == ("prescience", (F.ATREIDES,))
    act(state, "atreides", "prescience", ask="defense")
    assert state.whole.step == "plans"
    # the Voice binds the Atreides: they hold a Crysknife, so they must play it
    with pytest.raises(RulesError) as info:
        plan(state, "atreides", "Thufir Hawat", 2, weapon="Baliset")
    assert getattr(info.value, "rule", None) == "2.02.06"
    plan(state, "atreides", "Thufir Hawat", 2, weapon="Crysknife")
    events = plan(state, "bene_gesserit", "Alia", 1, defense="Shield")
    events += no_calls(state)
    answer = of(events, "prescience_answered")[0]
    assert (answer["faction"], answer["ask"], answer["answer"]) == (
        "bene_gesserit",
        "defense",
        "Shield",
    )
    assert [e["killed"] for e in of(events, "weapon_struck")] == [False]


def test_voice_and_prescience_together_under_d15_together() -> None:
    state = bg_against_atreides(variants={"voice_prescience": "together"})
    assert state.whole.step == "voice_prescience"
    assert set(state.waiting_on()) == {F.BENE_GESSERIT, F.ATREIDES}
    act(state, "atreides", "prescience", ask="number")
    assert state.waiting_on() == (F.BENE_GESSERIT,)
    act(state, "bene_gesserit", "voice", command="not_play", kind="worthless")
    assert state.whole.step == "plans"
    with pytest.raises(RulesError) as info:
        plan(state, "atreides", "Thufir Hawat", 2, defense="Baliset")
    assert getattr(info.value, "rule", None) == "2.02.06"


def test_a_karama_played_ahead_stops_the_voice() -> None:
    state = at_battle(
        seats=["bene_gesserit", None, "atreides", None, None, None],
        factions={"atreides": {"cards": ("Karama",)}},
        board=[("bene_gesserit", "Arrakeen", 9, 4), ("atreides", "Arrakeen", 9, 4)],
        prevented=frozenset({"voice"}),
    )
    assert state.whole.step == "prescience" and "voice" not in state.whole.prevented


def test_the_atreides_karama_power_shows_the_whole_plan_to_them_only() -> None:
    state = at_battle(
        advanced=True,
        seats=["harkonnen", None, "atreides", None, None, None],
        factions={"atreides": {"cards": ("Karama",)}, "harkonnen": {"cards": ("Chaumas",)}},
        board=[("harkonnen", "Arrakeen", 9, 4), ("atreides", "Arrakeen", 9, 4)],
    )
    act(state, "atreides", "prescience", ask="plan")
    assert state.factions[F.ATREIDES].cards == ()
    plan(state, "harkonnen", "Feyd Rautha", 2, weapon="Chaumas", spice=2)
    seen = state.view_for(F.ATREIDES).secrets
    foreseen = battle_secrets(seen).foreseen_plan
    assert seen is not None and foreseen is not None
    assert foreseen["weapon"] == "Chaumas"
    assert "Chaumas" not in json.dumps(state.public_view().to_dict())
    assert battle_secrets(state.view_for(F.HARKONNEN).secrets).foreseen_plan is None


# -- secrets, defaults, the phase's end -----------------------------------------------


def test_a_plan_is_its_owners_secret_until_both_are_in() -> None:
    state = duel({"cards": ("Crysknife",)})
    events = plan(state, "harkonnen", "Feyd Rautha", 4, weapon="Crysknife")
    assert [e.to_dict() for e in events] == [{"type": "battle_plan_in", "faction": "harkonnen"}]
    public = json.dumps(state.public_view().to_dict())
    battle = json.dumps(state.public_view().to_dict()["game"]["battle"])
    assert "Crysknife" not in public and "Feyd Rautha" not in battle and "4" not in battle
    own = state.view_for(F.HARKONNEN).secrets
    other = state.view_for(F.EMPEROR).secrets
    mine = battle_secrets(own).battle_plan
    assert own is not None and mine is not None
    assert mine["weapon"] == "Crysknife"
    assert other is not None and battle_secrets(other).battle_plan is None
    assert battle_of(state.public_view().game).plans_in == (F.HARKONNEN,)  # type: ignore[union-attr]


def test_the_default_plan_is_the_weakest_leader_zero_and_no_card() -> None:
    state = duel({"cards": ("Crysknife", "Shield")})
    assert default_action(state, F.HARKONNEN) == BattlePlan(F.HARKONNEN, "Carthag", "Umman Kudu", 0)
    no_leader = duel(leaders={F.HARKONNEN: (), F.EMPEROR: ("Bashar",)})
    assert default_action(no_leader, F.HARKONNEN) == BattlePlan(F.HARKONNEN, "Carthag", None, 0)


def test_the_default_plan_obeys_the_voice_and_other_choices_pass() -> None:
    state = bg_against_atreides()
    assert default_action(state, F.BENE_GESSERIT) == Pass(F.BENE_GESSERIT)
    act(state, "bene_gesserit", "voice", command="play", kind="poison defense")
    act(state, "atreides", "pass")
    chosen = default_action(state, F.ATREIDES)
    assert chosen == BattlePlan(F.ATREIDES, "Arrakeen", "Dr. Wellington Yueh", 0, None, "Snooper")
    state.apply(chosen)
    plan(state, "bene_gesserit", "Alia", 0)
    assert default_action(state, F.ATREIDES) == Pass(F.ATREIDES)  # no traitor called


def test_every_battle_choice_has_a_legal_default() -> None:
    state = bg_against_atreides()
    for _ in range(12):
        waiting = state.waiting_on()
        if not waiting:
            break
        action = default_action(state, waiting[0])
        assert action is not None and state.is_legal(action)
        state.apply(action)
    assert state.game_phase.value == "spice_collection"


def test_phase_done_ends_the_battles_early_and_records_correct_without_moving_on() -> None:
    state = duel({"cards": ("Crysknife",)})
    plan(state, "harkonnen", "Feyd Rautha", 4, weapon="Crysknife")
    act(state, "harkonnen", "record_losses", territory="Carthag", sector=10, forces=1)
    assert state.whole.step == "plans" and state.waiting_on() == (F.EMPEROR,)
    assert state.factions[F.HARKONNEN].tanks == 1
    events = state.apply(PhaseDone())
    assert [e.kind for e in events][:2] == ["battles_over", "phase_began"]
    assert state.factions[F.HARKONNEN].cards == ("Crysknife",)  # played nothing


def test_the_basic_game_asks_no_spice_and_no_capture() -> None:
    state = duel()
    options = options_now(state, F.HARKONNEN)
    assert options is not None and options.max_spice == 0 and not options.halves
    fight(state, ("harkonnen", "Feyd Rautha", 1, NONE), ("emperor", "Bashar", 0, NONE))
    assert state.game_phase.value == "spice_collection"  # no capture in the basic game


def test_no_leader_no_cards_and_a_cheap_hero_may_carry_both() -> None:
    state = duel(
        {"cards": ("Cheap Hero", "Crysknife", "Shield")},
        leaders={F.HARKONNEN: (), F.EMPEROR: ("Bashar",)},
    )
    events = plan(state, "harkonnen", "Cheap Hero", 2, weapon="Crysknife", defense="Shield")
    events += plan(state, "emperor", "Bashar", 1)
    events += no_calls(state)
    won = of(events, "battle_won")[0]
    assert (won["winner"], won["winner_total"]) == ("harkonnen", 2)
    assert state.whole.treachery_discard[0] == "Cheap Hero"  # discarded after the battle
    assert state.whole.step == "keep"
