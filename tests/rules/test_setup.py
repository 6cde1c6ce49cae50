"""Game set-up (0.xx) and chance: a seeded game, dealt and chosen."""

from __future__ import annotations

import pytest

from rules.actions import action_from_dict, action_to_dict
from rules.battle.traitors import OFFERS, TRAITORS
from rules.battle.view import traitor_secrets
from rules.components import leaders
from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import Chance, GamePhase
from rules.model import RuleSet
from tests.rules.helpers import act
from tests.rules.random_play import SIX
from tests.rules.refusal import refused

F = Faction


def new(seed: int = 3, advanced: bool = False) -> GameState:
    return GameState.new_game(SIX, seed=seed, rules=RuleSet(advanced=advanced))


def test_the_printed_set_up() -> None:
    state = new()
    own = state.factions
    assert {f: s.spice for f, s in own.items()} == {
        F.ATREIDES: 10,
        F.BENE_GESSERIT: 5,
        F.EMPEROR: 10,
        F.FREMEN: 3,
        F.HARKONNEN: 10,
        F.SPACING_GUILD: 5,
    }
    assert (own[F.EMPEROR].reserves, own[F.EMPEROR].special_reserves) == (15, 5)
    assert (own[F.FREMEN].reserves, own[F.FREMEN].special_reserves) == (17, 3)  # 10 to place
    assert state.stack(F.ATREIDES, "Arrakeen", 9).forces == 10
    assert state.stack(F.HARKONNEN, "Carthag", 10).forces == 10
    assert state.stack(F.SPACING_GUILD, "Tuek's Sietch", 4).forces == 5
    assert state.stack(F.BENE_GESSERIT, "Polar Sink", None).forces == 1
    assert {f: len(s.cards) for f, s in own.items()} == {f: 2 if f is F.HARKONNEN else 1 for f in F}
    assert state.storm_sector == 18 and state.turn == 1
    assert state.game_phase is GamePhase.SETUP
    game = state.whole
    assert len(TRAITORS.of(game)[F.HARKONNEN]) == 4
    assert all(len(o) == 4 for o in OFFERS.of(game).values())
    assert F.HARKONNEN not in OFFERS.of(game)
    assert len(game.spice_deck) == 21 and len(game.treachery_deck) == 33 - 7
    dealt = [c for s in own.values() for c in s.cards]
    assert sorted(dealt + list(game.treachery_deck)) == sorted(
        GameState.new_game(SIX, seed=99).whole.treachery_deck
        + tuple(c for s in GameState.new_game(SIX, seed=99).factions.values() for c in s.cards)
    )


def test_the_same_seed_gives_the_same_game_and_another_seed_another() -> None:
    assert new(5).to_dict() == new(5).to_dict()
    assert new(5).whole.spice_deck != new(6).whole.spice_deck


def test_chance_is_repeatable_and_counts_its_draws() -> None:
    a, next_a = Chance(1).shuffle(range(10))
    b, _ = Chance(1).shuffle(range(10))
    assert a == b and next_a.draws == 1
    assert Chance(1).shuffle(range(10))[0] != next_a.shuffle(range(10))[0]


def test_the_public_view_shows_counts_never_the_decks_or_traitors() -> None:
    state = new()
    public = str(state.public_view().to_dict())
    assert "treachery_deck'" not in public and "spice_deck'" not in public
    view = state.public_view().game
    assert view is not None
    assert view.spice_deck_cards == 21 and view.treachery_deck_cards == 26
    assert "seed" not in public and "traitor_offers" not in public
    secrets = state.view_for(F.ATREIDES).secrets
    assert len(traitor_secrets(secrets).traitors_offered) == 4
    harkonnen = traitor_secrets(state.view_for(F.HARKONNEN).secrets)
    assert harkonnen.traitors == TRAITORS.of(state.whole)[F.HARKONNEN]


def test_choices_then_the_first_storm() -> None:
    state = new()
    offers = OFFERS.of(state.whole)
    for faction in (F.SPACING_GUILD, F.ATREIDES, F.EMPEROR, F.FREMEN, F.BENE_GESSERIT):
        events = act(state, faction.value, "keep_traitor", leader=offers[faction][0].upper())
        assert events[0].to_dict() == {
            "type": "traitor_kept",
            "faction": faction.value,
            "kept": 1,
            "rule": "0.11",
        }
        assert TRAITORS.of(state.whole)[faction] == (offers[faction][0],)
    assert state.waiting_on() == (F.FREMEN, F.BENE_GESSERIT)
    act(state, "bene_gesserit", "predict", who="harkonnen", turn=6)
    assert state.whole.prediction == (F.HARKONNEN, 6)
    game_view = state.public_view().to_dict()["game"]
    assert game_view["prediction_made"] is True
    assert not set(game_view) & {"prediction", "traitors", "dials", "storm_next", "seed"}
    events = act(
        state, "fremen", "place_fremen", sietch_tabr=5, false_wall_south=3, false_wall_west=2
    )
    placed = [(e.to_dict()["territory"], e.to_dict()["forces"]) for e in events[:3]]
    assert placed == [("Sietch Tabr", 5), ("False Wall South", 3), ("False Wall West", 2)]
    assert state.factions[F.FREMEN].reserves == 7
    assert state.game_phase is GamePhase.STORM
    assert state.waiting_on() == (F.BENE_GESSERIT, F.HARKONNEN)


@pytest.mark.parametrize(
    ("faction", "action", "fields", "error", "rule"),
    [
        ("harkonnen", "keep_traitor", {"leader": "Stilgar"}, NotYourTurnError, "0.11"),
        ("atreides", "keep_traitor", {"leader": "Nobody " * 40}, IllegalActionError, "0.11"),
        ("atreides", "predict", {"who": "harkonnen", "turn": 2}, NotYourTurnError, "2.02.03"),
        (
            "bene_gesserit",
            "predict",
            {"who": "bene_gesserit", "turn": 2},
            IllegalActionError,
            "2.02.03",
        ),
        ("bene_gesserit", "predict", {"who": "tleilaxu", "turn": 2}, IllegalActionError, "2.02.03"),
        ("bene_gesserit", "predict", {"who": "fremen", "turn": 11}, InvalidActionError, "2.02.03"),
        ("bene_gesserit", "predict", {"who": "fremen", "turn": 0}, InvalidActionError, "2.02.03"),
        (
            "fremen",
            "place_fremen",
            {"sietch_tabr": 5, "false_wall_south": 5, "false_wall_west": 1},
            InvalidActionError,
            "0.13",
        ),
        (
            "fremen",
            "place_fremen",
            {"sietch_tabr": 12, "false_wall_south": -2, "false_wall_west": 0},
            InvalidActionError,
            "0.13",
        ),
        (
            "atreides",
            "place_fremen",
            {"sietch_tabr": 10, "false_wall_south": 0, "false_wall_west": 0},
            NotYourTurnError,
            "0.13",
        ),
        ("atreides", "dial", {"value": 3}, NotYourTurnError, "0.00"),
    ],
)
def test_set_up_refusals(
    faction: str, action: str, fields: dict[str, object], error: type, rule: str
) -> None:
    err = refused(new(), error, rule, faction, action, **fields)
    assert len(err.message) < 400


def test_a_traitor_is_chosen_once() -> None:
    state = new()
    act(state, "atreides", "keep_traitor", leader=OFFERS.of(state.whole)[F.ATREIDES][1])
    refused(state, NotYourTurnError, "0.11", "atreides", "keep_traitor", leader="Stilgar")


def test_traitors_come_from_the_factions_in_play() -> None:
    seats = [F.ATREIDES, None, F.HARKONNEN, None, F.EMPEROR, None]
    state = GameState.new_game(seats, seed=1)
    names = {n for f in (F.ATREIDES, F.HARKONNEN, F.EMPEROR) for n in leaders(f)}
    dealt = {n for o in OFFERS.of(state.whole).values() for n in o}
    assert dealt | set(TRAITORS.of(state.whole)[F.HARKONNEN]) <= names


def test_a_game_needs_two_different_factions() -> None:
    with pytest.raises(InvalidActionError):
        GameState.new_game([F.ATREIDES, F.ATREIDES], seed=1)
    with pytest.raises(InvalidActionError):
        GameState.new_game([F.ATREIDES], seed=1)
    with pytest.raises(InvalidActionError):
        GameState.new_game([*SIX, None], seed=1)
    for turns in (0, 11):
        with pytest.raises(InvalidActionError):
            GameState.new_game(SIX, seed=1, last_turn=turns)


def test_legal_set_up_choices_and_action_round_trip() -> None:
    state = new()
    fremen = list(state.legal_actions(F.FREMEN))
    assert len(fremen) == 4 + 66
    for action in fremen[:5] + fremen[-2:]:
        assert action_from_dict(action_to_dict(action)) == action
    assert not list(state.legal_actions(F.HARKONNEN))


def test_the_advanced_bene_gesserit_place_one_advisor_after_the_fremen() -> None:
    state = new(advanced=True)
    assert state.factions[F.BENE_GESSERIT].reserves == 20
    assert not state.stacks.get((F.BENE_GESSERIT, "Polar Sink", None))
    for faction, offers in OFFERS.of(state.whole).items():
        act(state, faction.value, "keep_traitor", leader=offers[0])
    act(state, "bene_gesserit", "predict", who="fremen", turn=3)
    assert state.waiting_on() == (F.FREMEN,)  # the advisor waits for the Fremen
    refused(state, IllegalActionError, "2.02.08", "bene_gesserit", "place_advisor", to="Arrakeen")
    act(state, "fremen", "place_fremen", sietch_tabr=10, false_wall_south=0, false_wall_west=0)
    assert state.waiting_on() == (F.BENE_GESSERIT,)
    refused(state, InvalidActionError, "2.02.08", "bene_gesserit", "place_advisor", to="Meridian")
    events = act(state, "bene_gesserit", "place_advisor", to="arrakeen")
    assert events[0].to_dict()["token"] == "advisor"
    assert state.stack(F.BENE_GESSERIT, "Arrakeen", 9).advisors == 1
    assert state.factions[F.BENE_GESSERIT].reserves == 19
    assert state.game_phase is GamePhase.STORM


def test_an_advisor_alone_is_a_fighter() -> None:
    state = GameState.new_game([F.ATREIDES, F.BENE_GESSERIT], seed=2)
    act(state, "atreides", "keep_traitor", leader=OFFERS.of(state.whole)[F.ATREIDES][0])
    act(
        state,
        "bene_gesserit",
        "keep_traitor",
        leader=OFFERS.of(state.whole)[F.BENE_GESSERIT][0],
    )
    act(state, "bene_gesserit", "predict", who="atreides", turn=3)
    act(state, "bene_gesserit", "place_advisor", to="The Great Flat")
    assert state.stack(F.BENE_GESSERIT, "The Great Flat", 14).fighters == 1


def test_each_faction_sees_only_its_own_secrets() -> None:
    state = new(advanced=True)
    for faction, offers in OFFERS.of(state.whole).items():
        act(state, faction.value, "keep_traitor", leader=offers[0])
    act(state, "bene_gesserit", "predict", who="harkonnen", turn=4)
    act(state, "fremen", "place_fremen", sietch_tabr=4, false_wall_south=3, false_wall_west=3)
    act(state, "bene_gesserit", "place_advisor", to="Polar Sink")
    act(state, "harkonnen", "dial", value=17)
    for faction in F:
        secrets = state.view_for(faction).secrets
        assert secrets is not None
        assert traitor_secrets(secrets).traitors == TRAITORS.of(state.whole)[faction]
        assert (secrets.prediction is not None) == (faction is F.BENE_GESSERIT)
        assert secrets.dial == (17 if faction is F.HARKONNEN else None)
        others = [n for f, t in TRAITORS.of(state.whole).items() if f is not faction for n in t]
        text = str(state.view_for(faction).to_dict()["secrets"])
        assert not [n for n in others if n not in TRAITORS.of(state.whole)[faction] and n in text]
    public = state.public_view().game
    assert public is not None and public.dialed == (F.HARKONNEN,)
    assert "17" not in str(public)


def test_the_set_up_asks_the_choices_the_later_phases_declare() -> None:
    """The traitor is the battle's set-up choice (0.11): the registry hands it to set-up,
    which deals it, waits on it and carries it out like its own."""
    from rules import setup
    from rules.battle import traitors
    from rules.battle.actions import KeepTraitor
    from rules.phases import REGISTRY, TURN

    declared = [c for spec in TURN for c in spec.setup]
    assert declared == [traitors.CHOICE]
    set_up = REGISTRY[GamePhase.SETUP]
    assert set_up.handler(KeepTraitor(F.ATREIDES, "Duncan Idaho")) is not None
    without = setup.spec(())  # a set-up with none of the later phases' choices
    assert without.handler(KeepTraitor(F.ATREIDES, "Duncan Idaho")) is None
    with pytest.raises(ValueError, match="declared twice"):
        setup.spec([traitors.CHOICE, traitors.CHOICE])
    state = new()
    atreides = [a for a in state.legal_actions(F.ATREIDES) if isinstance(a, KeepTraitor)]
    assert len(atreides) == traitors.DEALT and F.ATREIDES in state.whole.waiting
    assert not [a for a in state.legal_actions(F.HARKONNEN) if isinstance(a, KeepTraitor)]
    state.apply(atreides[1])
    assert TRAITORS.of(state.whole)[F.ATREIDES] == (atreides[1].leader,)
    again = {"leader": atreides[0].leader}
    err = refused(state, NotYourTurnError, "0.11", "atreides", "keep_traitor", **again)
    assert "Atreides has no traitor to choose at set-up" in err.message


def test_everyone_sees_how_many_traitors_each_holds_never_which() -> None:
    state = new()
    act(state, "atreides", "keep_traitor", leader=OFFERS.of(state.whole)[F.ATREIDES][0])
    game = state.public_view().to_dict()["game"]
    held = dict(game["traitors_held"])
    assert held["harkonnen"] == 4 and held["atreides"] == 1 and held["emperor"] == 0
    assert all("traitors_held" not in row for row in game["leaders"])
    mine = state.view_for(F.ATREIDES).to_dict()["secrets"]
    assert mine["traitors"] == list(TRAITORS.of(state.whole)[F.ATREIDES])
    assert mine["traitors_offered"] == []
    other = new()  # the same game, another traitor kept: the same public view
    act(other, "atreides", "keep_traitor", leader=OFFERS.of(other.whole)[F.ATREIDES][1])
    assert TRAITORS.of(other.whole) != TRAITORS.of(state.whole)
    assert other.public_view().to_dict() == state.public_view().to_dict()
