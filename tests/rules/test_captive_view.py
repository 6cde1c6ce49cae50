"""The public leader pools and the Harkonnen's captives (2.05.10): a captured leader sits
face up in the Harkonnen's pool, its owner's pool says it is held; the draw itself shows
nowhere public before the Harkonnen capture it, and a captive going home leaves no trace."""

from __future__ import annotations

from rules.battle.model import BATTLE
from rules.factions import Faction
from rules.game import GameState
from rules.view import LeadersView
from tests.rules.battle_helpers import duel, fight
from tests.rules.helpers import act

F = Faction


def pools(state: GameState) -> dict[Faction, LeadersView]:
    game = state.public_view().game
    assert game is not None
    return {pool.faction: pool for pool in game.leaders}


def drawn_at_capture() -> tuple[GameState, str]:
    state = duel(advanced=True, seed=3)
    fight(state, ("harkonnen", "Feyd Rautha", 2, {}), ("emperor", "Bashar", 0, {}))
    fought = BATTLE.of(state.whole)
    assert state.whole.step == "capture" and fought is not None and fought.captive
    return state, fought.captive


def test_a_captive_is_in_the_harkonnen_pool_and_its_owner_pool_says_so() -> None:
    state, drawn = drawn_at_capture()
    before = pools(state)
    assert drawn in before[F.EMPEROR].alive and drawn not in before[F.HARKONNEN].alive
    assert all(pool.captured == () for pool in before.values())  # the draw is secret
    data = state.public_view().to_dict()
    for pool in data["game"]["leaders"]:
        if pool["faction"] == "emperor":
            pool["alive"] = []
    assert drawn not in str(data)  # nowhere but in its owner's pool
    act(state, "harkonnen", "capture", leader=drawn)
    after = pools(state)
    assert drawn in after[F.HARKONNEN].alive and drawn not in after[F.EMPEROR].alive
    assert after[F.EMPEROR].captured == (drawn,) and after[F.HARKONNEN].captured == ()
    data = state.public_view().to_dict()
    emperor = next(p for p in data["game"]["leaders"] if p["faction"] == "emperor")
    assert emperor["captured"] == [drawn]


def test_a_killed_leader_is_no_captive_and_a_captive_gone_home_is_not_held() -> None:
    state, drawn = drawn_at_capture()
    act(state, "harkonnen", "capture", leader=drawn, kill=True)
    assert drawn in pools(state)[F.EMPEROR].tanks
    assert all(pool.captured == () for pool in pools(state).values())
    home = duel(
        advanced=True,
        leaders={F.HARKONNEN: ("Umman Kudu", "Caid"), F.EMPEROR: ("Bashar",)},
        captives={"Caid": F.EMPEROR},
    )
    assert pools(home)[F.EMPEROR].captured == ("Caid",)
    fight(home, ("harkonnen", "Caid", 2, {}), ("emperor", "Bashar", 0, {}))
    act(home, "harkonnen", "pass")  # no capture; Caid goes home at the phase's end
    assert pools(home)[F.EMPEROR].captured == () and "Caid" in pools(home)[F.EMPEROR].alive
