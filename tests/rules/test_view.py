"""Hidden information: the public view carries no spice behind shields and no cards."""

from __future__ import annotations

import dataclasses
import json

from rules.factions import Faction
from rules.game import GameState
from rules.view import FactionPublic, PrivateView, PublicView
from tests.rules.helpers import act, position


def secretive_position() -> GameState:
    return position(
        storm=18,
        factions={
            "atreides": {"spice": 17, "cards": ["Karama", "Hajr"]},
            "harkonnen": {"spice": 13, "cards": ["Lasgun"]},
        },
        board=[{"faction": "harkonnen", "territory": "Carthag", "forces": 4}],
    )


def test_public_view_has_no_field_for_spice_or_cards() -> None:
    names = {f.name for f in dataclasses.fields(PublicView)}
    assert not names & {"spice_behind_shield", "cards", "hand"}
    faction_fields = {f.name for f in dataclasses.fields(FactionPublic)}
    assert faction_fields == {
        "faction",
        "reserves",
        "special_reserves",
        "tanks",
        "special_tanks",
        "cards_held",
    }


def test_public_view_shows_no_secret_values() -> None:
    state = secretive_position()
    text = json.dumps(state.public_view().to_dict())
    for secret in ("Karama", "Hajr", "Lasgun", "17", "13"):
        assert secret not in text
    view = state.public_view()
    assert view.faction(Faction.ATREIDES).cards_held == 2


def test_view_for_adds_only_the_faction_s_own_secrets() -> None:
    state = secretive_position()
    mine = state.view_for(Faction.ATREIDES)
    assert (mine.spice, mine.cards) == (17, ("Karama", "Hajr"))
    assert "Lasgun" not in json.dumps(mine.to_dict())
    assert "13" not in json.dumps(mine.to_dict()).replace("spice_bank", "")
    assert mine.legal_actions == ("ship", "move", "pass", "hajr", "karama_prevent")


def test_a_private_view_is_not_a_public_view() -> None:
    assert not issubclass(PrivateView, PublicView)


def test_karama_window_is_offered_to_every_other_faction_alike() -> None:
    """Nobody learns who holds a Karama from the prompt."""
    state = secretive_position()
    act(state, "atreides", "ship", to="Carthag", forces=1)  # payment to the Guild: ✷
    window = next(p for p in state.public_view().prompts if p.kind == "karama")
    assert window.ability == "guild_payment"
    assert set(window.responders) == set(Faction) - {Faction.SPACING_GUILD}
