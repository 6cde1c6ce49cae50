"""The board's own words in the engine's refusals: "did you mean", "the Polar Sink",
the sector: option, and starred forces by their names (issue 11)."""

from __future__ import annotations

import pytest

from rules.actions import Move, Ship
from rules.board import standard_board
from rules.errors import IllegalActionError, InvalidActionError
from rules.factions import Faction
from tests.rules.helpers import position

EMPEROR = Faction.EMPEROR


def test_the_polar_sink_is_found_as_the_bot_writes_it() -> None:
    board = standard_board()
    for written in ("the Polar Sink", "The polar sink", "Polar Sink", "polar-sink"):
        found = board.resolve(written)
        assert found is not None and found.name == "Polar Sink"
    great_flat = board.resolve("the great flat")
    assert great_flat is not None and great_flat.name == "The Great Flat"
    assert board.resolve("the") is None


@pytest.mark.parametrize(
    ("typed", "meant"),
    [("Arakeen", "Arrakeen"), ("tueks sitch", "Tuek's Sietch"), ("Haga Basin", "Hagga Basin")],
)
def test_a_misspelt_territory_gets_did_you_mean(typed: str, meant: str) -> None:
    state = position(seats=["emperor", "atreides", None, None, None, None])
    with pytest.raises(InvalidActionError) as refused:
        state.apply(Ship(EMPEROR, typed, None, 1))
    assert str(refused.value).endswith(f"on the board; did you mean {meant}?")


def test_nonsense_gets_no_guess() -> None:
    state = position(seats=["emperor", "atreides", None, None, None, None])
    with pytest.raises(InvalidActionError) as refused:
        state.apply(Ship(EMPEROR, "zzzzzzzz" * 50, None, 1))
    assert "did you mean" not in str(refused.value)


def test_a_missing_sector_names_the_option_and_the_sectors() -> None:
    state = position(seats=["emperor", "atreides", None, None, None, None])
    with pytest.raises(InvalidActionError) as refused:
        state.apply(Ship(EMPEROR, "Hagga Basin", None, 1))
    assert "with the sector: option (sector: 11 or sector: 12)" in str(refused.value)
    with pytest.raises(InvalidActionError) as wrong:
        state.apply(Ship(EMPEROR, "Hagga Basin", 3, 1))
    assert "has no sector 3; it lies in sectors 11, 12 (sector: 11 or sector: 12)" in str(
        wrong.value
    )


def test_starred_forces_are_sardaukar_in_a_refusal() -> None:
    state = position(
        seats=["emperor", "atreides", None, None, None, None],
        factions={"emperor": {"reserves": 10, "special_reserves": 2}},
    )
    with pytest.raises(IllegalActionError) as refused:
        state.apply(Ship(EMPEROR, "Arrakeen", None, 1, 3))
    assert "Emperor has 10 forces and 2 Sardaukar in reserve, not 1 and 3" in str(refused.value)
    with pytest.raises(InvalidActionError) as none:
        state.apply(Move(EMPEROR, "Arrakeen", None, "Carthag", None, 0, 0))
    assert "not 0 forces and 0 Sardaukar" in str(none.value)
    assert Faction.FREMEN.starred == "Fedaykin" and Faction.ATREIDES.starred == "starred forces"
