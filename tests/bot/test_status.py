"""`/status`'s text: the faction's own private view, and nothing of another faction's."""

from __future__ import annotations

from bot.words.status import status_text
from rules.battle.model import BATTLE
from rules.factions import Faction
from tests.rules.battle_helpers import duel, fight
from tests.rules.helpers import act, position

SEATS = ["atreides", "fremen", None, None, None, None]


def test_the_faction_to_act_reads_its_spice_cards_forces_and_choices() -> None:
    state = position(
        seats=SEATS,
        factions={
            "atreides": {"spice": 10, "reserves": 8, "tanks": 2, "cards": ["Karama"]},
            "fremen": {"spice": 3, "reserves": 7, "special_reserves": 3},
        },
    )
    assert status_text(state.view_for(Faction.ATREIDES)).splitlines() == [
        "**Atreides** (only you see this)",
        "Spice: 10. Cards: Karama.",
        "Reserves: 8 forces. Tanks: 2 forces.",
        "Your leaders: Thufir Hawat, Lady Jessica, Gurney Halleck, Duncan Idaho, "
        "Dr. Wellington Yueh; in the Tleilaxu Tanks: none.",
        "You may ship, move, bribe, prevent an ability with Karama or pass.",
        "Standing orders: none (you are asked every time).",
    ]


def test_a_faction_that_waits_may_do_nothing_and_sees_only_its_own_data() -> None:
    state = position(
        seats=SEATS,
        factions={
            "atreides": {"spice": 10, "reserves": 8, "cards": ["Karama"]},
            "fremen": {"spice": 3, "reserves": 7, "special_reserves": 3},
        },
    )
    text = status_text(state.view_for(Faction.FREMEN))
    assert text.splitlines() == [
        "**Fremen** (only you see this)",
        "Spice: 3. Cards: none.",
        "Reserves: 7 forces, 3 Fedaykin. Tanks: 0 forces, 0 Fedaykin.",
        "Your leaders: Stilgar, Chani, Otheym, Shadout Mapes, Jamis; in the Tleilaxu Tanks: none.",
        "You may bribe.",  # any time, in a whole game's Shipment & Movement phase too
        "Standing orders: none (you are asked every time).",
    ]
    assert "Karama" not in text and "10" not in text


def test_a_captured_leader_is_named_where_it_went_once_captured() -> None:
    """2.05.10: the captive sits face up in the Harkonnen's pool; its owner reads it held
    by the Harkonnen, a third faction reads who holds whom; the draw itself is named by
    nobody's status before the Harkonnen decide."""
    state = duel(advanced=True, seed=3, seats=["harkonnen", None, "fremen", None, "emperor", None])
    fight(state, ("harkonnen", "Feyd Rautha", 2, {}), ("emperor", "Bashar", 0, {}))
    fought = BATTLE.of(state.whole)
    assert fought is not None and fought.captive is not None
    drawn = fought.captive
    for faction in (Faction.HARKONNEN, Faction.FREMEN):
        assert drawn not in status_text(state.view_for(faction))
    act(state, "harkonnen", "capture", leader=drawn)
    emperor = status_text(state.view_for(Faction.EMPEROR))
    assert f"; {drawn}, held by the Harkonnen." in emperor
    assert "Held by the Harkonnen" not in emperor  # its own line says it
    harkonnen = status_text(state.view_for(Faction.HARKONNEN))
    assert f"{drawn} (captured from the Emperor)" in harkonnen
    fremen = status_text(state.view_for(Faction.FREMEN))
    assert f"Held by the Harkonnen: {drawn} (Emperor)." in fremen
    assert "Your leaders: " in fremen and "in the Tleilaxu Tanks: none" in fremen
