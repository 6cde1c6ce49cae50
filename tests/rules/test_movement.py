"""Force movement (1.06.03): range, ornithopters, storm, occupancy, groups, repositioning."""

from __future__ import annotations

from typing import Any

import pytest

from rules.errors import AmbiguousActionError, IllegalActionError, InvalidActionError, RulesError
from rules.factions import Faction
from rules.game import GameState
from rules.movement import search
from tests.rules.helpers import act, forces, kinds, position, stack

# Atreides (seat 0) acts first with the storm in the storm-start sector 18.
ATREIDES_FIRST = ["atreides", "emperor", "harkonnen", "fremen", "spacing_guild", "bene_gesserit"]


def atreides_at(*stacks: dict[str, object], storm: int = 18, **kwargs: Any) -> GameState:
    board = [{"faction": "atreides", **s} for s in stacks]
    kwargs.setdefault("seats", ATREIDES_FIRST)
    return position(storm=storm, board=board, **kwargs)


def refused(state, error: type[RulesError], rule: str, **move: object) -> RulesError:  # type: ignore[no-untyped-def]
    before = state.to_dict()
    with pytest.raises(error) as caught:
        act(state, "atreides", "move", **move)
    assert caught.value.rule == rule
    assert state.to_dict() == before
    return caught.value


def test_worked_example_ornithopters_tueks_sietch_to_imperial_basin() -> None:
    """1.06.03.03: with a force in Arrakeen, Tuek's Sietch -> Pasty Mesa -> Shield Wall ->
    Imperial Basin, where they must stop."""
    state = atreides_at(
        {"territory": "Arrakeen", "forces": 1},
        {"territory": "Tuek's Sietch", "forces": 4},
        storm=12,
        seats=["emperor", "harkonnen", "fremen", "spacing_guild", "atreides", None],
    )
    assert state.to_act().value == "atreides"  # type: ignore[union-attr]
    events = act(
        state, "atreides", "move", from_="Tuek's Sietch", to="Imperial Basin", sector=8, forces=4
    )
    move = next(e for e in events if e.kind == "move")
    assert move.path == ("Tuek's Sietch", "Pasty Mesa", "Shield Wall", "Imperial Basin")
    assert forces(state, "atreides", "Imperial Basin") == 4


def test_without_ornithopters_one_adjacent_territory() -> None:
    state = atreides_at({"territory": "Tuek's Sietch", "forces": 4})
    error = refused(
        state,
        IllegalActionError,
        "1.06.03.02",
        from_="Tuek's Sietch",
        to="Shield Wall",
        sector=8,
        forces=4,
    )
    assert "Shield Wall sector 8 is 2 territories away" in str(error)
    act(state, "atreides", "move", from_="Tuek's Sietch", to="Pasty Mesa", sector=5, forces=4)
    assert forces(state, "atreides", "Pasty Mesa") == 4


def test_ornithopters_never_more_than_three() -> None:
    state = atreides_at({"territory": "Arrakeen", "forces": 5})
    # Arrakeen -> Imperial Basin -> Shield Wall -> Pasty Mesa -> Tuek's Sietch is four.
    refused(state, IllegalActionError, "1.06.03.03", from_="Arrakeen", to="Tuek's Sietch", forces=5)


def test_advisors_do_not_grant_ornithopters() -> None:
    state = position(
        storm=18,
        seats=["bene_gesserit", "atreides", None, None, None, None],
        board=[
            {"faction": "bene_gesserit", "territory": "Arrakeen", "forces": 2, "advisors": True},
            {"faction": "atreides", "territory": "Arrakeen", "forces": 2},
            {"faction": "bene_gesserit", "territory": "Tuek's Sietch", "forces": 3},
        ],
    )
    with pytest.raises(IllegalActionError) as caught:
        act(
            state,
            "bene_gesserit",
            "move",
            from_="Tuek's Sietch",
            to="Shield Wall",
            sector=8,
            forces=3,
        )
    assert caught.value.rule == "1.06.03.02"


def test_forces_shipped_into_arrakeen_give_ornithopters_by_default() -> None:
    state = atreides_at(
        {"territory": "Tuek's Sietch", "forces": 3},
        storm=12,
        seats=["emperor", "harkonnen", "fremen", "spacing_guild", "atreides", None],
    )
    act(state, "atreides", "ship", to="Arrakeen", forces=1)
    act(state, "atreides", "move", from_="Tuek's Sietch", to="Shield Wall", sector=7, forces=3)
    assert forces(state, "atreides", "Shield Wall") == 3


def test_variant_ornithopters_only_from_forces_there_at_turn_start() -> None:
    state = atreides_at(
        {"territory": "Tuek's Sietch", "forces": 3},
        storm=12,
        seats=["emperor", "harkonnen", "fremen", "spacing_guild", "atreides", None],
        variants={"ornithopters_from_shipment": False},
    )
    act(state, "atreides", "ship", to="Arrakeen", forces=1)
    refused(
        state,
        IllegalActionError,
        "1.06.03.02",
        from_="Tuek's Sietch",
        to="Shield Wall",
        sector=7,
        forces=3,
    )


@pytest.mark.parametrize(
    ("storm", "to", "sector", "rule"),
    [
        (9, "Arrakeen", None, "1.06.03.05"),  # into the storm sector
        (8, "Rim Wall West", None, "1.06.03.05"),  # rock is no shelter for movement
        (10, "Imperial Basin", 10, "1.06.03.05"),  # the stormed sector of a clear territory
    ],
)
def test_no_move_into_storm(storm: int, to: str, sector: int | None, rule: str) -> None:
    state = atreides_at(
        {"territory": "Old Gap", "sector": 9, "forces": 2},
        storm=storm,
        seats=[None, None, None, "atreides", None, None],
    )
    refused(state, IllegalActionError, rule, from_="Old Gap", to=to, sector=sector, forces=2)


def test_no_move_out_of_storm() -> None:
    state = atreides_at(
        {"territory": "Old Gap", "sector": 9, "forces": 2},
        storm=9,
        seats=[None, None, None, "atreides", None, None],
    )
    refused(state, IllegalActionError, "1.06.03.05", from_="Old Gap", to="Basin", forces=2)


def test_partly_stormed_territory_is_crossed_by_its_clear_sectors() -> None:
    """1.06.03.05: Imperial Basin spans 8-10; with the storm in 8 forces still cross it
    by sectors 9 and 10."""
    state = atreides_at(
        {"territory": "Arrakeen", "forces": 4},
        storm=8,
        seats=[None, None, None, "atreides", None, None],
    )
    events = act(state, "atreides", "move", from_="Arrakeen", to="Arsunt", sector=11, forces=4)
    move = next(e for e in events if e.kind == "move")
    assert move.path == ("Arrakeen", "Imperial Basin", "Arsunt")
    assert stack(state, "atreides", "Arsunt", 11) == (4, 0, 0)


def test_path_through_the_stormed_part_of_a_territory_is_blocked() -> None:
    """With the storm in 9, Imperial Basin@10 cannot be reached from its sector 8 side."""
    state = atreides_at(
        {"territory": "Carthag", "forces": 1},
        {"territory": "Rim Wall West", "forces": 2},
        storm=9,
        seats=[None, None, None, "atreides", None, None],
    )
    error = refused(
        state,
        IllegalActionError,
        "1.06.03.05",
        from_="Rim Wall West",
        to="Tsimpo",
        sector=11,
        forces=2,
    )
    assert "storm in sector 9 blocks every path" in str(error)
    act(state, "atreides", "move", from_="Rim Wall West", to="Arsunt", sector=11, forces=2)


def test_storm_sector_splits_a_path_through_one_territory() -> None:
    """Pasty Mesa spans 4-7: from Tuek's Sietch (4) sector 6 is behind the storm in 5."""
    state = atreides_at(
        {"territory": "Tuek's Sietch", "forces": 2},
        storm=5,
        seats=[None, None, "atreides", None, None, None],
    )
    error = refused(
        state,
        IllegalActionError,
        "1.06.03.05",
        from_="Tuek's Sietch",
        to="Pasty Mesa",
        sector=6,
        forces=2,
    )
    assert "storm in sector 5" in str(error)
    act(state, "atreides", "move", from_="Tuek's Sietch", to="Pasty Mesa", sector=4, forces=2)


def test_polar_sink_is_never_in_storm() -> None:
    state = atreides_at(
        {"territory": "Polar Sink", "forces": 2},
        storm=11,
        seats=[None, None, None, None, "atreides", None],
    )
    act(state, "atreides", "move", from_="Polar Sink", to="Arsunt", sector=10, forces=2)
    assert stack(state, "atreides", "Arsunt", 10) == (2, 0, 0)


def test_group_split_by_storm_needs_a_sector() -> None:
    """1.06.03: forces in one territory separated by the storm cannot move as one group."""
    state = atreides_at(
        {"territory": "Cielago North", "sector": 18, "forces": 2},
        {"territory": "Cielago North", "sector": 2, "forces": 3},
        storm=1,
        seats=[None, "atreides", None, None, None, None],
    )
    refused(
        state, AmbiguousActionError, "1.06.03", from_="Cielago North", to="Polar Sink", forces=5
    )
    refused(
        state,
        IllegalActionError,
        "1.06.03",
        from_="Cielago North",
        from_sector=2,
        to="Polar Sink",
        forces=5,
    )
    act(state, "atreides", "move", from_="Cielago North", from_sector=2, to="Polar Sink", forces=3)
    assert forces(state, "atreides", "Polar Sink") == 3
    assert stack(state, "atreides", "Cielago North", 18) == (2, 0, 0)


def test_forces_in_several_sectors_move_as_one_group() -> None:
    state = atreides_at(
        {"territory": "South Mesa", "sector": 3, "forces": 2},
        {"territory": "South Mesa", "sector": 5, "forces": 3},
        storm=12,
        seats=[None, None, None, None, "atreides", None],
    )
    act(state, "atreides", "move", from_="South Mesa", to="Red Chasm", forces=5)
    assert forces(state, "atreides", "Red Chasm") == 5
    assert forces(state, "atreides", "South Mesa") == 0


@pytest.mark.parametrize("blocker", ["Carthag", "Arrakeen"])
def test_occupancy_limit_blocks_moving_into_and_through(blocker: str) -> None:
    full = [
        {"faction": "harkonnen", "territory": blocker, "forces": 1},
        {"faction": "emperor", "territory": blocker, "forces": 1},
    ]
    state = position(
        storm=18,
        seats=ATREIDES_FIRST,
        board=[
            *full,
            {"faction": "atreides", "territory": "Imperial Basin", "sector": 9, "forces": 2},
        ],
    )
    refused(state, IllegalActionError, "1.06.03.06", from_="Imperial Basin", to=blocker, forces=2)


def test_paths_go_around_a_full_stronghold() -> None:
    """1.06.03.06: no moving through a stronghold holding forces of two other factions."""
    board = [
        {"faction": "harkonnen", "territory": "Carthag", "forces": 1},
        {"faction": "emperor", "territory": "Carthag", "forces": 1},
        {"faction": "atreides", "territory": "Arsunt", "sector": 10, "forces": 2},
        {"faction": "atreides", "territory": "Arrakeen", "forces": 1},
    ]
    state = position(storm=18, seats=ATREIDES_FIRST, board=board)
    found = {d.territory: d for d in state.legal_move_destinations(Faction.ATREIDES, "Arsunt")}
    assert "Carthag" not in found
    assert all("Carthag" not in d.path for d in found.values())
    assert "Tsimpo" in found


def test_allies_count_as_two_factions_for_occupancy() -> None:
    state = position(
        storm=18,
        seats=ATREIDES_FIRST,
        alliances=[["harkonnen", "emperor"]],
        board=[
            {"faction": "harkonnen", "territory": "Carthag", "forces": 1},
            {"faction": "emperor", "territory": "Tuek's Sietch", "forces": 1},
            {"faction": "atreides", "territory": "Tsimpo", "sector": 10, "forces": 2},
        ],
    )
    act(state, "atreides", "move", from_="Tsimpo", to="Carthag", forces=2)  # one other faction
    assert forces(state, "atreides", "Carthag") == 2


def test_occupancy_does_not_limit_non_strongholds() -> None:
    board = [
        {"faction": f, "territory": "Shield Wall", "sector": 7, "forces": 1}
        for f in ("harkonnen", "emperor", "fremen", "spacing_guild")
    ]
    state = position(
        storm=18,
        seats=ATREIDES_FIRST,
        board=[
            *board,
            {"faction": "atreides", "territory": "Pasty Mesa", "sector": 7, "forces": 2},
        ],
    )
    act(state, "atreides", "move", from_="Pasty Mesa", to="Shield Wall", sector=7, forces=2)
    assert forces(state, "atreides", "Shield Wall") == 2


def test_repositioning_is_the_move() -> None:
    """1.06.03.09 and common mistake 17: repositioning uses the one movement action."""
    state = atreides_at({"territory": "Pasty Mesa", "sector": 4, "forces": 3})
    act(state, "atreides", "move", from_="Pasty Mesa", to="Pasty Mesa", sector=6, forces=3)
    assert stack(state, "atreides", "Pasty Mesa", 6) == (3, 0, 0)
    assert state.to_act().value == "emperor"  # type: ignore[union-attr]


def test_reposition_into_the_same_sector_is_refused() -> None:
    state = atreides_at({"territory": "Pasty Mesa", "sector": 4, "forces": 3})
    refused(
        state,
        IllegalActionError,
        "1.06.03.09",
        from_="Pasty Mesa",
        to="Pasty Mesa",
        sector=4,
        forces=3,
    )


def test_one_move_per_turn_then_hajr_adds_one() -> None:
    state = atreides_at(
        {"territory": "Pasty Mesa", "sector": 4, "forces": 3},
        factions={"atreides": {"cards": ["Hajr"]}},
    )
    assert "hajr_played" in kinds(act(state, "atreides", "hajr"))
    act(state, "atreides", "move", from_="Pasty Mesa", to="Shield Wall", sector=7, forces=3)
    assert state.to_act().value == "atreides"  # type: ignore[union-attr]
    act(state, "atreides", "move", from_="Shield Wall", to="Gara Kulon", forces=3)
    assert forces(state, "atreides", "Gara Kulon") == 3
    assert state.factions[Faction.ATREIDES].cards == ()
    assert state.to_act() is Faction.EMPEROR


def test_hajr_needs_the_card() -> None:
    state = atreides_at({"territory": "Pasty Mesa", "sector": 4, "forces": 3})
    before = state.to_dict()
    with pytest.raises(IllegalActionError) as caught:
        act(state, "atreides", "hajr")
    assert caught.value.rule == "3.01.09"
    assert state.to_dict() == before


@pytest.mark.parametrize(
    ("move", "error", "rule"),
    [
        ({"from_": "Nowhere", "to": "Arrakeen", "forces": 1}, InvalidActionError, "1.06.03"),
        (
            {"from_": "Pasty Mesa", "to": "Shield Wall", "sector": 3, "forces": 1},
            InvalidActionError,
            "1.06.03.05",
        ),
        (
            {"from_": "Pasty Mesa", "to": "Shield Wall", "forces": 1},
            InvalidActionError,
            "1.06.03.05",
        ),
        (
            {"from_": "Pasty Mesa", "to": "Shield Wall", "sector": 7, "forces": 0},
            InvalidActionError,
            "1.06.03",
        ),
        (
            {"from_": "Pasty Mesa", "to": "Shield Wall", "sector": 7, "forces": 9},
            IllegalActionError,
            "1.06.03",
        ),
    ],
)
def test_malformed_moves(move: dict[str, object], error: type[RulesError], rule: str) -> None:
    state = atreides_at({"territory": "Pasty Mesa", "sector": 4, "forces": 3})
    refused(state, error, rule, **move)


def test_move_destinations_query_lists_paths_and_sectors() -> None:
    state = atreides_at(
        {"territory": "Tuek's Sietch", "forces": 3},
        storm=5,
        seats=[None, None, "atreides", None, None, None],
    )
    found = {d.territory: d for d in state.legal_move_destinations(state.to_act(), "Tuek's Sietch")}  # type: ignore[arg-type]
    assert set(found) == {"False Wall South", "Pasty Mesa", "South Mesa"}
    assert found["Pasty Mesa"].sectors == (4,)
    assert found["South Mesa"].sectors == (3, 4)
    assert found["False Wall South"].path == ("Tuek's Sietch", "False Wall South")


def test_moving_forces_shipped_this_turn() -> None:
    """004 Q07: forces shipped may move in the same turn."""
    state = atreides_at(storm=18)
    act(state, "atreides", "ship", to="Carthag", forces=3)
    act(state, "atreides", "move", from_="Carthag", to="Tsimpo", sector=10, forces=3)
    assert forces(state, "atreides", "Tsimpo") == 3


@pytest.mark.parametrize("storm", [3, 9, 18])
def test_a_search_stopped_at_its_goal_finds_the_goal_as_the_whole_search_does(storm: int) -> None:
    """The move's route search stops at its destination: same distance, same path, for
    every piece the whole search reaches (storm and a full stronghold in the way)."""
    state = position(
        storm=storm,
        seats=ATREIDES_FIRST,
        board=[
            {"faction": "emperor", "territory": "Arrakeen", "forces": 2},
            {"faction": "harkonnen", "territory": "Arrakeen", "forces": 2},
            {"faction": "fremen", "territory": "Habbanya Sietch", "forces": 3},
        ],
    )
    for start in [("Imperial Basin", 9), ("Polar Sink", None), ("Habbanya Sietch", 16)]:
        for limit in (1, 2, 3):
            whole = search(state, Faction.ATREIDES, [start], limit)
            for goal in whole.distance:
                stopped = search(state, Faction.ATREIDES, [start], limit, goal=goal)
                assert stopped.distance[goal] == whole.distance[goal]
                assert stopped.path_to(goal) == whole.path_to(goal)
