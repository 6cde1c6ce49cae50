"""Truthtrance (3.01.21): worked examples and the refusals table (docs/whole-turn-readings.md,
T1-T5)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from rules.actions import AnswerTruthtrance, PlayTruthtrance, action_from_dict
from rules.components import treachery_deck
from rules.defaults import default_action
from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError
from rules.events import TruthtranceAnswered, TruthtrancePlayed
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from rules.storm.actions import Dial
from rules.truthtrance import QUESTION_LIMIT, REMARK_LIMIT
from tests.rules.game_helpers import game_at
from tests.rules.helpers import act
from tests.rules.refusal import refused

ASKED = "Do you hold a Lasgun?"
SEATS: list[str | None] = ["harkonnen", "atreides", "fremen", None, None, None]


def storm_game(**holdings: list[str]) -> GameState:
    """Turn 2's storm, everyone dialing; the named factions hold those cards."""
    factions = {f: {"cards": tuple(cards)} for f, cards in holdings.items()}
    return game_at(
        "storm",
        seats=SEATS,
        factions=factions,
        step="dial",
        waiting=(Faction.HARKONNEN, Faction.ATREIDES),
        dialers=(Faction.HARKONNEN, Faction.ATREIDES),
    )


def test_a_question_is_asked_privately_and_answered_in_public() -> None:
    state = storm_game(atreides=["Truthtrance", "Lasgun"])
    events = act(state, "atreides", "truthtrance", target="harkonnen", question=ASKED)
    assert events == [TruthtrancePlayed(Faction.ATREIDES, Faction.HARKONNEN, "3.01.21")]
    assert state.factions[Faction.ATREIDES].cards == ("Lasgun",)
    assert state.whole.treachery_discard[0] == "Truthtrance"
    # the table sees who asked whom, never the words
    public = json.dumps(state.public_view().to_dict())
    assert "Lasgun?" not in public and ASKED not in json.dumps([e.to_dict() for e in events])
    assert state.public_view().game.truthtrance == (Faction.ATREIDES, Faction.HARKONNEN)
    # the asker and the target read it; the Fremen do not
    for faction in (Faction.ATREIDES, Faction.HARKONNEN):
        secrets = state.view_for(faction).secrets
        assert secrets is not None and secrets.truthtrance is not None
        assert secrets.truthtrance["text"] == ASKED
    fremen = state.view_for(Faction.FREMEN)
    assert fremen.secrets is not None and fremen.secrets.truthtrance is None
    # the game waits for the answer: the target alone, yes or no
    assert state.waiting_on() == (Faction.HARKONNEN,)
    assert list(state.legal_actions(Faction.HARKONNEN)) == [
        AnswerTruthtrance(Faction.HARKONNEN, "yes"),
        AnswerTruthtrance(Faction.HARKONNEN, "no"),
    ]
    assert not state.legal_actions(Faction.ATREIDES)
    answered = act(state, "harkonnen", "truthtrance_answer", answer="No", remark=" not  today ")
    assert answered == [
        TruthtranceAnswered(Faction.HARKONNEN, Faction.ATREIDES, "no", "not today", "3.01.21")
    ]
    # the storm's choice resumes where it was
    assert state.waiting_on() == (Faction.HARKONNEN, Faction.ATREIDES)
    assert state.public_view().game.truthtrance is None
    kept = state.view_for(Faction.ATREIDES).secrets
    assert kept is not None and kept.truthtrance is not None
    assert (kept.truthtrance["answer"], kept.truthtrance["text"]) == ("no", ASKED)
    act(state, "harkonnen", "dial", value=2)


def test_the_open_question_holds_every_other_action() -> None:
    state = storm_game(atreides=["Truthtrance", "Truthtrance"])
    act(state, "atreides", "truthtrance", target="fremen", question="Will you ship?")
    refused(state, NotYourTurnError, "3.01.21", "harkonnen", "dial", value=1)
    refused(state, NotYourTurnError, "3.01.21", "harkonnen", "bribe", to="fremen", amount=1)
    refused(
        state,
        IllegalActionError,
        "3.01.21",
        "atreides",
        "truthtrance",
        target="harkonnen",
        question="Again?",
    )
    assert not state.is_legal(Dial(Faction.HARKONNEN, 1))
    # a moderator's correction is nobody's turn: still taken
    state.apply(action_from_dict({"action": "set_spice", "faction": "fremen", "amount": 3}))
    assert default_action(state, Faction.FREMEN) == AnswerTruthtrance(Faction.FREMEN, "none")
    assert default_action(state, Faction.HARKONNEN) is None
    events = state.apply(AnswerTruthtrance(Faction.FREMEN, "none"))
    assert events[0].to_dict()["answer"] == "none"
    # the second card may be played now, and the question is numbered
    act(state, "atreides", "truthtrance", target="harkonnen", question="And you?")
    assert state.whole.truthtrance is not None and state.whole.truthtrance.number == 2


@pytest.mark.parametrize(
    ("faction", "fields", "error", "rule"),
    [
        ("fremen", {"target": "harkonnen", "question": ASKED}, IllegalActionError, "3.01.21"),
        ("atreides", {"target": "atreides", "question": ASKED}, IllegalActionError, "3.01.21"),
        ("atreides", {"target": "emperor", "question": ASKED}, IllegalActionError, "3.01.21"),
        ("atreides", {"target": "nobody", "question": ASKED}, IllegalActionError, "3.01.21"),
        ("atreides", {"target": "fremen", "question": "   "}, InvalidActionError, "3.01.21"),
        # nothing to read: zero-width spaces and joiners, a braille blank, combining marks
        (
            "atreides",
            {"target": "fremen", "question": "\u200b\u200d\u2800"},
            InvalidActionError,
            "3.01.21",
        ),
        (
            "atreides",
            {"target": "fremen", "question": "\u0301" * 40},
            InvalidActionError,
            "3.01.21",
        ),
        ("atreides", {"target": "fremen", "question": "x" * 301}, InvalidActionError, "3.01.21"),
    ],
)
def test_refusals_change_nothing(
    faction: str, fields: dict[str, str], error: type[IllegalActionError], rule: str
) -> None:
    state = storm_game(atreides=["Truthtrance"])
    message = refused(state, error, rule, faction, "truthtrance", **fields).message
    assert len(message) < 300  # the input is quoted short


def test_a_long_question_is_quoted_short_and_the_limits_hold() -> None:
    state = storm_game(atreides=["Truthtrance"])
    long = "y" * (QUESTION_LIMIT + 1)
    with pytest.raises(InvalidActionError) as info:
        state.apply(PlayTruthtrance(Faction.ATREIDES, "fremen", long))
    assert long not in info.value.message and "…" in info.value.message
    state.apply(PlayTruthtrance(Faction.ATREIDES, "fremen", "z" * QUESTION_LIMIT))
    refused(state, InvalidActionError, "3.01.21", "fremen", "truthtrance_answer", answer="maybe")
    refused(
        state,
        InvalidActionError,
        "3.01.21",
        "fremen",
        "truthtrance_answer",
        answer="yes",
        remark="r" * (REMARK_LIMIT + 1),
    )
    refused(state, NotYourTurnError, "3.01.21", "harkonnen", "truthtrance_answer", answer="yes")
    refused(state, NotYourTurnError, "3.01.21", "atreides", "truthtrance_answer", answer="yes")
    act(state, "fremen", "truthtrance_answer", answer="yes")
    refused(state, NotYourTurnError, "3.01.21", "fremen", "truthtrance_answer", answer="no")


def test_when_it_may_be_played() -> None:
    setup = GameState.new_game(
        [Faction.ATREIDES, Faction.HARKONNEN, None, None, None, None], seed=3
    )
    give = {"action": "give_card", "faction": "atreides", "card": "Truthtrance"}
    setup.apply(action_from_dict(give))
    assert setup.game_phase is GamePhase.SETUP
    ask = {"target": "harkonnen", "question": ASKED}
    refused(setup, NotYourTurnError, "3.01.21", "atreides", "truthtrance", **ask)
    over = game_at("storm", seats=SEATS, factions={"atreides": {"cards": ("Truthtrance",)}})
    over.set_game(phase=GamePhase.OVER)
    refused(over, NotYourTurnError, "3.01.21", "atreides", "truthtrance", **ask)
    # inside any phase: the Bidding phase, the Battle phase's choices, the Mentat Pause's turn
    for phase in ("bidding", "revival", "spice_collection", "battle"):
        state = game_at(phase, seats=SEATS, factions={"fremen": {"cards": ("Truthtrance",)}})
        state.apply(PlayTruthtrance(Faction.FREMEN, "atreides", "Are you allied?"))
        assert state.waiting_on() == (Faction.ATREIDES,), phase


def test_undo_and_replay_are_exact() -> None:
    state = storm_game(atreides=["Truthtrance"])
    before = state.to_dict()
    state.apply(PlayTruthtrance(Faction.ATREIDES, "harkonnen", ASKED))
    opened = state.to_dict()
    assert GameState.from_dict(opened).to_dict() == opened
    state.apply(AnswerTruthtrance(Faction.HARKONNEN, "yes", "and a Shield"))
    answered = state.to_dict()
    assert GameState.from_dict(answered).to_dict() == answered
    state.undo()
    assert state.to_dict() == opened
    state.undo()
    assert state.to_dict() == before
    assert "truthtrance" not in json.dumps(before["game"])  # stored only once played


def test_cards_are_conserved() -> None:
    state = storm_game(atreides=["Truthtrance"])
    deck = Counter(treachery_deck())

    def count() -> Counter[str]:
        game = state.whole
        held = [c for s in state.factions.values() for c in s.cards]
        return Counter([*game.treachery_deck, *game.treachery_discard, *held])

    state.set_game(treachery_deck=tuple((deck - count()).elements()))
    total = count()
    state.apply(PlayTruthtrance(Faction.ATREIDES, "harkonnen", ASKED))
    assert count() == total


def test_in_shipment_and_movement_the_step_waits_for_the_answer() -> None:
    state = game_at(
        "shipment_movement", seats=SEATS, factions={"fremen": {"cards": ("Truthtrance",)}}
    )
    first = state.to_act()
    assert first is not None and not state.open_prompts()
    state.apply(PlayTruthtrance(Faction.FREMEN, first.value, "Will you ship to Carthag?"))
    assert state.waiting_on() == (first,)
    refused(state, NotYourTurnError, "3.01.21", first.value, "pass")
    act(state, first.value, "truthtrance_answer", answer="yes")
    assert state.to_act() is first
    act(state, first.value, "pass")


def test_not_while_a_faction_ability_is_being_resolved() -> None:
    cards = {"fremen": {"cards": ("Truthtrance",)}}
    state = game_at("shipment_movement", advanced=True, factions=cards)
    assert state.open_prompts()  # the Guild may take its turn now (2.06.12.01)
    fields = {"target": "harkonnen", "question": ASKED}
    refused(state, NotYourTurnError, "1.00.05", "fremen", "truthtrance", **fields)
