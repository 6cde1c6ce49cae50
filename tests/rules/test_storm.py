"""The Storm Phase (1.01): dials, the storm deck, destruction, the storm order."""

from __future__ import annotations

import pytest

from rules.actions import Pass
from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError
from rules.events import Event
from rules.factions import Faction
from rules.game import GameState
from rules.model import Stack
from rules.storm.model import StormTurn
from rules.storm.view import storm_card_held, storm_secrets
from tests.rules.game_helpers import DECK, game_at, of_kind, types
from tests.rules.helpers import act
from tests.rules.refusal import refused

F = Faction


def test_worked_example_turn_one_storm() -> None:
    """storm_turn1: the Harkonnen (sector 1) and the Bene Gesserit (sector 16) dial 6 and
    7; the storm goes 18 -> 13; in sector 13 the Fremen in Sietch Tabr are safe and the
    BG force on the sand of Wind Pass dies (0.16, 1.01.03, D2); BG first, Emperor last."""
    state = game_at(
        "storm",
        turn=1,
        board=[
            ("atreides", "Arrakeen", 9, 10),
            ("bene_gesserit", "Wind Pass", 13, 1),
            ("fremen", "Sietch Tabr", 13, 5),
            ("fremen", "False Wall South", 3, 3),
            ("harkonnen", "Carthag", 10, 10),
        ],
        treachery_deck=DECK,
    )
    assert state.waiting_on() == (F.BENE_GESSERIT, F.HARKONNEN)
    refused(state, NotYourTurnError, "0.16", "atreides", "dial", value=4)
    events = act(state, "harkonnen", "dial", value=6)
    assert types(events) == ["storm_dialed"]
    assert "6" not in str(state.public_view().to_dict()["game"])
    events = act(state, "bene_gesserit", "dial", value=7)
    assert of_kind(events, "storm_dials_revealed")[0]["values"] == (7, 6)
    assert of_kind(events, "storm_moved")[0] == {
        "type": "storm_moved",
        "from_sector": 18,
        "to_sector": 13,
        "sectors": 13,
        "rule": "0.16",
    }
    lost = of_kind(events, "forces_destroyed")
    assert [(e["faction"], e["territory"], e["forces"]) for e in lost] == [
        ("bene_gesserit", "Wind Pass", 1)
    ]
    assert state.factions[F.BENE_GESSERIT].tanks == 1
    assert state.stack(F.FREMEN, "Sietch Tabr", 13).forces == 5
    order = of_kind(events, "storm_order")[0]["order"]
    assert order[0] == "bene_gesserit" and order[-1] == "emperor"
    assert state.turn == 1 and state.game_phase.value in ("choam_charity", "bidding")


@pytest.mark.parametrize(
    ("mode", "lost"),
    [("final", 0), ("path", 2), ("none", 0)],
)
def test_first_storm_destruction_is_a_switch(mode: str, lost: int) -> None:
    """D2: by default the first storm destroys only where it stops."""
    state = game_at(
        "storm", turn=1, board=[("atreides", "Cielago North", 2, 2)], variants={"first_storm": mode}
    )
    act(state, "harkonnen", "dial", value=3)
    events = act(state, "bene_gesserit", "dial", value=2)
    assert state.storm_sector == 5
    # the phases then run on: the Revival phase brings the 2 back free (1.05.01.01)
    assert sum(e["forces"] for e in of_kind(events, "forces_destroyed")) == lost


@pytest.mark.parametrize(
    ("turn", "value", "error"),
    [
        (1, 21, InvalidActionError),
        (1, -1, InvalidActionError),
        (2, 0, InvalidActionError),
        (2, 4, InvalidActionError),
    ],
)
def test_dial_range(turn: int, value: int, error: type[Exception]) -> None:
    state = game_at("storm", turn=turn)
    with pytest.raises(error):
        act(state, "harkonnen", "dial", value=value)


def test_a_dial_twice_is_refused_and_changes_nothing() -> None:
    state = game_at("storm", turn=1)
    act(state, "harkonnen", "dial", value=3)
    before = state.to_dict()
    with pytest.raises(NotYourTurnError):
        act(state, "harkonnen", "dial", value=4)
    assert state.to_dict() == before


def test_later_turns_the_last_combatants_dial_and_storm_hits_every_sector_entered() -> None:
    """1.01.02 with the last battle's dialers; D1: the sectors entered, not the start."""
    state = game_at(
        "storm",
        turn=3,
        storm=2,
        dialers=(F.ATREIDES, F.EMPEROR),
        board=[
            ("harkonnen", "Cielago North", 2, 4),  # the start sector: not hit again
            ("harkonnen", "Cielago East", 3, 2),  # sand, entered
            ("fremen", "False Wall South", 4, 3),  # rock: safe
            ("atreides", "South Mesa", 4, 1),  # sand, entered (the stop)
            ("emperor", "Pasty Mesa", 5, 5),  # past the storm
        ],
        spice={("South Mesa", 4): 10, ("Cielago North", 2): 3},
    )
    assert state.waiting_on() == (F.ATREIDES, F.EMPEROR)
    refused(state, NotYourTurnError, "1.01.02", "harkonnen", "dial", value=1)
    act(state, "atreides", "dial", value=1)
    events = act(state, "emperor", "dial", value=1)
    assert state.storm_sector == 4
    lost = {(e["faction"], e["territory"]) for e in of_kind(events, "forces_destroyed")}
    assert lost == {("harkonnen", "Cielago East"), ("atreides", "South Mesa")}
    assert state.board_spice == {("Cielago North", 2): 3}


def test_advanced_fremen_lose_half_rounded_up_and_choose_which() -> None:
    state = game_at(
        "storm",
        turn=2,
        storm=2,
        advanced=True,
        storm_turn=StormTurn(next=1),
        board=[("fremen", "Cielago East", 3, 3), ("fremen", "South Mesa", 3, 3)],
        special=[("fremen", "Cielago East", 3, 2)],
    )
    events = state.start_events
    assert of_kind(events, "storm_card_revealed")[0]["value"] == 1
    plain = of_kind(events, "forces_destroyed")[0]  # regular forces only: no choice
    assert (plain["territory"], plain["forces"], plain["rule"]) == ("South Mesa", 2, "2.04.16")
    assert state.waiting_on() == (F.FREMEN,) and state.whole.step == "fremen_losses"
    assert len(list(state.legal_actions(F.FREMEN))) == 3  # 0, 1 or 2 Fedaykin of the 3
    refused(
        state, InvalidActionError, "2.04.16", "fremen", "fremen_storm_losses",
        territory="Cielago East", sector=3, special=3,
    )  # fmt: skip
    refused(
        state, IllegalActionError, "2.04.16", "fremen", "fremen_storm_losses",
        territory="South Mesa", sector=3, special=0,
    )  # fmt: skip
    refused(
        state, NotYourTurnError, "2.04.16", "atreides", "fremen_storm_losses",
        territory="Cielago East", sector=3, special=0,
    )  # fmt: skip
    events = act(
        state, "fremen", "fremen_storm_losses", territory="cielago east", sector=3, special=1
    )
    lost = of_kind(events, "forces_destroyed")[0]
    assert (lost["forces"], lost["special"]) == (2, 1)
    assert state.stack(F.FREMEN, "Cielago East", 3) == Stack(1, 1)
    assert "storm_card_drawn" in types(events)
    assert state.view_for(F.FREMEN).secrets is not None
    assert storm_secrets(state.view_for(F.FREMEN).secrets).storm_next in range(1, 7)
    assert storm_secrets(state.view_for(F.ATREIDES).secrets).storm_next is None
    assert storm_card_held(state.public_view().game)


def test_advanced_without_the_fremen_dials() -> None:
    seats = ["harkonnen", "atreides", "emperor"]
    state = game_at("storm", turn=2, advanced=True, seats=seats, dialers=(F.ATREIDES, F.EMPEROR))
    assert state.waiting_on() == (F.ATREIDES, F.EMPEROR)


def test_storm_order_after_the_storm() -> None:
    state = game_at("storm", turn=2, storm=18, dialers=(F.HARKONNEN, F.ATREIDES))
    act(state, "harkonnen", "dial", value=2)
    events = act(state, "atreides", "dial", value=2)  # 18 -> 4: the Guild's seat: last
    order = of_kind(events, "storm_order")[0]["order"]
    assert order[0] == "atreides" and order[-1] == "spacing_guild"


# -- Weather Control and Family Atomics --------------------------------------------


def storm_cards(**kw: object) -> GameState:
    return game_at("storm", turn=3, storm=7, dialers=(F.EMPEROR, F.FREMEN), **kw)  # type: ignore[arg-type]


def dial_two(state: GameState) -> list[Event]:
    act(state, "emperor", "dial", value=1)
    return act(state, "fremen", "dial", value=1)


def test_weather_control_replaces_the_move() -> None:
    state = storm_cards(
        factions={"atreides": {"cards": ("Weather Control",)}}, treachery_deck=DECK
    )  # the Bidding phase then has a deck to draw from and leaves the discards alone
    assert types(dial_two(state)) == ["storm_dialed", "storm_dials_revealed"]
    assert state.whole.step == "storm_cards" and state.waiting_on() == (F.ATREIDES,)
    assert state.storm_sector == 7
    refused(state, InvalidActionError, "3.01.23", "atreides", "weather_control", sectors=11)
    refused(state, NotYourTurnError, "3.01.23", "harkonnen", "weather_control", sectors=3)
    events = act(state, "atreides", "weather_control", sectors=5)
    assert of_kind(events, "storm_card_played")[0]["sectors"] == 5
    assert state.storm_sector == 12
    assert state.whole.treachery_discard == ("Weather Control",)


def test_storm_cards_may_be_declined_and_never_on_turn_one() -> None:
    state = storm_cards(factions={"atreides": {"cards": ("Weather Control",)}})
    dial_two(state)
    act(state, "atreides", "pass")
    assert state.storm_sector == 9
    first = game_at("storm", turn=1, factions={"atreides": {"cards": ("Weather Control",)}})
    act(first, "harkonnen", "dial", value=1)
    act(first, "bene_gesserit", "dial", value=1)
    assert first.storm_sector == 2


def test_family_atomics_destroys_the_shield_wall_and_its_protection() -> None:
    state = storm_cards(
        factions={"harkonnen": {"cards": ("Family Atomics",)}},
        board=[
            ("harkonnen", "Imperial Basin", 8, 2),
            ("atreides", "Shield Wall", 8, 3),
            ("atreides", "Arrakeen", 9, 4),
        ],
    )
    dial_two(state)
    assert state.waiting_on() == (F.HARKONNEN,)
    events = act(state, "harkonnen", "family_atomics")
    lost = of_kind(events, "forces_destroyed")
    assert [(e["territory"], e["cause"]) for e in lost[:1]] == [("Shield Wall", "family_atomics")]
    assert state.whole.shield_wall_destroyed and state.whole.cards_out == ("Family Atomics",)
    assert ("atreides", "Arrakeen") in {(e["faction"], e["territory"]) for e in lost}
    assert ("harkonnen", "Imperial Basin") in {(e["faction"], e["territory"]) for e in lost}
    assert state.public_view().game.shield_wall_destroyed  # type: ignore[union-attr]


def test_family_atomics_needs_forces_by_the_wall_with_no_storm_between() -> None:
    """The Harkonnen are asked (their hand might hold Weather Control: whom the game asks
    is a function of public facts only), but Family Atomics is not theirs to play."""
    far = storm_cards(
        factions={"harkonnen": {"cards": ("Family Atomics",)}},
        board=[("harkonnen", "Carthag", 10, 2)],
    )
    dial_two(far)
    assert far.waiting_on() == (F.HARKONNEN,)
    assert list(far.legal_actions(F.HARKONNEN)) == [Pass(F.HARKONNEN)]
    refused(far, IllegalActionError, "3.01.07", "harkonnen", "family_atomics")
    act(far, "harkonnen", "pass")
    assert far.storm_sector == 9
    stormed = game_at(
        "storm",
        turn=3,
        storm=8,
        dialers=(F.EMPEROR, F.FREMEN),
        factions={"harkonnen": {"cards": ("Family Atomics",)}},
        board=[("harkonnen", "Imperial Basin", 8, 2)],
    )
    act(stormed, "emperor", "dial", value=1)
    act(stormed, "fremen", "dial", value=1)
    assert list(stormed.legal_actions(F.HARKONNEN)) == [Pass(F.HARKONNEN)]


def test_every_faction_with_a_card_is_asked_whoever_holds_a_storm_card() -> None:
    """Two games that differ only in a card in the Atreides' hand wait on the same
    factions; a faction with no card (a public count) is not asked."""
    hands = {"atreides": ("Lasgun",), "emperor": ("Shield",), "fremen": ("Chaumas",)}
    waits = []
    for card in ("Weather Control", "Kulon"):
        state = storm_cards(
            factions={f: {"cards": c if f != "atreides" else (card,)} for f, c in hands.items()}
        )
        dial_two(state)
        assert state.whole.step == "storm_cards"
        waits.append(state.waiting_on())
        for faction in state.waiting_on():
            act(state, faction.value, "pass")
        assert state.storm_sector == 9 and state.whole.step != "storm_cards"
    assert waits[0] == waits[1]
    assert set(waits[0]) == {F.ATREIDES, F.EMPEROR, F.FREMEN}


def test_nobody_is_asked_once_both_storm_cards_are_known_to_be_out_of_every_hand() -> None:
    """Weather Control in the discard pile (face up) and Family Atomics out of the game
    are public: no hand can hold them, so the storm moves at once."""
    state = storm_cards(
        factions={"atreides": {"cards": ("Lasgun",)}},
        treachery_discard=("Weather Control",),
        cards_out=("Family Atomics",),
    )
    dial_two(state)
    assert state.storm_sector == 9 and state.whole.step != "storm_cards"


def test_after_weather_control_its_player_stays_asked_only_on_public_facts() -> None:
    """Weather Control played is public; the player stays asked while Family Atomics could
    be in its hand (forces by the Shield Wall, a card left): the same whether it is."""
    for other in ("Family Atomics", "Kulon"):
        state = storm_cards(
            factions={"harkonnen": {"cards": ("Weather Control", other)}},
            board=[("harkonnen", "Imperial Basin", 8, 2)],
        )
        dial_two(state)
        act(state, "harkonnen", "weather_control", sectors=0)
        assert state.waiting_on() == (F.HARKONNEN,), other
        act(state, "harkonnen", "pass")
        assert state.whole.step != "storm_cards"


@pytest.mark.parametrize(
    ("mode", "advanced", "lost"),
    [("spared", False, 0), ("hit", False, 2), ("spared", True, 0), ("hit", True, 2)],
)
def test_the_start_sector_is_a_switch(mode: str, advanced: bool, lost: int) -> None:
    """D1: forces that came into the storm's sector later; the advanced Fremen are spared
    a second half when it moves off them (2.04.16)."""
    state = game_at(
        "storm",
        turn=3,
        storm=2,
        advanced=advanced,
        seats=["harkonnen", "atreides", "emperor"],
        dialers=(F.ATREIDES, F.EMPEROR),
        board=[("harkonnen", "Cielago North", 2, 2)],
        variants={"storm_start_sector": mode},
    )
    act(state, "atreides", "dial", value=1)
    events = act(state, "emperor", "dial", value=1)
    # the phases then run on: the Revival phase brings the 2 back free (1.05.01.01)
    assert sum(e["forces"] for e in of_kind(events, "forces_destroyed")) == lost


def test_the_advanced_fremen_are_not_halved_again_as_the_storm_moves_off() -> None:
    state = game_at(
        "storm",
        turn=3,
        storm=2,
        advanced=True,
        storm_turn=StormTurn(next=1),
        board=[("fremen", "Cielago North", 2, 4), ("harkonnen", "Cielago North", 2, 2)],
        variants={"storm_start_sector": "hit"},
    )
    assert state.storm_sector == 3
    assert state.stack(F.FREMEN, "Cielago North", 2).forces == 4
    destroyed = {e["faction"]: e["forces"] for e in of_kind(state.start_events, "forces_destroyed")}
    assert destroyed == {"harkonnen": 2}  # back from the tanks in the Revival phase, free
