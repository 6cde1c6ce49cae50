"""Spice Collection (1.08, 1.13.01) and the Mentat Pause (1.09): harvest and victory."""

from __future__ import annotations

from typing import Any

import pytest

from rules.errors import NotYourTurnError
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from tests.rules.game_helpers import game_at, of_kind, spice_total
from tests.rules.helpers import act
from tests.rules.refusal import refused

F = Faction
EXAMPLE_SEATS = ["spacing_guild", "fremen", "harkonnen", "bene_gesserit", "emperor", "atreides"]


def collection_example(**kw: Any) -> GameState:
    board = [
        ("atreides", "Arrakeen", 9, 5),
        ("atreides", "Old Gap", 9, 1),
        ("bene_gesserit", "Polar Sink", None, 2),
        ("emperor", "Rim Wall West", 8, 3),
        ("fremen", "Sietch Tabr", 13, 4),
        ("fremen", "The Great Flat", 14, 2),
        ("harkonnen", "Carthag", 10, 7),
        ("harkonnen", "Tuek's Sietch", 4, 3),
        ("harkonnen", "Habbanya Sietch", 16, 2),
        ("harkonnen", "Hagga Basin", 12, 3),
        ("spacing_guild", "False Wall South", 3, 4),
    ]
    return game_at(
        "spice_collection",
        turn=4,
        storm=6,
        advanced=True,
        seats=EXAMPLE_SEATS,
        alliances=[["atreides", "fremen"]],
        board=board,
        special=[
            ("emperor", "Rim Wall West", 8, 2),
            ("fremen", "Sietch Tabr", 13, 1),
            ("fremen", "The Great Flat", 14, 1),
        ],
        spice={
            ("Hagga Basin", 12): 6,
            ("Old Gap", 9): 6,
            ("The Great Flat", 14): 10,
            ("Cielago South", 1): 12,
        },
        factions={
            "atreides": {"spice": 4},
            "harkonnen": {"spice": 5},
            "fremen": {"spice": 2},
            "spacing_guild": {"spice": 1},
        },
        prediction=(F.ATREIDES, 6),
        **kw,
    )


def test_worked_example_collection_then_a_stronghold_win() -> None:
    """collection_then_win: Harkonnen +6 (capped) +2 +1, Atreides +3 +2, Fremen +6; then
    the Harkonnen alone in Carthag, Tuek's Sietch and Habbanya Sietch win (1.09.02.01)."""
    state = collection_example()
    spice = {f: state.factions[f].spice for f in (F.ATREIDES, F.HARKONNEN, F.FREMEN)}
    assert spice == {F.ATREIDES: 9, F.HARKONNEN: 14, F.FREMEN: 8}
    assert state.board_spice == {
        ("Old Gap", 9): 3,
        ("The Great Flat", 14): 4,
        ("Cielago South", 1): 12,
    }
    won = of_kind(state.start_events, "game_won")[0]
    assert (won["factions"], won["how"], won["rule"]) == (
        ("harkonnen",),
        "strongholds",
        "1.09.02.01",
    )
    assert state.game_phase is GamePhase.OVER
    assert state.public_view().game.winner == (F.HARKONNEN,)
    refused(state, NotYourTurnError, "1.09.02.01", "spacing_guild", "claim_charity")


def test_basic_collection_has_no_spice_flow_and_advisors_do_not_collect() -> None:
    state = game_at(
        "spice_collection",
        board=[("atreides", "Old Gap", 9, 2), ("atreides", "Arrakeen", 9, 1)],
        spice={("Old Gap", 9): 10, ("Red Chasm", 6): 8},
    )
    assert state.factions[F.ATREIDES].spice == 10 + 6
    bg = game_at("spice_collection", advisors=[("Red Chasm", 6, 3)], spice={("Red Chasm", 6): 8})
    assert bg.factions[F.BENE_GESSERIT].spice == 10
    assert bg.board_spice == {("Red Chasm", 6): 8}


@pytest.mark.parametrize(("rate", "expected"), [("occupy", 3), ("control", 2)])
def test_three_per_force_with_a_city_occupied_or_controlled(rate: str, expected: int) -> None:
    """D6: a contested Arrakeen gives 3 per force under "occupy" only."""
    state = game_at(
        "spice_collection",
        variants={"collection_rate": rate},
        board=[
            ("atreides", "Old Gap", 9, 1),
            ("atreides", "Arrakeen", 9, 1),
            ("harkonnen", "Arrakeen", 9, 1),
        ],
        spice={("Old Gap", 9): 10},
    )
    assert state.factions[F.ATREIDES].spice == 10 + expected


def test_shared_sector_collects_in_storm_order_and_spice_is_conserved() -> None:
    state = game_at(
        "spice_collection",
        board=[("atreides", "Old Gap", 9, 2), ("harkonnen", "Old Gap", 9, 2)],
        spice={("Old Gap", 9): 6},
    )
    first = state.whole.order.index(F.ATREIDES) < state.whole.order.index(F.HARKONNEN)
    got = (state.factions[F.ATREIDES].spice - 10, state.factions[F.HARKONNEN].spice - 10)
    assert got == ((4, 2) if first else (2, 4))
    assert spice_total(state) == 500 + 60 + 6


# -- the Mentat Pause ---------------------------------------------------------------


def pause(board: list[tuple[str, str, int | None, int]], **kw: Any) -> GameState:
    return game_at("mentat_pause", board=board, **kw)


THREE = [
    ("harkonnen", "Carthag", 10, 1),
    ("harkonnen", "Arrakeen", 9, 1),
    ("harkonnen", "Sietch Tabr", 13, 1),
]


def winner(state: GameState) -> tuple[tuple[str, ...], str] | None:
    won = of_kind(state.start_events, "game_won")
    return (won[0]["factions"], won[0]["how"]) if won else None


def test_three_strongholds_alone_win_and_advisors_neither_hold_nor_block() -> None:
    assert winner(pause(THREE)) == (("harkonnen",), "strongholds")
    two = pause(THREE[:2])
    assert winner(two) is None and two.turn == 3 and two.game_phase is GamePhase.STORM
    shared = pause([*THREE, ("atreides", "Sietch Tabr", 13, 1)])
    assert winner(shared) is None
    advised = pause(THREE, advisors=[("Sietch Tabr", 13, 2), ("Tuek's Sietch", 4, 1)])
    assert winner(advised) == (("harkonnen",), "strongholds")


def test_an_alliance_needs_four() -> None:
    three = [
        ("harkonnen", "Carthag", 10, 1),
        ("harkonnen", "Arrakeen", 9, 1),
        ("emperor", "Sietch Tabr", 13, 1),
    ]
    assert winner(pause(three, alliances=[["harkonnen", "emperor"]])) is None
    four = [*three, ("emperor", "Habbanya Sietch", 16, 1)]
    assert winner(pause(four, alliances=[["harkonnen", "emperor"]])) == (
        ("emperor", "harkonnen"),
        "alliance",
    )


def test_several_winners_the_first_in_storm_order() -> None:
    """D4 (first in storm order) cannot bite with five strongholds and sole occupancy:
    two unallied factions cannot both hold three. Each qualifier wins alone here."""
    fremen = [
        ("fremen", "Tuek's Sietch", 4, 1),
        ("fremen", "Habbanya Sietch", 16, 1),
        ("fremen", "Arrakeen", 9, 1),
    ]
    harkonnen = [("harkonnen", "Carthag", 10, 1), ("harkonnen", "Sietch Tabr", 13, 1)]
    assert winner(pause(fremen + harkonnen)) == (("fremen",), "strongholds")
    state = pause([*fremen[:2], *THREE])
    assert winner(state) == (("harkonnen",), "strongholds")


def test_the_prediction_wins_alone_on_its_turn_only() -> None:
    assert winner(pause(THREE, turn=5, prediction=(F.HARKONNEN, 5))) == (
        ("bene_gesserit",),
        "prediction",
    )
    assert winner(pause(THREE, turn=5, prediction=(F.HARKONNEN, 4))) == (
        ("harkonnen",),
        "strongholds",
    )
    allied = pause(
        THREE, turn=5, prediction=(F.HARKONNEN, 5), alliances=[["harkonnen", "bene_gesserit"]]
    )
    assert winner(allied) is None  # allied, three are not enough


@pytest.mark.parametrize(
    ("seats", "board", "expected"),
    [
        (None, [], (("fremen",), "fremen")),
        (None, [("harkonnen", "Tuek's Sietch", 4, 1)], (("spacing_guild",), "guild")),
        (None, [("atreides", "Sietch Tabr", 13, 1)], (("spacing_guild",), "guild")),
        (
            ["atreides", "fremen", "harkonnen"],
            [("harkonnen", "Tuek's Sietch", 4, 1)],
            (("fremen",), "default"),
        ),
        (
            ["atreides", "emperor", "harkonnen"],
            [("atreides", "Arrakeen", 9, 1), ("harkonnen", "Carthag", 10, 1)],
            (("atreides", "harkonnen"), "default"),
        ),
        (
            ["atreides", "emperor", "harkonnen"],
            [("emperor", "Arrakeen", 9, 1)],
            (("emperor",), "default"),
        ),
    ],
)
def test_the_end_of_the_last_turn(
    seats: list[str] | None, board: list[tuple[str, str, int | None, int]], expected: object
) -> None:
    assert winner(pause(board, turn=10, **({"seats": seats} if seats else {}))) == expected


def test_last_turn_tie_in_storm_order_is_a_switch() -> None:
    """D5."""
    board = [("atreides", "Arrakeen", 9, 1), ("harkonnen", "Carthag", 10, 1)]
    state = pause(
        board,
        turn=10,
        seats=["harkonnen", "emperor", "atreides"],
        variants={"last_turn_tie": "storm_order"},
    )
    assert winner(state) == (("harkonnen",), "default")


def test_the_fremen_ally_shares_the_fremen_win() -> None:
    state = pause([], turn=10, alliances=[["fremen", "emperor"]])
    assert winner(state) == (("emperor", "fremen"), "fremen")


def test_a_shorter_game() -> None:
    state = pause([], turn=3, last_turn=3, seats=["atreides", "harkonnen"])
    assert winner(state) == (("atreides", "harkonnen"), "default")


def test_after_the_end_every_action_is_refused() -> None:
    state = pause(THREE)
    before = state.to_dict()
    with pytest.raises(NotYourTurnError):
        act(state, "atreides", "pass")
    assert state.to_dict() == before
