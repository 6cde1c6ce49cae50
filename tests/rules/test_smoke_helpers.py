from tests.rules.helpers import act, forces, position


def test_helpers_build_a_position_and_apply_actions() -> None:
    state = position(board=[{"faction": "harkonnen", "territory": "Carthag", "forces": 5}])
    first = state.to_act()
    assert first is not None
    act(state, first.value, "pass")
    assert forces(state, "harkonnen", "Carthag") == 5
