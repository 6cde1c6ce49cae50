"""Issue 23 §4: ``/pass`` says what it declined (the Voice, Prescience...), never a worm
ride's words out of place; a repeated ``/pass`` in the Battle phase is "already passed";
``/keep-cards cards:None`` keeps none, whatever the case of "none"."""

from __future__ import annotations

import pytest
import simcord

from rules.factions import Faction
from rules.game import GameState
from tests.cogs.conftest import is_ephemeral, refusals, text_of
from tests.cogs.test_battle_table import bg_against_atreides
from tests.cogs.turn_helpers import public_messages, public_since, start_at, whole_table
from tests.rules.battle_helpers import fight
from tests.rules.helpers import act

F = Faction
BG, AT = F.BENE_GESSERIT, F.ATREIDES


async def test_a_pass_declining_the_voice_and_prescience_says_so(
    simcord_env: simcord.Env,
) -> None:
    t = await whole_table(simcord_env)
    await start_at(t, bg_against_atreides())
    assert t.state().whole.step == "voice"
    said = await t.players[BG].slash(t.table, "pass")
    assert is_ephemeral(said) and text_of(said) == "Done: you do not use the Voice."
    # sent twice: the second is refused, and the Atreides' Prescience is still theirs
    again = text_of(await t.players[BG].slash(t.table, "pass"))
    assert again == "Refused: you already passed on the Voice (rule 2.02.06).", again
    assert t.state().whole.step == "prescience" and t.state().whole.waiting == (AT,)
    said = await t.players[AT].slash(t.table, "pass")
    assert text_of(said) == "Done: you do not use Prescience."
    assert t.state().whole.step == "plans"
    refusals(simcord_env)


def bg_won_keeping() -> GameState:
    """The Bene Gesserit won with Alia and a Shield; they are asked which cards to keep."""
    state = bg_against_atreides()
    act(state, "bene_gesserit", "pass")
    act(state, "atreides", "pass")
    fight(
        state,
        ("bene_gesserit", "Alia", 4, {"defense": "Shield"}),
        ("atreides", "Duncan Idaho", 0, {}),
    )
    assert state.whole.step == "keep" and state.whole.waiting == (BG,)
    return state


@pytest.mark.parametrize("typed", ["None", "none", " NONE "])
async def test_keep_cards_none_keeps_none(simcord_env: simcord.Env, typed: str) -> None:
    t = await whole_table(simcord_env)
    await start_at(t, bg_won_keeping())
    earlier = public_messages(t)
    said = text_of(await t.players[BG].slash(t.table, "keep-cards", cards=typed))
    assert said == "Done: you discard every card played.", said
    assert "Shield" not in t.state().factions[BG].cards
    assert "Bene Gesserit discards Shield." in public_since(t, earlier)
    refusals(simcord_env)


async def test_a_pass_keeping_the_cards_says_so(simcord_env: simcord.Env) -> None:
    t = await whole_table(simcord_env)
    await start_at(t, bg_won_keeping())
    said = text_of(await t.players[BG].slash(t.table, "pass"))
    assert said == "Done: you keep every card you played.", said
    assert "Shield" in t.state().factions[BG].cards
    refusals(simcord_env)
