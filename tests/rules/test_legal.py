"""The engine's legal actions as actions: prompt answers, ``in``, dry runs, prices."""

from __future__ import annotations

import pytest

from rules.actions import (
    Advise,
    Decline,
    Flip,
    GuildNow,
    KaramaCancel,
    Move,
    Pass,
    PlayHajr,
    Ship,
)
from rules.board import POLAR_SINK
from rules.errors import IllegalActionError, InvalidActionError
from rules.factions import Faction
from rules.game import GameState
from rules.model import Ability, Prompt, PromptKind, Side
from tests.rules.helpers import act, position

A, BG, H = Faction.ATREIDES, Faction.BENE_GESSERIT, Faction.HARKONNEN
G = Faction.SPACING_GUILD
SHIPPER_FIRST = ["atreides", "bene_gesserit", "harkonnen"]


def open_prompt(state: GameState, kind: PromptKind) -> Prompt:
    return next(p for p in state.open_prompts() if p.kind is kind)


def test_the_faction_to_act_gets_concrete_turn_actions_and_names_for_the_rest() -> None:
    state = position(storm=18, factions={"atreides": {"cards": ["Hajr"]}})
    legal = state.legal_actions(A)
    assert list(legal) == [Pass(A), PlayHajr(A)]
    assert legal.parametrised == ("ship", "move")
    assert Ship(A, "Arrakeen", None, 2) in legal
    assert Ship(A, "Arrakeen", None, 200) not in legal
    assert Ship(H, "Arrakeen", None, 2) not in legal  # another faction's action
    assert list(state.legal_actions(G)) == [GuildNow(G), Decline(G, PromptKind.GUILD_TIMING)]
    assert not state.legal_actions(H)


def test_the_advisor_goes_where_the_rules_allow_and_nowhere_else() -> None:
    state = position(storm=18, seats=SHIPPER_FIRST)
    act(state, "atreides", "ship", to="Arrakeen", forces=3)
    prompt = open_prompt(state, PromptKind.ADVISE)
    assert state.answers(prompt, BG) == (
        Advise(BG, POLAR_SINK),
        Advise(BG, "Arrakeen"),
        Decline(BG, PromptKind.ADVISE),
    )
    assert state.answers(prompt, A) == ()


@pytest.mark.parametrize("advanced", [False, True])
def test_no_advisor_into_the_territory_in_the_basic_game_or_beside_bg_fighters(
    advanced: bool,
) -> None:
    board = [{"faction": "bene_gesserit", "territory": "Arrakeen", "forces": 1}]
    state = position(storm=18, seats=SHIPPER_FIRST, advanced=advanced, board=board)
    act(state, "atreides", "ship", to="Arrakeen", forces=3)
    prompt = open_prompt(state, PromptKind.ADVISE)
    advice = [a for a in state.answers(prompt, BG) if isinstance(a, Advise)]
    assert advice == [Advise(BG, POLAR_SINK)]


def test_wartime_answers_name_each_territory_where_advisors_may_flip() -> None:
    board = [
        {"faction": "bene_gesserit", "territory": "Arrakeen", "forces": 2, "advisors": True},
        {"faction": "bene_gesserit", "territory": "Carthag", "forces": 1, "advisors": True},
        {"faction": "atreides", "territory": "Carthag", "forces": 1},
    ]
    state = position(
        storm=18, seats=SHIPPER_FIRST, alliances=[["atreides", "bene_gesserit"]], board=board
    )
    prompt = open_prompt(state, PromptKind.WARTIME)
    # Peacetime: the ally in Carthag keeps the advisors there from flipping.
    assert state.answers(prompt, BG) == (
        Flip(BG, "Arrakeen", Side.FIGHTERS),
        Decline(BG, PromptKind.WARTIME),
    )


def test_a_karama_window_offers_the_cancel_only_to_a_card_holder() -> None:
    state = position(storm=18, seats=SHIPPER_FIRST, factions={"harkonnen": {"cards": ["Karama"]}})
    act(state, "atreides", "ship", to="Arrakeen", forces=3)
    act(state, "bene_gesserit", "advise", to="Polar Sink")
    prompt = open_prompt(state, PromptKind.KARAMA)
    assert KaramaCancel(H, Ability.SPIRITUAL_ADVISORS) in state.answers(prompt, H)
    assert state.answers(prompt, A) == (Decline(A, PromptKind.KARAMA),)
    assert all(state.is_legal(a) for a in state.legal_actions(H))


def test_a_dry_run_tells_what_would_happen_and_changes_nothing() -> None:
    state = position(storm=18, seats=SHIPPER_FIRST)
    before = state.to_dict()
    trial = state.dry_run(Ship(A, "Arrakeen", None, 3))
    assert state.to_dict() == before
    assert not state.can_undo
    assert [e.kind for e in trial.events][:1] == ["shipment"]
    assert trial.private is not None and trial.private.spice == 20 - 3
    assert any(s.territory == "Arrakeen" and s.faction is A for s in trial.public.stacks)
    assert state.apply(Ship(A, "Arrakeen", None, 3)) == list(trial.events)


def test_a_refused_dry_run_raises_the_engines_error_and_changes_nothing() -> None:
    state = position(storm=18, seats=SHIPPER_FIRST)
    before = state.to_dict()
    with pytest.raises(IllegalActionError):
        state.dry_run(Move(A, "Arrakeen", None, "Carthag", None, 1))
    assert state.to_dict() == before


def test_the_price_of_a_shipment_whoever_pays() -> None:
    state = position(storm=18, seats=SHIPPER_FIRST, factions={"atreides": {"spice": 1}})
    assert state.shipment_price(Ship(A, "Arrakeen", None, 3)) == 3  # more than it holds
    assert state.shipment_price(Ship(A, "The Great Flat", None, 3)) == 6
    with pytest.raises(InvalidActionError, match="'Caladan'"):
        state.shipment_price(Ship(A, "Caladan", None, 3))
