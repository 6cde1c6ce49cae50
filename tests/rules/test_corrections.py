"""Moderators' corrections as engine actions: each correction, atomic refusals, the
stored form, undo, and that a correction is nobody's turn and answers no prompt."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.actions import (
    Action,
    Correction,
    FactionAction,
    GiveCard,
    PlaceForces,
    RemoveForces,
    SetSpice,
    SetStorm,
    TakeCard,
    action_from_dict,
    action_to_dict,
)
from rules.components import treachery_cards
from rules.errors import MODERATOR_RULE, CorrectionError, InvalidActionError, RulesError
from rules.events import (
    CardGiven,
    CardTaken,
    Corrected,
    Event,
    ForcesPlaced,
    ForcesRemoved,
    SpiceSet,
    StormSet,
)
from rules.factions import Faction
from rules.game import GameState
from rules.model import PromptKind
from rules.scenario import run_scenario
from tests.rules.helpers import act, position, stack
from tests.rules.test_properties import (
    TERRITORIES,
    assert_sound,
    positions,
    random_action,
    totals,
)

A, H, F, E = Faction.ATREIDES, Faction.HARKONNEN, Faction.FREMEN, Faction.EMPEROR
TWO = ["atreides", "harkonnen", None, None, None, None]


def two() -> GameState:
    """Atreides (20 spice, 10 reserves) and Harkonnen (3 in Carthag), basic game."""
    return position(
        seats=TWO,
        advanced=False,
        board=[{"faction": "harkonnen", "territory": "Carthag", "forces": 3}],
    )


def refused(state: GameState, action: Action, message: str) -> CorrectionError:
    before = state.to_dict()
    with pytest.raises(CorrectionError) as caught:
        state.apply(action)
    assert caught.value.rule == MODERATOR_RULE
    assert str(caught.value) == message
    assert state.to_dict() == before
    return caught.value


# -- each correction -------------------------------------------------------------------


def test_set_storm_moves_the_storm_only() -> None:
    state = two()
    order = state.phase.order
    assert state.apply(SetStorm(7)) == [StormSet(7)]
    assert state.storm_sector == 7 and state.phase.order == order


def test_place_forces_from_reserves() -> None:
    state = two()
    events = state.apply(PlaceForces(A, "imperial basin", 9, 3))
    assert events == [ForcesPlaced(A, "Imperial Basin", 9, 3, 0)]
    assert stack(state, "atreides", "Imperial Basin", 9) == (3, 0, 0)
    assert state.factions[A].reserves == 7


def test_place_starred_forces_and_a_single_sector_territory() -> None:
    state = position(seats=["emperor", "atreides"], factions={"emperor": {"special_reserves": 2}})
    state.apply(PlaceForces(E, "Arrakeen", None, 1, special=2))
    assert stack(state, "emperor", "Arrakeen", 9) == (1, 2, 0)
    assert state.factions[E].special_reserves == 0 and state.factions[E].reserves == 9


def test_remove_forces_to_reserves_or_the_tanks() -> None:
    state = two()
    events = state.apply(RemoveForces(H, "Carthag", None, 1))
    assert events == [ForcesRemoved(H, "Carthag", 10, 1, 0, False)]
    assert state.factions[H].reserves == 11 and stack(state, "harkonnen", "Carthag", 10) == (
        2,
        0,
        0,
    )
    state.apply(RemoveForces(H, "Carthag", 10, 2, to_tanks=True))
    assert state.factions[H].tanks == 2 and (H, "Carthag", 10) not in state.stacks


def test_set_spice_and_its_event_keeps_the_amount_secret() -> None:
    state = two()
    (event,) = state.apply(SetSpice(A, 17))
    assert state.factions[A].spice == 17
    assert event == SpiceSet(A) and "17" not in json.dumps(event.to_dict())


def test_give_and_take_a_card_by_its_printed_name() -> None:
    state = two()
    (given_,) = state.apply(GiveCard(A, " karama "))
    assert state.factions[A].cards == ("Karama",) and given_ == CardGiven(A)
    assert "Karama" not in json.dumps(given_.to_dict())
    assert state.karama_card(A) == "Karama"
    assert state.apply(TakeCard(A, "KARAMA")) == [CardTaken(A)]
    assert state.factions[A].cards == ()


# -- refusals: each names the input and changes nothing -------------------------------


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (SetStorm(0), "the storm sector must be 1..18, not 0"),
        (SetStorm(19), "the storm sector must be 1..18, not 19"),
        (PlaceForces(A, "Nowhere", None, 1), "unknown territory 'Nowhere'"),
        (PlaceForces(A, "Carthag", 0, 0), "that moves no forces (forces and special are both 0)"),
        (PlaceForces(A, "The Great Flat", 3, 1), "The Great Flat has sectors 14, not 3"),
        (
            PlaceForces(A, "Imperial Basin", None, 1),
            "Imperial Basin has sectors 8, 9, 10, not None",
        ),
        (PlaceForces(A, "Carthag", None, 11), "only 10 reserves there, not 11"),
        (PlaceForces(A, "Carthag", None, 1, special=1), "only 0 special reserves there, not 1"),
        (PlaceForces(A, "Carthag", None, -1), "a count cannot be negative (-1)"),
        (PlaceForces(F, "Carthag", None, 1), "Fremen is not in this game"),
        (RemoveForces(H, "Carthag", None, 4), "only 3 forces there, not 4"),
        (RemoveForces(H, "Carthag", None, 1, special=-1), "a count cannot be negative (-1)"),
        (RemoveForces(A, "Carthag", None, 1), "only 0 forces there, not 1"),
        (
            RemoveForces(H, "Carthag", None, 0),
            "that moves no forces (forces and special are both 0)",
        ),
        (SetSpice(A, -1), "spice cannot be negative (-1)"),
        (SetSpice(F, 3), "Fremen is not in this game"),
        (TakeCard(A, "Karama"), "Atreides hold no Karama"),
        (GiveCard(F, "Karama"), "Fremen is not in this game"),
    ],
)
def test_an_impossible_correction_is_refused_and_changes_nothing(
    action: Correction, message: str
) -> None:
    refused(two(), action, message)


@pytest.mark.parametrize("card", ["Karma", "", "@everyone", "K" * 2000])
def test_a_card_not_in_this_phase_is_refused_quoting_little_of_it(card: str) -> None:
    state = two()
    before = state.to_dict()
    with pytest.raises(CorrectionError) as caught:
        state.apply(GiveCard(A, card))
    text = str(caught.value)
    assert text.startswith("there is no treachery card ") and text.endswith(")")
    assert len(text) < 300 and state.to_dict() == before


# -- nobody's turn, no prompt ----------------------------------------------------------


def test_a_correction_leaves_the_turn_and_the_open_prompts_alone() -> None:
    state = position()  # advanced, six factions: the Guild may act before the Atreides
    assert [p.kind for p in state.open_prompts()] == [PromptKind.GUILD_TIMING]
    phase = state.phase
    events = state.apply(PlaceForces(H, "Carthag", None, 2))
    assert state.phase == phase
    assert all(isinstance(e, Corrected) for e in events)
    assert not isinstance(PlaceForces(H, "Carthag", None, 2), FactionAction)
    assert PlaceForces(H, "Carthag", None, 2) not in state.legal_actions(H)


def test_a_correction_is_taken_after_the_phase_is_over() -> None:
    state = two()
    while (to_act := state.to_act()) is not None:
        act(state, to_act.value, "pass")
    assert state.is_complete
    state.apply(SetSpice(H, 4))
    assert state.factions[H].spice == 4 and state.is_complete


def test_a_karama_cancel_does_not_take_back_a_storm_correction() -> None:
    state = position(
        storm=18,
        seats=["fremen", "atreides"],
        factions={"atreides": {"cards": ["Karama"]}},
        board=[{"faction": "fremen", "territory": "Sietch Tabr", "forces": 5}],
    )
    act(state, "fremen", "pass")
    act(state, "fremen", "move", from_="Sietch Tabr", to="Funeral Plain", forces=5)
    state.apply(SetStorm(3))
    act(state, "atreides", "karama_cancel", ability="fremen_movement")
    assert state.storm_sector == 3


def test_spice_set_while_a_karama_window_is_open_is_kept_and_a_cancel_refunds_the_payment() -> None:
    """Found by the property test: the saved position got the amount, not the change,
    so the cancelled cross-shipment's payment (2 spice) vanished from the game."""
    state = position(
        storm=18,
        seats=["spacing_guild", "atreides", "harkonnen"],
        factions={"atreides": {"cards": ["Karama"]}},
        board=[{"faction": "spacing_guild", "territory": "Tuek's Sietch", "forces": 6}],
    )
    act(state, "spacing_guild", "cross_ship", from_="Tuek's Sietch", to="Carthag", forces=4)
    assert state.factions[Faction.SPACING_GUILD].spice == 18 and state.spice_bank == 2
    state.apply(SetSpice(Faction.SPACING_GUILD, 0))
    act(state, "atreides", "karama_cancel", ability="cross_ship")
    assert state.factions[Faction.SPACING_GUILD].spice == 2 and state.spice_bank == 0


def test_spice_set_below_what_a_karama_cancel_would_take_back_is_refused() -> None:
    state = position(
        storm=18,
        seats=["atreides", "harkonnen", "spacing_guild"],
        factions={"harkonnen": {"cards": ["Karama"]}},
    )
    act(state, "atreides", "ship", to="Arrakeen", forces=5)
    assert state.factions[Faction.SPACING_GUILD].spice == 25  # 20 of it before the payment
    refused(
        state,
        SetSpice(Faction.SPACING_GUILD, 3),
        "that correction cannot be made in the position before guild payment, which a Karama"
        " card may still restore (spice cannot be negative (-2)); make it after that window"
        " closes",
    )
    state.apply(SetSpice(Faction.SPACING_GUILD, 7))
    act(state, "harkonnen", "karama_cancel", ability="guild_payment")
    assert state.factions[Faction.SPACING_GUILD].spice == 2


# -- the stored form and undo ------------------------------------------------------------

EVERY = [
    SetStorm(4),
    PlaceForces(A, "Imperial Basin", 9, 3, special=1),
    RemoveForces(H, "Polar Sink", None, 2, to_tanks=True),
    SetSpice(A, 0),
    GiveCard(A, "Hajr"),
    TakeCard(H, "Baliset"),
]


@pytest.mark.parametrize("action", EVERY, ids=lambda a: a.name)
def test_a_correction_round_trips_through_its_json(action: Correction) -> None:
    data = json.loads(json.dumps(action_to_dict(action)))
    assert data["action"] == action.name
    assert action_from_dict(data) == action


def test_a_correction_with_a_wrong_field_is_refused_when_read() -> None:
    with pytest.raises(InvalidActionError):
        action_from_dict({"action": "set_spice", "faction": "atreides", "amount": "lots"})
    with pytest.raises(InvalidActionError):
        action_from_dict({"action": "give_card", "faction": "nobody", "card": "Karama"})
    with pytest.raises(InvalidActionError):
        action_from_dict({"action": "set_storm"})


def test_every_correction_event_round_trips() -> None:
    state = position(
        seats=TWO,
        factions={"harkonnen": {"cards": ["Baliset"]}},
        board=[{"faction": "harkonnen", "territory": "Polar Sink", "forces": 2}],
    )
    events: list[Event] = []
    for action in EVERY:
        if not isinstance(action, PlaceForces):
            events += state.apply(action)
    events += state.apply(PlaceForces(A, "Imperial Basin", 9, 3))
    for event in events:
        assert Event.from_dict(json.loads(json.dumps(event.to_dict()))) == event


def test_undo_takes_back_a_correction_exactly() -> None:
    state = two()
    before = state.to_dict()
    state.apply(SetStorm(9))
    state.apply(RemoveForces(H, "Carthag", None, 3, to_tanks=True))
    state.undo()
    state.undo()
    assert state.to_dict() == before


# -- property: random corrections amid random play keep the forces, never go negative ------


@st.composite
def corrections(draw: st.DrawFn, state: GameState) -> Correction:
    faction = draw(st.sampled_from([*state.factions, F]))
    territory = draw(st.sampled_from(TERRITORIES))
    sector = draw(st.one_of(st.none(), st.integers(-1, 19)))
    count = st.integers(-2, 12)
    choices: list[Any] = [
        SetStorm(draw(st.integers(-1, 20))),
        PlaceForces(faction, territory, sector, draw(count), draw(st.integers(-1, 3))),
        RemoveForces(faction, territory, sector, draw(count), draw(st.integers(-1, 2))),
        SetSpice(faction, draw(st.integers(-3, 40))),
        GiveCard(faction, draw(st.sampled_from([*treachery_cards(), "Karma"]))),
        TakeCard(faction, draw(st.sampled_from(sorted(treachery_cards())))),
    ]
    own = [k for k in state.stacks if k[0] == faction]
    if own:
        _, there, at = draw(st.sampled_from(own))
        held = state.stacks[(faction, there, at)]
        choices.append(
            RemoveForces(
                faction,
                there,
                at,
                draw(st.integers(0, held.forces)),
                draw(st.integers(0, held.special)),
                draw(st.booleans()),
            )
        )
    chosen: Correction = draw(st.sampled_from(choices))
    return chosen


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.data())
def test_random_corrections_amid_play_keep_every_force_and_account_for_the_spice(
    state: GameState, data: st.DataObject
) -> None:
    forces, spice = totals(state)
    for _ in range(data.draw(st.integers(1, 30))):
        playing = not state.is_complete and data.draw(st.booleans())
        action = random_action(data.draw, state) if playing else data.draw(corrections(state))
        before = state.to_dict()
        held = {f: s.spice for f, s in state.factions.items()}
        try:
            state.apply(action)
        except RulesError as error:
            assert playing or error.rule == MODERATOR_RULE
            assert error.message
            assert state.to_dict() == before, f"refused {action} changed the state"
            continue
        if isinstance(action, SetSpice):
            spice += action.amount - held[action.faction]
        assert totals(state) == (forces, spice), f"{action} lost or made forces or spice"
        assert_sound(state)
        after = state.to_dict()
        assert GameState.from_dict(after).to_dict() == after
        state.undo()
        assert state.to_dict() == before, f"undo of {action} is not exact"
        state.apply(action)


def _fremen_window() -> GameState:
    """The Fremen just moved two territories: a Karama window is open to the Atreides."""
    state = position(
        storm=18,
        seats=["fremen", "atreides"],
        factions={"atreides": {"cards": ["Karama"]}},
        board=[{"faction": "fremen", "territory": "Sietch Tabr", "forces": 5}],
    )
    act(state, "fremen", "pass")
    act(state, "fremen", "move", from_="Sietch Tabr", to="Funeral Plain", forces=5)
    assert [p.kind for p in state.open_prompts()] == [PromptKind.KARAMA]
    return state


def test_a_karama_cancel_keeps_a_correction_made_while_its_window_was_open() -> None:
    state = _fremen_window()
    state.apply(SetSpice(F, 7))
    state.apply(PlaceForces(A, "Imperial Basin", 9, 2))
    act(state, "atreides", "karama_cancel", ability="fremen_movement")
    assert stack(state, "fremen", "Sietch Tabr", 13) == (5, 0, 0)  # the move is cancelled
    assert state.factions[F].spice == 7  # the corrections stand
    assert stack(state, "atreides", "Imperial Basin", 9) == (2, 0, 0)
    assert state.factions[A].reserves == 8


def test_a_correction_impossible_before_an_ability_still_open_to_karama_is_refused() -> None:
    state = _fremen_window()
    refused(
        state,
        RemoveForces(F, "Funeral Plain", None, 5),
        "that correction cannot be made in the position before fremen movement, which a "
        "Karama card may still restore (only 0 forces there, not 5); make it after that "
        "window closes",
    )
    act(state, "atreides", "decline", prompt="karama")
    state.apply(RemoveForces(F, "Funeral Plain", None, 5))
    assert state.factions[F].reserves == 15


def test_a_scenario_file_may_list_corrections() -> None:
    data: dict[str, Any] = {
        "format": "dune-scenario/1",
        "advanced": False,
        "storm_sector": 18,
        "seats": TWO,
        "factions": {"atreides": {"spice": 5, "reserves": 10}, "harkonnen": {"reserves": 10}},
        "board": [],
        "actions": [
            {"action": "set_storm", "sector": 4},
            {"action": "set_spice", "faction": "atreides", "amount": -1},
            {"action": "place_forces", "faction": "harkonnen", "territory": "Carthag",
             "sector": None, "forces": 2},
        ],
    }  # fmt: skip
    state, out = run_scenario(data)
    first, second, third = out["results"]
    assert first == {"index": 0, "accepted": True, "events": [{"type": "storm_set", "sector": 4}]}
    assert second["accepted"] is False and second["rule"] == MODERATOR_RULE
    assert third["accepted"] is True and state.storm_sector == 4
    assert stack(state, "harkonnen", "Carthag", 10) == (2, 0, 0)
