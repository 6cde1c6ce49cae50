"""The Spice Blow and Nexus Phase (1.02, 1.10, 1.13.02)."""

from __future__ import annotations

import pytest

from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError
from rules.factions import Faction
from rules.game import GameState
from tests.rules.game_helpers import game_at, of_kind, types
from tests.rules.helpers import act
from tests.rules.refusal import refused

F = Faction
WORM = "Shai-Hulud"
NEXUS_SEATS = ["atreides", "emperor", "spacing_guild", "harkonnen", "bene_gesserit", "fremen"]


def worm_nexus_example() -> GameState:
    return game_at(
        "spice_blow",
        turn=3,
        storm=2,
        seats=NEXUS_SEATS,
        board=[
            ("atreides", "Arrakeen", 9, 8),
            ("emperor", "Habbanya Erg", 15, 3),
            ("fremen", "Sietch Tabr", 13, 6),
        ],
        spice={("Habbanya Erg", 15): 2, ("Broken Land", 11): 8},
        spice_deck=(WORM, "Red Chasm", "South Mesa"),
        spice_discard=("Habbanya Erg", "Broken Land"),
    )


def test_worked_example_worm_then_nexus() -> None:
    """blow_worm_nexus: the worm devours Habbanya Erg (2 spice, 3 Emperor forces), Red
    Chasm's 8 land in sector 6, a Nexus opens; the Emperor and the Guild ally."""
    state = worm_nexus_example()
    events = state.start_events
    worm = of_kind(events, "shai_hulud")[0]
    assert worm["territory"] == "Habbanya Erg" and not worm["ignored"]
    assert state.factions[F.EMPEROR].tanks == 3
    assert state.board_spice == {("Broken Land", 11): 8, ("Red Chasm", 6): 8}
    assert "nexus_started" in types(events)
    assert set(state.waiting_on()) == set(F)
    assert types(act(state, "emperor", "ally", with_="spacing_guild")) == ["alliance_offered"]
    events = act(state, "spacing_guild", "ally", with_="emperor")
    assert of_kind(events, "alliance_formed")[0]["factions"] == ("emperor", "spacing_guild")
    assert state.ally_of(F.EMPEROR) is F.SPACING_GUILD
    for faction in ["emperor", "spacing_guild", "harkonnen", "bene_gesserit", "fremen"]:
        act(state, faction, "pass")
    events = act(state, "atreides", "pass")
    assert "nexus_ended" in types(events)
    assert state.game_phase.value != "spice_blow"


def test_spice_in_storm_is_not_placed() -> None:
    state = game_at("spice_blow", storm=6, spice_deck=("Red Chasm", "South Mesa"))
    blown = of_kind(state.start_events, "spice_blown")[0]
    assert (blown["territory"], blown["placed"]) == ("Red Chasm", False)
    assert state.board_spice == {}


def test_turn_one_worms_are_set_aside_and_shuffled_back() -> None:
    state = game_at("spice_blow", turn=1, spice_deck=(WORM, WORM, "Old Gap", "Red Chasm"))
    worms = of_kind(state.start_events, "shai_hulud")
    assert [w["ignored"] for w in worms] == [True, True]
    assert "nexus_started" not in types(state.start_events)
    assert sorted(state.whole.spice_deck) == sorted(["Red Chasm", WORM, WORM])
    assert state.whole.spice_discard == ("Old Gap",)


def test_the_fremen_and_their_ally_are_spared() -> None:
    state = game_at(
        "spice_blow",
        alliances=[["fremen", "atreides"]],
        board=[
            ("fremen", "Old Gap", 9, 2),
            ("atreides", "Old Gap", 8, 2),
            ("harkonnen", "Old Gap", 10, 2),
        ],
        spice_deck=(WORM, "Red Chasm"),
        spice_discard=("Old Gap",),
    )
    lost = {e["faction"] for e in of_kind(state.start_events, "forces_destroyed")}
    assert lost == {"harkonnen"}


def test_a_second_worm_has_no_further_effect() -> None:
    state = game_at(
        "spice_blow",
        board=[("harkonnen", "Red Chasm", 6, 2)],
        spice_deck=(WORM, WORM, "Red Chasm"),
        spice_discard=("Old Gap",),
    )
    worms = of_kind(state.start_events, "shai_hulud")
    assert [w["territory"] for w in worms] == ["Old Gap", None]
    assert state.stack(F.HARKONNEN, "Red Chasm", 6).forces == 2


def test_the_first_worm_of_a_pile_with_no_territory_card_devours_nothing() -> None:
    state = game_at("spice_blow", spice_deck=(WORM, "Red Chasm"))
    assert of_kind(state.start_events, "shai_hulud")[0]["territory"] is None


def test_advanced_two_piles_with_a_nexus_after_pile_a() -> None:
    state = game_at(
        "spice_blow",
        advanced=True,
        spice_deck=(WORM, "Red Chasm", "South Mesa"),
        spice_discard=("Old Gap",),
    )
    assert state.whole.step == "nexus_a"
    assert state.board_spice == {("Red Chasm", 6): 8}
    for faction in NEXUS_SEATS:
        events = act(state, faction, "pass")
    assert of_kind(events, "spice_blown")[0]["pile"] == "B"
    assert state.whole.spice_discard_b == ("South Mesa",)
    assert state.board_spice[("South Mesa", 4)] == 10


def test_an_empty_deck_is_reshuffled_from_the_discards() -> None:
    state = game_at("spice_blow", spice_deck=(), spice_discard=("Red Chasm", "Old Gap"))
    assert "deck_shuffled" in types(state.start_events)
    assert len(state.whole.spice_deck) + len(state.whole.spice_discard) == 2


def test_advanced_reshuffle_keeps_pile_a_top_territory_card() -> None:
    state = game_at(
        "spice_blow",
        advanced=True,
        spice_deck=(),
        spice_discard=(WORM, "Old Gap", "Red Chasm"),
        spice_discard_b=("South Mesa",),
    )
    # Old Gap stayed on pile A; two cards were turned from the three reshuffled
    assert state.whole.spice_discard[-1] == "Old Gap"


@pytest.fixture
def nexus() -> GameState:
    return game_at("spice_blow", spice_deck=(WORM, "Red Chasm"), spice_discard=("Old Gap",))


@pytest.mark.parametrize(
    ("faction", "action", "fields", "error", "rule"),
    [
        ("atreides", "ally", {"with_": "atreides"}, InvalidActionError, "1.10.01"),
        ("atreides", "ally", {"with_": "tleilaxu"}, InvalidActionError, "1.10.01"),
        ("atreides", "ally", {"with_": "x" * 500}, InvalidActionError, "1.10.01"),
        ("atreides", "break_alliance", {}, IllegalActionError, "1.10.01.05"),
        ("atreides", "dial", {"value": 2}, NotYourTurnError, "1.02"),
        (
            "atreides",
            "ship",
            {"to": "Arrakeen", "sector": 9, "forces": 1},
            NotYourTurnError,
            "1.02",
        ),
    ],
)
def test_nexus_refusals(
    nexus: GameState, faction: str, action: str, fields: dict[str, object], error: type, rule: str
) -> None:
    err = refused(nexus, error, rule, faction, action, **fields)
    assert len(err.message) < 300


def test_allies_cannot_ally_again_and_may_break(nexus: GameState) -> None:
    act(nexus, "atreides", "ally", with_="fremen")
    act(nexus, "fremen", "ally", with_="atreides")
    refused(nexus, IllegalActionError, "1.10.01", "harkonnen", "ally", with_="fremen")
    events = act(nexus, "fremen", "break_alliance")
    assert of_kind(events, "alliance_broken")[0]["ally"] == "atreides"
    assert nexus.alliances == frozenset()
    refused(nexus, IllegalActionError, "1.10.01.01", "harkonnen", "ally", with_="fremen")


def test_a_faction_done_with_the_nexus_cannot_be_asked(nexus: GameState) -> None:
    act(nexus, "fremen", "pass")
    refused(nexus, IllegalActionError, "1.10.01", "atreides", "ally", with_="fremen")
    refused(nexus, NotYourTurnError, "1.10.01", "fremen", "pass")


def test_legal_nexus_actions(nexus: GameState) -> None:
    kinds = nexus.legal_actions(F.ATREIDES).kinds()
    assert kinds == ("bribe", "pass", "ally")  # a bribe (1.12) at any time


# -- the worm ride (2.04.08) ----------------------------------------------------------


def ride(more: list[tuple[str, str, int | None, int]] | None = None, **kw: object) -> GameState:
    state = game_at(
        "spice_blow",
        storm=10,
        board=[
            ("fremen", "Old Gap", 8, 3),
            ("fremen", "Old Gap", 10, 1),  # under the storm: stays
            ("harkonnen", "Carthag", 10, 2),
            ("atreides", "Arrakeen", 9, 2),
            ("emperor", "Arrakeen", 9, 2),
            *(more or []),
        ],
        spice_deck=(WORM, "Red Chasm"),
        spice_discard=("Old Gap",),
        **kw,  # type: ignore[arg-type]
    )
    for faction in NEXUS_SEATS:
        act(state, faction, "pass")
    return state


def test_the_fremen_ride_the_worm_after_the_nexus() -> None:
    state = ride()
    assert state.waiting_on() == (F.FREMEN,) and state.whole.step == "ride_b"
    refused(state, NotYourTurnError, "2.04.08", "atreides", "ride_worm", to="Red Chasm", sector=6)
    refused(state, IllegalActionError, "2.04.08", "fremen", "ride_worm", to="Carthag")  # storm
    refused(state, IllegalActionError, "2.04.08", "fremen", "ride_worm", to="Arrakeen")  # full
    refused(state, InvalidActionError, "2.04.08", "fremen", "ride_worm", to="Red Chasm", sector=2)
    events = act(state, "fremen", "ride_worm", to="Red Chasm", sector=6)
    assert of_kind(events, "worm_ridden")[0]["forces"] == 3
    assert state.stack(F.FREMEN, "Red Chasm", 6).forces == 3
    assert state.stack(F.FREMEN, "Old Gap", 10).forces == 1
    assert state.game_phase.value != "spice_blow"


def test_no_ride_into_the_ally_and_a_ride_may_be_declined() -> None:
    more = [("harkonnen", "The Great Flat", 14, 1)]
    state = ride(more, alliances=[["fremen", "harkonnen"]])
    state_two = ride(more, alliances=[["fremen", "harkonnen"]])
    error = refused(
        state, IllegalActionError, "2.04.08", "fremen", "ride_worm", to="The Great Flat"
    )
    assert "ally" in error.message
    act(state, "fremen", "ride_worm", to="Polar Sink")
    assert state.stack(F.FREMEN, "Polar Sink", None).forces == 3
    act(state_two, "fremen", "pass")
    assert state_two.stack(F.FREMEN, "Old Gap", 8).forces == 3


def test_no_ride_without_fremen_by_the_worm() -> None:
    state = game_at("spice_blow", spice_deck=(WORM, "Red Chasm"), spice_discard=("Old Gap",))
    for faction in NEXUS_SEATS:
        act(state, faction, "pass")
    assert state.game_phase.value != "spice_blow"


# -- the advanced Fremen place later worms (2.04.15, D9) ----------------------------


def test_the_advanced_fremen_place_the_second_worm_of_a_blow() -> None:
    state = game_at(
        "spice_blow",
        advanced=True,
        board=[
            ("harkonnen", "Imperial Basin", 10, 2),
            ("fremen", "Imperial Basin", 9, 2),
            ("atreides", "Old Gap", 9, 1),
        ],
        spice_deck=(WORM, WORM, "Red Chasm", "South Mesa"),
        spice_discard=("Old Gap",),
    )
    worms = of_kind(state.start_events, "shai_hulud")
    assert [w["territory"] for w in worms] == ["Old Gap", None]
    assert state.waiting_on() == (F.FREMEN,) and state.whole.step == "worm_a"
    refused(
        state, NotYourTurnError, "2.04.15", "harkonnen", "place_worm", territory="Imperial Basin"
    )
    refused(state, IllegalActionError, "2.04.15", "fremen", "place_worm", territory="Carthag")
    refused(state, IllegalActionError, "2.04.15", "fremen", "place_worm", territory="Shield Wall")
    events = act(state, "fremen", "place_worm", territory="imperial basin")  # sand, D9
    lost = {(e["faction"], e["territory"]) for e in of_kind(events, "forces_destroyed")}
    assert lost == {("harkonnen", "Imperial Basin")}
    assert state.stack(F.FREMEN, "Imperial Basin", 9).forces == 2
    assert of_kind(events, "spice_blown")[0]["territory"] == "Red Chasm"
    assert state.whole.step == "nexus_a" and state.whole.worm_territory == "Imperial Basin"


def test_an_alliance_is_offered_once(nexus: GameState) -> None:
    """Asking again before the answer is refused (nothing posted twice) and the asked
    faction is no longer among the asker's choices; the answer still forms the alliance."""
    act(nexus, "atreides", "ally", with_="fremen")
    before = nexus.to_dict()
    err = refused(nexus, IllegalActionError, "1.10.01", "atreides", "ally", with_="fremen")
    assert "already offered" in err.message
    assert nexus.to_dict() == before
    offered = [a for a in nexus.legal_actions(F.ATREIDES) if a.name == "ally"]
    assert "fremen" not in [getattr(a, "with_", None) for a in offered]
    act(nexus, "fremen", "ally", with_="atreides")
    assert nexus.ally_of(F.ATREIDES) is F.FREMEN
