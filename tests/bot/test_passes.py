"""What a bare ``/pass`` declines in each step of the Battle phase, in words
(bot.session.passes)."""

from __future__ import annotations

from bot.session.passes import pass_words
from rules.factions import Faction
from tests.cogs.test_battle_table import bg_against_atreides
from tests.rules.battle_helpers import at_battle, duel, plan
from tests.rules.helpers import act

F = Faction
BG, AT = F.BENE_GESSERIT, F.ATREIDES


def test_the_voice_and_prescience_asked_together_are_told_apart() -> None:
    state = at_battle(
        variants={"voice_prescience": "together"},
        seats=["bene_gesserit", "harkonnen", "atreides", "fremen", "emperor", "spacing_guild"],
        board=[("bene_gesserit", "Arrakeen", 9, 4), ("atreides", "Arrakeen", 9, 4)],
    )
    assert state.whole.step == "voice_prescience"
    assert pass_words(state, BG) == "you do not use the Voice"
    assert pass_words(state, AT) == "you do not use Prescience"
    assert pass_words(state, F.HARKONNEN) is None  # nothing to decline


def test_the_traitor_question_and_the_capture() -> None:
    state = bg_against_atreides()
    act(state, "bene_gesserit", "pass")
    act(state, "atreides", "pass")
    plan(state, "bene_gesserit", "Alia", 1)
    plan(state, "atreides", "Duncan Idaho", 1)
    assert state.whole.step == "traitor_calls"
    assert pass_words(state, BG) == "you call no traitor"
    state = duel(advanced=True, seed=3, seats=["harkonnen", None, "emperor", None, None, None])
    plan(state, "harkonnen", "Feyd Rautha", 2)
    plan(state, "emperor", "Bashar", 0)
    for faction in list(state.whole.waiting):
        act(state, faction.value, "pass")
    assert state.whole.step == "capture"
    assert pass_words(state, F.HARKONNEN) == "you neither capture nor kill a leader"
