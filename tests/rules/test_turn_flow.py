"""Phase flow (1.06.00): storm order, steps, passes, the alliance constraint, the end."""

from __future__ import annotations

import pytest

from rules.actions import Decline, Flip, action_from_dict, action_to_dict
from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError
from rules.factions import Faction
from rules.game import GameState
from rules.model import PromptKind, Side
from tests.rules.helpers import ALL_SIX, act, forces, kinds, position

A, E, H, F, G, B = (Faction(f) for f in ALL_SIX)


@pytest.mark.parametrize(
    ("storm", "order"),
    [
        (18, (A, E, H, F, G, B)),  # storm start: seat 0 (sector 1) is approached next
        (1, (E, H, F, G, B, A)),  # a storm on a seat's own circle has passed it
        (2, (E, H, F, G, B, A)),
        (3, (E, H, F, G, B, A)),
        (4, (H, F, G, B, A, E)),
        (16, (A, E, H, F, G, B)),
        (17, (A, E, H, F, G, B)),
        (15, (B, A, E, H, F, G)),
    ],
)
def test_storm_order_from_the_storm_sector(storm: int, order: tuple[Faction, ...]) -> None:
    assert position(storm=storm).phase.order == order


def test_empty_seats_are_skipped() -> None:
    state = position(storm=18, seats=[None, None, "harkonnen", None, "atreides", None])
    assert state.phase.order == (H, A)
    assert state.to_act() is H


def test_each_faction_ships_then_moves_once_in_storm_order() -> None:
    state = position(
        storm=18,
        seats=["atreides", "harkonnen", None, None, None, None],
        board=[{"faction": "harkonnen", "territory": "Carthag", "forces": 4}],
    )
    assert kinds(act(state, "atreides", "pass")) == ["shipment_passed"]
    events = act(state, "atreides", "pass")
    assert kinds(events) == ["movement_passed", "turn_ended", "turn_started"]
    act(state, "harkonnen", "ship", to="Carthag", forces=1)
    events = act(state, "harkonnen", "move", from_="Carthag", to="Tsimpo", sector=10, forces=5)
    assert kinds(events)[-1] == "phase_complete"
    assert state.is_complete
    with pytest.raises(NotYourTurnError):
        act(state, "atreides", "pass")


def test_a_faction_not_in_the_game_is_refused() -> None:
    state = position(storm=18, seats=["atreides", "harkonnen", None, None, None, None])
    before = state.to_dict()
    with pytest.raises(NotYourTurnError) as caught:
        act(state, "emperor", "pass")
    assert "Emperor is not in this game" in str(caught.value)
    assert state.to_dict() == before


def test_alliance_constraint_at_the_end_of_the_turn() -> None:
    """1.06.03.08: own fighters in a territory (any sector) with the ally's go to the tanks."""
    state = position(
        storm=18,
        seats=["atreides", "emperor", None, None, None, None],
        alliances=[["atreides", "emperor"]],
        factions={"emperor": {"special_reserves": 2}},
        board=[
            {"faction": "emperor", "territory": "South Mesa", "sector": 3, "forces": 2},
            {"faction": "emperor", "territory": "Polar Sink", "forces": 2},
            {"faction": "atreides", "territory": "Polar Sink", "forces": 1},
        ],
    )
    act(state, "atreides", "ship", to="South Mesa", sector=5, forces=3)
    assert forces(state, "atreides", "South Mesa") == 3  # not yet: only at the end of the turn
    assert [(t, s, n.forces) for t, s, n in state.alliance_losses(A)] == [("South Mesa", 5, 3)]
    events = act(state, "atreides", "pass")
    lost = next(e for e in events if e.kind == "alliance_constraint")
    assert (lost.territory, lost.forces, lost.rule) == ("South Mesa", 3, "1.06.03.08")
    assert state.factions[A].tanks == 3
    assert forces(state, "atreides", "Polar Sink") == 1  # the Polar Sink is exempt
    assert forces(state, "emperor", "South Mesa") == 2  # only the faction ending its turn


def test_the_next_action_declines_open_prompts() -> None:
    state = position(storm=18)
    assert [p.kind.value for p in state.open_prompts()] == ["guild_timing"]
    events = act(state, "atreides", "ship", to="Carthag", forces=1)
    assert kinds(events)[0] == "prompts_closed"
    open_kinds = {p.kind.value for p in state.open_prompts()}
    assert open_kinds == {"karama", "guild_stop"}  # the Guild payment may be cancelled


def test_a_refused_action_keeps_prompts_open() -> None:
    state = position(storm=18)
    before = state.to_dict()
    with pytest.raises(IllegalActionError):
        act(state, "atreides", "ship", to="Carthag", forces=50)
    assert state.to_dict() == before
    assert state.open_prompts()


def test_legal_actions_describe_what_a_faction_may_do_now() -> None:
    state = position(storm=18, factions={"atreides": {"cards": ["Hajr"]}})
    assert state.legal_actions(A).kinds() == ("ship", "move", "pass", "hajr")
    assert state.legal_actions(G).kinds() == ("guild_now", "decline")
    assert state.legal_actions(H).kinds() == ()


def test_undo_restores_exactly() -> None:
    state = position(
        storm=18, board=[{"faction": "atreides", "territory": "Arrakeen", "forces": 3}]
    )
    start = state.to_dict()
    act(state, "atreides", "ship", to="Carthag", forces=2)
    middle = state.to_dict()
    act(state, "atreides", "move", from_="Arrakeen", to="Old Gap", sector=9, forces=3)
    state.undo()
    assert state.to_dict() == middle
    state.undo()
    assert state.to_dict() == start
    with pytest.raises(IndexError):
        state.undo()


def test_limit_undo_keeps_the_newest_positions_only() -> None:
    state = position(
        storm=18, board=[{"faction": "atreides", "territory": "Arrakeen", "forces": 3}]
    )
    act(state, "atreides", "ship", to="Carthag", forces=2)
    middle = state.to_dict()
    act(state, "atreides", "move", from_="Arrakeen", to="Old Gap", sector=9, forces=3)
    state.limit_undo(1)
    state.undo()
    assert state.to_dict() == middle
    assert not state.can_undo  # the shipment's position was forgotten
    state.limit_undo(0)
    act(state, "atreides", "move", from_="Arrakeen", to="Old Gap", sector=9, forces=3)
    assert not state.can_undo
    with pytest.raises(IndexError):
        state.undo()


def test_to_dict_round_trips_in_the_middle_of_a_karama_window() -> None:
    state = position(storm=18)
    act(state, "atreides", "ship", to="Carthag", forces=2)
    copy = GameState.from_dict(state.to_dict())
    assert copy == state
    # the copy can go on exactly like the original
    act(state, "atreides", "pass")
    act(copy, "atreides", "pass")
    assert copy == state


def test_prompt_kinds_and_flip_sides_are_read_and_written_as_their_words() -> None:
    declined = action_from_dict({"faction": "harkonnen", "action": "decline", "prompt": "karama"})
    assert declined == Decline(Faction.HARKONNEN, PromptKind.KARAMA)
    assert action_to_dict(declined)["prompt"] == "karama"
    data = {"faction": "bene_gesserit", "action": "flip", "territory": "Arrakeen", "to": "fighters"}
    flip = action_from_dict(data)
    assert flip == Flip(Faction.BENE_GESSERIT, "Arrakeen", Side.FIGHTERS)
    assert action_to_dict(flip) == {**data, "action": "flip"}


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (
            {"faction": "harkonnen", "action": "decline", "prompt": "nap"},
            "'prompt' cannot be 'nap'",
        ),
        (
            {"faction": "bene_gesserit", "action": "flip", "territory": "Arrakeen", "to": "up"},
            "'up'",
        ),
        ({"faction": "bene_gesserit", "action": "flip", "territory": "Arrakeen"}, "needs 'to'"),
    ],
)
def test_a_wrong_prompt_kind_or_flip_side_is_refused(data: dict[str, object], words: str) -> None:
    with pytest.raises(InvalidActionError, match=words):
        action_from_dict(data)


def test_a_long_wrong_word_is_quoted_short() -> None:
    data = {"faction": "harkonnen", "action": "decline", "prompt": "z" * 5000}
    with pytest.raises(InvalidActionError) as info:
        action_from_dict(data)
    assert len(info.value.message) < 400 and "zzz" in info.value.message
