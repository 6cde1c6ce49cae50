"""What the Battle phase refuses: each refusal names the rule, quotes the input where it
was the input that was wrong, and changes nothing (tests/rules/refusal.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError, RulesError
from rules.game import GameState
from tests.rules.battle_helpers import at_battle, duel, fight, plan
from tests.rules.helpers import act
from tests.rules.refusal import refused

CARDS = {"cards": ("Crysknife", "Shield", "Kulon", "Karama")}


def plans_step() -> GameState:
    return duel(CARDS, {"cards": ("Snooper",)})


def onlooker() -> GameState:
    return duel(seats=["harkonnen", None, "atreides", None, "emperor", None])


def advanced_plans() -> GameState:
    return duel(CARDS, advanced=True)


def choose_step() -> GameState:
    return at_battle(
        seats=["harkonnen", None, "atreides", None, "emperor", None],
        board=[
            ("harkonnen", "Carthag", 10, 3),
            ("emperor", "Carthag", 10, 3),
            ("harkonnen", "Arrakeen", 9, 3),
            ("atreides", "Arrakeen", 9, 3),
        ],
    )


def voice_step() -> GameState:
    return at_battle(
        seats=["bene_gesserit", None, "atreides", None, None, None],
        board=[("bene_gesserit", "Arrakeen", 9, 4), ("atreides", "Arrakeen", 9, 4)],
    )


def prescience_step() -> GameState:
    state = voice_step()
    act(state, "bene_gesserit", "pass")
    return state


def traitor_step() -> GameState:
    state = duel()
    plan(state, "harkonnen", "Feyd Rautha", 1)
    plan(state, "emperor", "Bashar", 1)
    return state


def keep_step() -> GameState:
    state = duel(CARDS)
    harkonnen = ("harkonnen", "Feyd Rautha", 1, {"weapon": "Crysknife"})
    fight(state, harkonnen, ("emperor", "Bashar", 0, {}))
    return state


def capture_step() -> GameState:
    state = duel(advanced=True)
    fight(state, ("harkonnen", "Feyd Rautha", 1, {}), ("emperor", "Bashar", 0, {}))
    return state


PLAN = {"territory": "Carthag", "leader": "Feyd Rautha", "number": 1}
Setup = Callable[[], GameState]
CASES: list[tuple[str, Setup, str, str, dict[str, Any], type[RulesError], str]] = [
    # the plan (1.07.04)
    ("wrong territory", plans_step, "harkonnen", "battle_plan", {**PLAN, "territory": "Arrakeen"},
     IllegalActionError, "1.07.04"),
    ("unknown territory", plans_step, "harkonnen", "battle_plan", {**PLAN, "territory": "Narnia"},
     InvalidActionError, "1.07.04"),
    ("another's leader", plans_step, "harkonnen", "battle_plan", {**PLAN, "leader": "Stilgar"},
     IllegalActionError, "1.07.04.03"),
    ("no leader though free", plans_step, "harkonnen", "battle_plan", {**PLAN, "leader": None},
     IllegalActionError, "1.07.04.04"),
    ("too many forces", plans_step, "harkonnen", "battle_plan", {**PLAN, "number": 6},
     IllegalActionError, "1.07.04.01"),
    ("negative dial", plans_step, "harkonnen", "battle_plan", {**PLAN, "number": -1},
     InvalidActionError, "1.07.04.01"),
    ("half in the basic game", plans_step, "harkonnen", "battle_plan", {**PLAN, "number": 1.5},
     InvalidActionError, "1.07.04.01"),
    ("a third", advanced_plans, "harkonnen", "battle_plan", {**PLAN, "number": 1.25},
     InvalidActionError, "1.07.04.01"),
    ("card not held", plans_step, "harkonnen", "battle_plan", {**PLAN, "weapon": "Lasgun"},
     IllegalActionError, "1.07.04.06"),
    ("defense as weapon", plans_step, "harkonnen", "battle_plan", {**PLAN, "weapon": "Shield"},
     IllegalActionError, "1.07.04.06"),
    ("Karama in the wheel", plans_step, "harkonnen", "battle_plan", {**PLAN, "defense": "Karama"},
     IllegalActionError, "1.07.04.06"),
    ("one card, two slots", plans_step, "harkonnen", "battle_plan",
     {**PLAN, "weapon": "Kulon", "defense": "Kulon"}, IllegalActionError, "1.07.04.06"),
    ("no Cheap Hero held", plans_step, "harkonnen", "battle_plan", {**PLAN, "leader": "Cheap Hero"},
     IllegalActionError, "1.07.04.06"),
    ("spice in the basic game", plans_step, "harkonnen", "battle_plan", {**PLAN, "spice": 1},
     IllegalActionError, "1.13.04"),
    ("more spice than forces", advanced_plans, "harkonnen", "battle_plan", {**PLAN, "spice": 6},
     IllegalActionError, "1.13.04"),
    ("unpaid dial too high", advanced_plans, "harkonnen", "battle_plan", {**PLAN, "number": 3},
     IllegalActionError, "1.07.04.01"),
    ("no Kwisatz Haderach", advanced_plans, "harkonnen", "battle_plan",
     {**PLAN, "kwisatz_haderach": True}, IllegalActionError, "2.01.11"),
    ("not a side", onlooker, "atreides", "battle_plan", PLAN, NotYourTurnError, "1.07.04"),
    ("a pass for a plan", plans_step, "harkonnen", "pass", {}, NotYourTurnError, "1.07.04"),
    ("plans before the Voice", voice_step, "atreides", "battle_plan",
     {**PLAN, "territory": "Arrakeen", "leader": "Duncan Idaho"}, NotYourTurnError, "1.07.04"),
    # naming a battle (1.07.02-03)
    ("not the aggressor", choose_step, "emperor", "battle",
     {"territory": "Carthag", "opponent": "harkonnen"}, NotYourTurnError, "1.07.02"),
    ("no such battle", choose_step, "harkonnen", "battle",
     {"territory": "Carthag", "opponent": "atreides"}, IllegalActionError, "1.07.01"),
    ("no such faction", choose_step, "harkonnen", "battle",
     {"territory": "Carthag", "opponent": "sardaukar"}, InvalidActionError, "1.07.03"),
    ("the aggressor must fight", choose_step, "harkonnen", "pass", {}, NotYourTurnError,
     "1.07.01"),
    # Voice and Prescience (2.02.06, 2.01.08)
    ("Voice by another", voice_step, "atreides", "voice",
     {"command": "play", "kind": "worthless"}, NotYourTurnError, "2.02.06"),
    ("Voice, bad command", voice_step, "bene_gesserit", "voice",
     {"command": "sing", "kind": "worthless"}, InvalidActionError, "2.02.06"),
    ("Voice, bad kind", voice_step, "bene_gesserit", "voice",
     {"command": "play", "kind": "Karama"}, InvalidActionError, "2.02.06"),
    ("Prescience, bad ask", prescience_step, "atreides", "prescience", {"ask": "traitors"},
     InvalidActionError, "2.01.08"),
    ("Karama power, basic", prescience_step, "atreides", "prescience", {"ask": "plan"},
     IllegalActionError, "1.14.01"),
    ("Prescience by another", prescience_step, "bene_gesserit", "prescience", {"ask": "leader"},
     NotYourTurnError, "2.01.08"),
    # traitors, cards, capture (1.07.06)
    ("no traitor held", traitor_step, "harkonnen", "call_traitor", {}, IllegalActionError,
     "1.07.06.06"),
    ("traitor out of turn", plans_step, "harkonnen", "call_traitor", {}, NotYourTurnError,
     "1.07.06.06"),
    ("keep a card not played", keep_step, "harkonnen", "keep_cards", {"cards": ["Shield"]},
     IllegalActionError, "1.07.06.05"),
    ("keep by the loser", keep_step, "emperor", "keep_cards", {"cards": []}, NotYourTurnError,
     "1.07.06.05"),
    ("capture another leader", capture_step, "harkonnen", "capture", {"leader": "Nobody"},
     IllegalActionError, "2.05.10"),
    ("capture by another", capture_step, "emperor", "capture", {"leader": "Bashar"},
     NotYourTurnError, "2.05.10"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("setup", "faction", "action", "fields", "error", "rule"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_battle_refusals(
    setup: Setup,
    faction: str,
    action: str,
    fields: dict[str, Any],
    error: type[RulesError],
    rule: str,
) -> None:
    refusal = refused(setup(), error, rule, faction, action, **fields)
    assert len(refusal.message) < 400


def test_refusals_quote_the_input_cut_short() -> None:
    state = plans_step()
    long_name = "X" * 300
    refusal = refused(
        state, IllegalActionError, "1.07.04.03", "harkonnen", "battle_plan",
        **{**PLAN, "leader": long_name},
    )  # fmt: skip
    assert "'XXXX" in refusal.message and long_name not in refusal.message
    refusal = refused(
        state, InvalidActionError, "1.07.04", "harkonnen", "battle_plan",
        **{**PLAN, "territory": long_name},
    )  # fmt: skip
    assert long_name not in refusal.message


def test_a_plan_cannot_be_sent_twice() -> None:
    state = plans_step()
    plan(state, "harkonnen", "Feyd Rautha", 1)
    refused(state, NotYourTurnError, "1.07.04", "harkonnen", "battle_plan", **PLAN)


def test_battle_actions_outside_the_battle_phase() -> None:
    from tests.rules.game_helpers import game_at

    state = game_at("choam_charity", factions={"atreides": {"spice": 0}})
    refused(state, NotYourTurnError, "1.03", "atreides", "battle_plan", **PLAN)
    refused(state, NotYourTurnError, "1.03", "atreides", "call_traitor")
