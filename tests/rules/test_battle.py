"""Worked examples of a battle's resolution (1.07.05-1.07.07), one per branch: each weapon
against each defense, lasgun and shield, totals and ties, one and two traitors, the
winner's cards, the Kwisatz Haderach, spice dialing, the Harkonnen's capture."""

from __future__ import annotations

from typing import Any

import pytest

from rules.battle.model import BATTLE
from rules.battle.plans import options_now
from rules.battle.traitors import TRAITORS
from rules.battle.view import battle_secrets
from rules.errors import IllegalActionError
from rules.factions import Faction
from tests.rules.battle_helpers import at_battle, duel, fight, no_calls, of, plan, tanks
from tests.rules.game_helpers import spice_total
from tests.rules.helpers import act
from tests.rules.refusal import refused

F = Faction
NONE: dict[str, Any] = {}


@pytest.mark.parametrize(
    ("weapon", "defense", "variant", "killed"),
    [
        ("Crysknife", None, "snooper", True),
        ("Crysknife", "Shield", "snooper", False),
        ("Crysknife", "Snooper", "snooper", True),
        ("Maula Pistol", "Shield", "snooper", False),
        ("Chaumas", None, "snooper", True),
        ("Chaumas", "Snooper", "snooper", False),
        ("Chaumas", "Shield", "snooper", True),
        ("Gom Jabbar", "Snooper", "snooper", False),
        ("Lasgun", None, "snooper", True),
        ("Lasgun", "Snooper", "snooper", True),
        ("Baliset", None, "snooper", False),  # a worthless card in the weapon slot
        ("Ellaca Drug", "Snooper", "snooper", False),  # D17 default: poison
        ("Ellaca Drug", "Shield", "snooper", True),
        ("Ellaca Drug", "Shield", "shield", False),  # D17 "shield": the Landsraad's text
        ("Ellaca Drug", "Snooper", "shield", True),
    ],
)
def test_each_weapon_against_each_defense(
    weapon: str, defense: str | None, variant: str, killed: bool
) -> None:
    """Feyd Rautha (6) dials 2 with the weapon; Bashar (2) dials 3 with the defense: the
    Harkonnen win 8 to 5 (or 3); a killed Bashar pays them 2 (1.07.06.01-02)."""
    state = duel(
        {"cards": (weapon,)},
        {"cards": (defense,) if defense else ()},
        variants={"ellaca_drug": variant},
    )
    total = spice_total(state)
    events = fight(
        state,
        ("harkonnen", "Feyd Rautha", 2, {"weapon": weapon}),
        ("emperor", "Bashar", 3, {"defense": defense}),
    )
    struck = of(events, "weapon_struck")
    if weapon == "Baliset":
        assert struck == []
    else:
        assert [(s["card"], s["killed"]) for s in struck] == [(weapon, killed)]
    won = of(events, "battle_won")[0]
    assert (won["winner"], won["loser_total"]) == ("harkonnen", 3 if killed else 5)
    assert ("Bashar" in tanks(state, "emperor")) is killed
    assert state.factions[F.HARKONNEN].spice == (12 if killed else 10)
    assert state.factions[F.EMPEROR].tanks == 3 and state.factions[F.HARKONNEN].tanks == 2
    assert state.factions[F.EMPEROR].cards == ()  # the loser discards what it played
    if weapon != "Baliset":  # kept: the winner passed, which keeps every card
        act(state, "harkonnen", "pass")
        assert state.factions[F.HARKONNEN].cards == (weapon,)
    else:
        assert state.whole.treachery_discard[0] == "Baliset"
    assert spice_total(state) == total and state.game_phase.value == "spice_collection"


def test_both_leaders_can_die_and_the_winner_is_paid_for_both() -> None:
    state = duel({"cards": ("Crysknife",)}, {"cards": ("Chaumas",)})
    events = fight(
        state,
        ("harkonnen", "Beast Rabban", 1, {"weapon": "Crysknife"}),
        ("emperor", "Caid", 1, {"weapon": "Chaumas"}),
    )
    assert [s["killed"] for s in of(events, "weapon_struck")] == [True, True]
    assert tanks(state, "harkonnen") == ("Beast Rabban",) and tanks(state, "emperor") == ("Caid",)
    won = of(events, "battle_won")[0]
    assert (won["winner"], won["rule"]) == ("harkonnen", "1.07.06.00")  # 1 to 1: a tie
    assert state.factions[F.HARKONNEN].spice == 10 + 4 + 3


def test_ties_go_to_the_aggressor_and_the_loser_keeps_a_surviving_leader() -> None:
    state = duel()
    events = fight(state, ("harkonnen", "Umman Kudu", 2, NONE), ("emperor", "Bashar", 1, NONE))
    won = of(events, "battle_won")[0]
    assert (won["winner"], won["winner_total"], won["loser_total"]) == ("harkonnen", 3, 3)
    assert won["rule"] == "1.07.06.00"
    assert state.whole.leaders[F.EMPEROR] == tuple(state.whole.leaders[F.EMPEROR])
    assert "Bashar" in state.whole.leaders[F.EMPEROR]
    assert state.stack(F.HARKONNEN, "Carthag", 10).forces == 3
    assert state.stack(F.EMPEROR, "Carthag", 10).total == 0


def test_the_winner_keeps_some_cards_and_discards_the_rest() -> None:
    state = duel({"cards": ("Crysknife", "Shield", "Kulon")})
    fight(
        state,
        ("harkonnen", "Feyd Rautha", 0, {"weapon": "Crysknife", "defense": "Shield"}),
        ("emperor", "Bashar", 0, NONE),
    )
    assert state.whole.step == "keep" and state.waiting_on() == (F.HARKONNEN,)
    events = act(state, "harkonnen", "keep_cards", cards=["shield"])
    assert of(events, "cards_kept")[0]["cards"] == ("Shield",)
    assert state.factions[F.HARKONNEN].cards == ("Shield", "Kulon")
    assert state.whole.treachery_discard == ("Crysknife",)


def test_keeping_no_card_discards_them_all() -> None:
    state = duel({"cards": ("Crysknife",)})
    fight(
        state,
        ("harkonnen", "Feyd Rautha", 0, {"weapon": "Crysknife"}),
        ("emperor", "Bashar", 0, NONE),
    )
    act(state, "harkonnen", "keep_cards", cards=[])
    assert state.factions[F.HARKONNEN].cards == ()


def test_lasgun_and_shield_kill_everything_in_the_territory() -> None:
    """3.01.14: every force there, in every sector and of every faction, the spice, both
    leaders; nobody is paid; every card played is discarded."""
    state = at_battle(
        seats=["harkonnen", None, "fremen", None, "emperor", "bene_gesserit"],
        factions={"harkonnen": {"cards": ("Lasgun",)}, "emperor": {"cards": ("Shield",)}},
        board=[
            ("harkonnen", "The Great Flat", 14, 5),
            ("emperor", "The Great Flat", 14, 4),
        ],
        advisors=[("The Great Flat", 14, 2)],
        spice={("The Great Flat", 14): 10},
    )
    total = spice_total(state)
    events = fight(
        state,
        ("harkonnen", "Feyd Rautha", 3, {"weapon": "Lasgun"}),
        ("emperor", "Caid", 1, {"defense": "Shield"}),
    )
    assert of(events, "lasgun_shield")[0]["spice_lost"] == 10
    assert not state.stacks_in("The Great Flat") and not state.board_spice
    assert tanks(state, "harkonnen") == ("Feyd Rautha",) and tanks(state, "emperor") == ("Caid",)
    assert state.factions[F.BENE_GESSERIT].tanks == 2  # the advisors too
    assert state.factions[F.HARKONNEN].spice == 10 and of(events, "battle_won") == []
    assert set(state.whole.treachery_discard) == {"Lasgun", "Shield"}
    assert spice_total(state) == total


def test_a_shield_on_the_lasgun_side_explodes_too() -> None:
    state = duel({"cards": ("Lasgun", "Shield")})
    events = fight(
        state,
        ("harkonnen", "Feyd Rautha", 3, {"weapon": "Lasgun", "defense": "Shield"}),
        ("emperor", "Caid", 1, NONE),
    )
    assert of(events, "lasgun_shield") and not state.stacks_in("Carthag")


def test_one_traitor_wins_for_the_caller() -> None:
    """1.07.06.06: the caller loses nothing, is paid the traitor's strength, its leader may
    fight again; the betrayed side loses every force there and its cards."""
    state = duel(
        {"cards": ("Crysknife",)},
        {"cards": ("Shield",)},
        traitors={F.HARKONNEN: ("Captain Aramsham",)},
    )
    assert TRAITORS.of(state.whole)[F.HARKONNEN] == ("Captain Aramsham",)
    events = fight(
        state,
        ("harkonnen", "Umman Kudu", 1, {"weapon": "Crysknife"}),
        ("emperor", "Captain Aramsham", 3, {"defense": "Shield"}),
        "harkonnen",
    )
    assert of(events, "traitor_called")[0] == {
        "type": "traitor_called",
        "faction": "harkonnen",
        "leader": "Captain Aramsham",
        "against": "emperor",
        "rule": "1.07.06.06",
    }
    assert of(events, "weapon_struck") == []  # the traitor ends the battle first
    assert tanks(state, "emperor") == ("Captain Aramsham",)
    assert state.factions[F.HARKONNEN].spice == 15
    assert state.stack(F.HARKONNEN, "Carthag", 10).forces == 5  # nothing lost
    assert state.factions[F.EMPEROR].tanks == 3 and state.factions[F.EMPEROR].cards == ()
    assert state.whole.step == "keep"


def test_two_traitors_cost_both_sides_everything() -> None:
    state = duel(
        traitors={F.HARKONNEN: ("Bashar",), F.EMPEROR: ("Umman Kudu",)},
    )
    events = fight(
        state,
        ("harkonnen", "Umman Kudu", 2, NONE),
        ("emperor", "Bashar", 1, NONE),
        "harkonnen",
        "emperor",
    )
    assert len(of(events, "traitor_called")) == 2 and of(events, "battle_won") == []
    assert tanks(state, "harkonnen") == ("Umman Kudu",) and tanks(state, "emperor") == ("Bashar",)
    assert not state.stacks_in("Carthag")
    assert state.factions[F.HARKONNEN].spice == 10 and state.factions[F.EMPEROR].spice == 10


def test_the_harkonnen_call_a_traitor_for_their_ally() -> None:
    """2.05.09: in the ally's battle, as if the ally had called."""
    state = at_battle(
        seats=["atreides", "harkonnen", None, None, "emperor", None],
        alliances=[["harkonnen", "emperor"]],
        board=[("atreides", "Carthag", 10, 4), ("emperor", "Carthag", 10, 3)],
        traitors={F.HARKONNEN: ("Duncan Idaho",)},
    )
    act(state, "atreides", "pass")  # no Prescience
    plan(state, "atreides", "Duncan Idaho", 4)
    plan(state, "emperor", "Bashar", 0)
    assert set(state.waiting_on()) == {F.ATREIDES, F.EMPEROR, F.HARKONNEN}  # all asked
    act(state, "atreides", "pass")
    act(state, "emperor", "pass")
    events = act(state, "harkonnen", "call_traitor")
    won = of(events, "battle_won")[0]
    assert (won["winner"], won["rule"]) == ("emperor", "1.07.06.06")
    assert state.factions[F.EMPEROR].spice == 12  # the ally is paid, as the caller
    assert state.factions[F.ATREIDES].tanks == 4


def test_the_kwisatz_haderach_adds_two_and_shields_from_traitors() -> None:
    state = at_battle(
        advanced=True,
        seats=["atreides", None, None, None, "emperor", None],
        board=[("atreides", "Carthag", 10, 3), ("emperor", "Carthag", 10, 3)],
        traitors={F.EMPEROR: ("Duncan Idaho",)},
        kwisatz_haderach_active=True,
        atreides_battle_losses=7,
    )
    act(state, "atreides", "pass")
    plan(state, "atreides", "Duncan Idaho", 1, kwisatz_haderach=True)
    events = plan(state, "emperor", "Caid", 2, spice=1)
    assert state.waiting_on() == (F.ATREIDES,)  # nobody is asked about Duncan Idaho
    events += act(state, "atreides", "pass")
    won = of(events, "battle_won")[0]
    assert (won["winner"], won["winner_total"], won["loser_total"]) == ("atreides", 5, 5)
    assert state.whole.kwisatz_haderach_territory is None  # the phase is over


def test_the_kwisatz_haderach_dies_only_in_an_explosion() -> None:
    state = at_battle(
        advanced=True,
        seats=["atreides", None, None, None, "emperor", None],
        factions={"atreides": {"cards": ("Shield",)}, "emperor": {"cards": ("Lasgun",)}},
        board=[("atreides", "Carthag", 10, 3), ("emperor", "Carthag", 10, 3)],
        kwisatz_haderach_active=True,
    )
    act(state, "atreides", "pass")
    plan(state, "atreides", "Duncan Idaho", 1, kwisatz_haderach=True, defense="Shield")
    events = plan(state, "emperor", "Caid", 1, weapon="Lasgun")
    events += no_calls(state)
    assert of(events, "kwisatz_haderach_killed") and state.whole.kwisatz_haderach_dead
    assert state.whole.atreides_battle_losses == 3


def test_seven_atreides_battle_losses_wake_the_kwisatz_haderach() -> None:
    state = at_battle(
        advanced=True,
        seats=["atreides", None, None, None, "emperor", None],
        board=[("atreides", "Carthag", 10, 4), ("emperor", "Carthag", 10, 3)],
        atreides_battle_losses=3,
    )
    act(state, "atreides", "pass")
    fight(state, ("atreides", "Duncan Idaho", 0, NONE), ("emperor", "Caid", 3, {"spice": 3}))
    assert state.whole.atreides_battle_losses == 7 and state.whole.kwisatz_haderach_active


def test_spice_dialing_unpaid_forces_count_half_and_the_winner_loses_the_dial() -> None:
    """1.13.04: 5 forces and 2 spice dial at most 2 + 1.5 = 3.5; the spice goes to the bank;
    the winner loses the tokens of its dial (2 paid, 2 unpaid for 3)."""
    state = duel(advanced=True, forces=(5, 3))
    options = options_now(state, F.HARKONNEN)
    assert options is not None and options.max_spice == 5 and options.halves
    total = spice_total(state)
    events = fight(
        state,
        ("harkonnen", "Umman Kudu", 3, {"spice": 2}),
        ("emperor", "Bashar", 0.5, NONE),
    )
    won = of(events, "battle_won")[0]
    assert (won["winner_total"], won["loser_total"]) == (4, 2.5)
    assert state.factions[F.HARKONNEN].spice == 8 and spice_total(state) == total
    assert state.stack(F.HARKONNEN, "Carthag", 10).forces == 1  # 2 paid + 2 unpaid lost


def test_sardaukar_count_two_but_one_against_the_fremen() -> None:
    state = at_battle(
        advanced=True,
        seats=["fremen", None, None, None, "emperor", None],
        board=[("fremen", "Carthag", 10, 2), ("emperor", "Carthag", 10, 1)],
        special=[("emperor", "Carthag", 10, 2), ("fremen", "Carthag", 10, 1)],
    )
    emperor = options_now(state, F.EMPEROR)
    fremen = options_now(state, F.FREMEN)
    assert emperor is not None and fremen is not None
    assert emperor.max_number == 3 and fremen.max_number == 4  # battle hardened, Fedaykin 2
    assert fremen.max_spice == 0
    vs_harkonnen = duel(advanced=True, forces=(1, 1), special=[("emperor", "Carthag", 10, 2)])
    options = options_now(vs_harkonnen, F.EMPEROR)
    assert options is not None and options.max_number == 5  # 2 x 2 + 1, all paid


def test_the_fremen_win_with_fedaykin_and_lose_the_fewest_tokens() -> None:
    state = at_battle(
        advanced=True,
        seats=["fremen", None, None, None, "emperor", None],
        board=[("fremen", "Carthag", 10, 2), ("emperor", "Carthag", 10, 2)],
        special=[("fremen", "Carthag", 10, 1)],
    )
    fight(state, ("fremen", "Jamis", 3, NONE), ("emperor", "Bashar", 1, NONE))
    assert state.stack(F.FREMEN, "Carthag", 10) == state.stack(F.FREMEN, "Carthag", 10)
    left = state.stack(F.FREMEN, "Carthag", 10)
    assert (left.forces, left.special) == (1, 0)  # Fedaykin 2 + 1 regular
    assert state.factions[F.FREMEN].spice == 10  # the Fremen never pay


def test_the_harkonnen_capture_a_leader_and_free_it_after_it_fought_for_them() -> None:
    state = duel(advanced=True, seed=3)
    fight(state, ("harkonnen", "Feyd Rautha", 2, NONE), ("emperor", "Bashar", 0, NONE))
    assert state.whole.step == "capture" and state.waiting_on() == (F.HARKONNEN,)
    drawn = BATTLE.of(state.whole).captive  # type: ignore[union-attr]
    assert drawn in ("Hasimir Fenring", "Captain Aramsham", "Caid", "Burseg", "Bashar")
    assert battle_secrets(state.view_for(F.HARKONNEN).secrets).captive_drawn == drawn
    assert battle_secrets(state.view_for(F.EMPEROR).secrets).captive_drawn == drawn
    events = act(state, "harkonnen", "capture", leader=drawn)
    assert of(events, "leader_captured")[0]["kill"] is False and drawn not in str(events)
    assert drawn in state.whole.leaders[F.HARKONNEN]
    assert state.whole.captives == {drawn: F.EMPEROR}


def test_the_harkonnen_kill_a_captured_leader_for_two_spice() -> None:
    state = duel(advanced=True)
    fight(state, ("harkonnen", "Feyd Rautha", 2, NONE), ("emperor", "Bashar", 0, NONE))
    drawn = BATTLE.of(state.whole).captive  # type: ignore[union-attr]
    act(state, "harkonnen", "capture", leader=drawn, kill=True)
    assert drawn in tanks(state, "emperor") and state.factions[F.HARKONNEN].spice == 12


def test_a_leader_drawn_for_capture_cannot_be_recorded_killed_before_the_choice() -> None:
    """Found by the battle property test: a leader the Harkonnen drew, recorded killed by a
    moderator before their choice, went to its owner's tanks and then into the Harkonnen
    pool as well (two places at once). The record waits for the choice (2.05.10)."""
    state = duel(advanced=True, seed=3)
    fight(state, ("harkonnen", "Feyd Rautha", 2, NONE), ("emperor", "Bashar", 0, NONE))
    drawn = BATTLE.of(state.whole).captive  # type: ignore[union-attr]
    error = refused(
        state, IllegalActionError, "2.05.10", "emperor", "record_leader_killed", leader=drawn
    )
    assert drawn in str(error) and "Harkonnen" in str(error)
    act(state, "harkonnen", "capture", leader=drawn)
    assert drawn in state.whole.leaders[F.HARKONNEN] and drawn not in tanks(state, "emperor")


def test_prison_break_when_the_last_harkonnen_leader_dies() -> None:
    state = duel(
        {"cards": ()},
        {"cards": ("Crysknife",)},
        advanced=True,
        leaders={F.HARKONNEN: ("Umman Kudu", "Caid"), F.EMPEROR: ("Bashar", "Burseg")},
        captives={"Caid": F.EMPEROR},
    )
    events = fight(
        state,
        ("harkonnen", "Umman Kudu", 0, NONE),
        ("emperor", "Bashar", 3, {"weapon": "Crysknife", "spice": 3}),
    )
    assert of(events, "captives_released")[0]["leaders"] == ("Caid",)
    assert "Caid" in state.whole.leaders[F.EMPEROR] and not state.whole.captives


def test_a_captive_goes_home_after_fighting_for_the_harkonnen() -> None:
    state = duel(
        advanced=True,
        leaders={F.HARKONNEN: ("Umman Kudu", "Caid"), F.EMPEROR: ("Bashar",)},
        captives={"Caid": F.EMPEROR},
    )
    fight(state, ("harkonnen", "Caid", 2, NONE), ("emperor", "Bashar", 0, NONE))
    act(state, "harkonnen", "pass")  # no capture
    assert "Caid" in state.whole.leaders[F.EMPEROR] and not state.whole.captives


def test_a_captive_the_moderator_records_killed_goes_to_its_owners_tanks() -> None:
    """2.05.12, found by random whole games: the record put a killed captive in the
    Harkonnen's tanks and kept it listed as a captive, so its owner could never revive it."""
    state = duel(
        emperor={"cards": ("Tleilaxu Ghola",)},
        advanced=True,
        leaders={F.HARKONNEN: ("Umman Kudu", "Caid"), F.EMPEROR: ("Bashar",)},
        captives={"Caid": F.EMPEROR},
    )
    events = act(state, "harkonnen", "record_leader_killed", leader="Caid")
    assert of(events, "leader_killed") == [
        {"type": "leader_killed", "faction": "emperor", "leader": "Caid", "rule": "1.07.06"}
    ]
    assert tanks(state, "emperor") == ("Caid",) and tanks(state, "harkonnen") == ()
    assert state.whole.leaders[F.HARKONNEN] == ("Umman Kudu",) and not state.whole.captives
    act(state, "emperor", "ghola", leader="Caid")  # its owner brings it back (3.01.20)
    assert state.whole.leaders[F.EMPEROR] == ("Bashar", "Caid")


def test_the_last_harkonnen_leader_recorded_killed_frees_the_captives() -> None:
    """2.05.11: the captives go home when every Harkonnen leader is dead, recorded too."""
    state = duel(
        advanced=True,
        leaders={F.HARKONNEN: ("Umman Kudu", "Caid"), F.EMPEROR: ("Bashar",)},
        captives={"Caid": F.EMPEROR},
    )
    events = act(state, "harkonnen", "record_leader_killed", leader="Umman Kudu")
    assert of(events, "captives_released")[0]["leaders"] == ("Caid",)
    assert state.whole.leaders[F.EMPEROR] == ("Bashar", "Caid") and not state.whole.captives


def test_a_leader_in_a_locked_plan_cannot_be_recorded_killed_before_the_battle_ends() -> None:
    """Found by the battle property test: the record put the leader in the tanks, then the
    battle killed it again (twice in the tanks). The battle decides; after it, the record."""
    state = duel({"cards": ("Crysknife",)})
    plan(state, "emperor", "Bashar", 1)
    refused(
        state, IllegalActionError, "1.07.06", "emperor", "record_leader_killed", leader="Bashar"
    )
    act(state, "emperor", "record_leader_killed", leader="Caid")  # not fighting: recorded
    plan(state, "harkonnen", "Feyd Rautha", 3, weapon="Crysknife")
    no_calls(state)
    assert tanks(state, "emperor") == ("Caid", "Bashar")
