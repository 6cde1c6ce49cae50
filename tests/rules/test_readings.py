"""The readings the README lists for points the rule texts leave open."""

from __future__ import annotations

import pytest

from rules.errors import IllegalActionError
from rules.factions import Faction
from rules.game import GameState
from rules.model import PromptKind
from tests.rules.helpers import act, position, stack

FULL_CARTHAG = [
    {"faction": "harkonnen", "territory": "Carthag", "forces": 2},
    {"faction": "emperor", "territory": "Carthag", "forces": 2},
]


def bg_first(board: list[dict[str, object]]) -> GameState:
    return position(
        storm=18,
        seats=["bene_gesserit", "harkonnen", "emperor", None, None, None],
        board=board,
    )


def test_advisors_may_enter_a_full_stronghold_but_not_take_up_arms_there() -> None:
    advisors = {"faction": "bene_gesserit", "territory": "Tsimpo", "sector": 10, "forces": 2,
                "advisors": True}  # fmt: skip
    state = bg_first([*FULL_CARTHAG, advisors])
    before = state.to_dict()
    with pytest.raises(IllegalActionError) as caught:
        act(state, "bene_gesserit", "move", from_="Tsimpo", to="Carthag", forces=2,
            advisors=True, take_up_arms=True)  # fmt: skip
    assert caught.value.rule == "2.02.17"
    assert state.to_dict() == before
    act(state, "bene_gesserit", "move", from_="Tsimpo", to="Carthag", forces=2, advisors=True)
    assert stack(state, "bene_gesserit", "Carthag", 10) == (0, 0, 2)


def test_no_intrusion_when_a_force_only_passes_through() -> None:
    state = position(
        storm=18,
        seats=["atreides", None, None, None, None, "bene_gesserit"],
        board=[
            {"faction": "atreides", "territory": "Arrakeen", "forces": 1},
            {"faction": "atreides", "territory": "Tuek's Sietch", "forces": 3},
            {"faction": "bene_gesserit", "territory": "Pasty Mesa", "sector": 7, "forces": 2},
        ],
    )
    act(state, "atreides", "pass")
    events = act(state, "atreides", "move", from_="Tuek's Sietch", to="Shield Wall", sector=7,
                 forces=3)  # fmt: skip
    move = next(e for e in events if e.kind == "move")
    assert "Pasty Mesa" in move.path
    kinds = {p.kind for stage in state.phase.stages for p in stage}
    assert PromptKind.INTRUSION not in kinds


def test_a_delayed_guild_whose_late_turn_is_cancelled_acts_last() -> None:
    state = position(
        storm=18,
        seats=["spacing_guild", "atreides", "harkonnen", None, None, None],
        factions={"atreides": {"cards": ["Karama"]}},
    )
    act(state, "spacing_guild", "guild_delay")
    act(state, "atreides", "decline", prompt="karama")
    act(state, "harkonnen", "decline", prompt="karama")
    assert state.to_act() is Faction.ATREIDES
    act(state, "spacing_guild", "guild_now")  # before Atreides: acting late, but early enough
    act(state, "atreides", "karama_cancel")
    assert state.to_act() is Faction.ATREIDES
    for faction in ("atreides", "atreides", "harkonnen", "harkonnen"):
        act(state, faction, "pass")
    assert state.to_act() is Faction.SPACING_GUILD  # last
