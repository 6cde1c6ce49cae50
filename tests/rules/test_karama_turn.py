"""Karama in the whole turn (3.01.11.02 played ahead, reading K1), the Fremen's Karama
worm (1.14.03), the Fremen's choice about their ally and the worm (2.04.10), and the
Guild's once-a-game stop across turns (1.14.05)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from rules.model import PromptKind, Stack
from rules.storm.model import StormTurn, storm_turn
from rules.storm.view import storm_secrets
from tests.rules.game_helpers import DECK, game_at, of_kind, types
from tests.rules.helpers import act, parse
from tests.rules.refusal import refused

F = Faction
WORM = "Shai-Hulud"


def test_a_karama_played_ahead_is_discarded_and_waits_for_the_ability() -> None:
    state = game_at(
        "bidding", advanced=True, factions={"atreides": {"cards": ("Karama",)}}, treachery_deck=DECK
    )
    events = act(state, "atreides", "karama_prevent", ability="bg_charity")
    assert of_kind(events, "karama_prevent") == [
        {
            "type": "karama_prevent",
            "faction": "atreides",
            "card": "Karama",
            "ability": "bg_charity",
            "rule": "2.02.09",
        }
    ]
    assert state.factions[F.ATREIDES].cards == ()
    assert state.whole.treachery_discard[0] == "Karama"
    assert state.whole.prevented == frozenset({"bg_charity"})
    assert state.game_phase is GamePhase.BIDDING  # the phase stays where it was


def test_karama_ahead_refusals_change_nothing() -> None:
    state = game_at(
        "bidding",
        factions={
            "atreides": {"cards": ("Karama",)},
            "bene_gesserit": {"cards": ("Karama",)},
        },
        prevented=frozenset({"shai_hulud"}),
    )
    refused(state, IllegalActionError, "3.01.11", "emperor", "karama_prevent", ability="bg_charity")
    refused(
        state, IllegalActionError, "3.01.11", "bene_gesserit", "karama_prevent",
        ability="bg_charity",
    )  # fmt: skip
    refused(
        state, IllegalActionError, "2.04.16", "atreides", "karama_prevent", ability="storm_losses"
    )  # the basic game has no half storm losses
    refused(
        state, IllegalActionError, "3.01.11", "atreides", "karama_prevent", ability="shai_hulud"
    )


def test_karama_ahead_needs_the_owner_in_the_game_and_the_turns_begun() -> None:
    state = game_at(
        "bidding",
        seats=["harkonnen", "atreides", None, None, None, None],
        factions={"atreides": {"cards": ("Karama",)}},
    )
    refused(
        state, IllegalActionError, "3.01.11", "atreides", "karama_prevent", ability="bg_charity"
    )


def test_legal_actions_offer_the_karama_against_other_factions_abilities_only() -> None:
    state = game_at(  # no card to sell; the Atreides then have a revival to choose
        "bidding",
        advanced=True,
        factions={"fremen": {"cards": ("Karama",)}, "atreides": {"tanks": 5}},
    )
    prevents = {
        a.ability.value for a in state.legal_actions(F.FREMEN) if a.name == "karama_prevent"
    }
    # the Bene Gesserit's charity and Voice, the Atreides' Prescience and look at the cards,
    # the Emperor's Sardaukar, payment and ally's revival, the Harkonnen's capture and top
    # card: never the Fremen's own
    assert prevents == {
        *("bg_charity", "voice", "prescience", "sardaukar", "capture", "atreides_bidding"),
        *("emperor_payment", "ally_revival", "top_card"),
    }
    worms = [a for a in state.legal_actions(F.FREMEN) if a.name == "karama_worm"]
    assert worms and all(state.board[a.territory].kind == "sand" for a in worms)  # type: ignore[attr-defined]
    assert not [a for a in state.legal_actions(F.ATREIDES) if a.name.startswith("karama")]


def test_the_advanced_fremen_lose_everything_once_their_half_losses_are_stopped() -> None:
    state = game_at(
        "storm",
        turn=2,
        storm=2,
        advanced=True,
        storm_turn=StormTurn(next=1),
        board=[("fremen", "South Mesa", 3, 4)],
        prevented=frozenset({"storm_losses"}),
    )
    events = state.start_events
    stopped = of_kind(events, "ability_stopped")
    assert stopped == [
        {
            "type": "ability_stopped",
            "faction": "fremen",
            "ability": "storm_losses",
            "rule": "2.04.16",
        }
    ]
    lost = of_kind(events, "forces_destroyed")[0]
    assert (lost["forces"], lost["rule"]) == (4, "1.01.03")
    assert state.stack(F.FREMEN, "South Mesa", 3) == Stack()
    assert state.whole.prevented == frozenset()


def test_a_stopped_storm_loss_waits_while_no_fremen_are_caught() -> None:
    state = game_at(
        "storm",
        turn=2,
        storm=2,
        advanced=True,
        storm_turn=StormTurn(next=1),
        board=[("fremen", "Sietch Tabr", 13, 4)],
        prevented=frozenset({"storm_losses"}),
    )
    assert "ability_stopped" not in types(state.start_events)
    assert state.whole.prevented == frozenset({"storm_losses"})


def test_the_fremen_do_not_see_the_next_storm_card_once_storm_coming_is_stopped() -> None:
    state = game_at(
        "storm", turn=2, storm=2, advanced=True, storm_turn=StormTurn(next=1),
        prevented=frozenset({"storm_coming"}),
    )  # fmt: skip
    assert "storm_card_drawn" in types(state.start_events)
    assert of_kind(state.start_events, "ability_stopped")[0]["ability"] == "storm_coming"
    assert storm_turn(state.whole).next is not None
    secrets = state.view_for(F.FREMEN).secrets
    assert secrets is not None and storm_secrets(secrets).storm_next is None


def test_bg_charity_stopped_leaves_the_bene_gesserit_the_ordinary_claim() -> None:
    rich = game_at(
        "choam_charity",
        advanced=True,
        factions={"bene_gesserit": {"spice": 7}},
        prevented=frozenset({"bg_charity"}),
    )
    assert rich.factions[F.BENE_GESSERIT].spice == 7
    assert "charity_paid" not in types(rich.start_events)
    assert of_kind(rich.start_events, "ability_stopped")[0]["faction"] == "bene_gesserit"
    poor = game_at(
        "choam_charity",
        advanced=True,
        factions={"bene_gesserit": {"spice": 1}},
        prevented=frozenset({"bg_charity"}),
    )
    assert F.BENE_GESSERIT in poor.waiting_on()
    act(poor, "bene_gesserit", "claim_charity")
    assert poor.factions[F.BENE_GESSERIT].spice == 2


def test_the_worm_takes_the_fremen_once_shai_hulud_is_stopped_and_spares_their_ally() -> None:
    state = game_at(
        "spice_blow",
        alliances=[["fremen", "atreides"]],
        board=[("fremen", "Old Gap", 9, 2), ("atreides", "Old Gap", 8, 2)],
        spice_deck=(WORM, "Red Chasm"),
        spice_discard=("Old Gap",),
        prevented=frozenset({"shai_hulud"}),
    )
    lost = {e["faction"] for e in of_kind(state.start_events, "forces_destroyed")}
    assert lost == {"fremen"}
    assert of_kind(state.start_events, "ability_stopped")[0]["ability"] == "shai_hulud"


@pytest.mark.parametrize(("protect", "lost"), [(True, set()), (False, {"atreides"})])
def test_the_fremen_choose_ahead_and_in_secret_whether_the_worm_spares_their_ally(
    protect: bool, lost: set[str]
) -> None:
    state = game_at(
        "storm",
        turn=2,
        alliances=[["fremen", "atreides"]],
        board=[("fremen", "Old Gap", 9, 2), ("atreides", "Old Gap", 8, 2)],
        spice_deck=(WORM, "Red Chasm"),
        spice_discard=("Old Gap",),
        dialers=(F.HARKONNEN, F.EMPEROR),
    )
    public = state.public_view().to_dict()
    assert act(state, "fremen", "fremen_ally_worm", protect=protect) == []
    assert state.public_view().to_dict() == public  # nothing public shows the choice
    secrets = state.view_for(F.FREMEN).secrets
    assert secrets is not None and secrets.spares_ally is protect
    other = state.view_for(F.ATREIDES).secrets
    assert other is not None and other.spares_ally is None
    refused(state, IllegalActionError, "2.04.10", "atreides", "fremen_ally_worm", protect=True)
    act(state, "harkonnen", "dial", value=1)
    events = act(state, "emperor", "dial", value=1)
    assert {e["faction"] for e in of_kind(events, "forces_destroyed")} == lost


def test_a_stopped_sandworms_leaves_the_second_worm_without_effect() -> None:
    state = game_at(
        "spice_blow",
        advanced=True,
        board=[("harkonnen", "Imperial Basin", 10, 2)],
        spice_deck=(WORM, WORM, "Red Chasm", "South Mesa"),
        spice_discard=("Old Gap",),
        prevented=frozenset({"sandworms"}),
    )
    worms = of_kind(state.start_events, "shai_hulud")
    assert [w["territory"] for w in worms] == ["Old Gap", None]
    assert state.whole.step != "worm_a"
    assert of_kind(state.start_events, "ability_stopped")[0]["ability"] == "sandworms"


def test_the_fremen_karama_worm_is_played_ahead_and_comes_up_first() -> None:
    state = game_at(
        "bidding",
        turn=2,
        advanced=True,
        factions={"fremen": {"cards": ("Karama", "Karama")}},
        board=[("harkonnen", "Red Chasm", 6, 3), ("fremen", "Red Chasm", 6, 1)],
        spice_deck=("South Mesa", "Broken Land"),
        treachery_deck=DECK,  # an auction: the game stays in the Bidding phase
    )
    assert state.game_phase is GamePhase.BIDDING
    refused(state, IllegalActionError, "1.14.03", "fremen", "karama_worm", territory="Carthag")
    refused(state, IllegalActionError, "1.14.03", "atreides", "karama_worm", territory="Red Chasm")
    events = act(state, "fremen", "karama_worm", territory="red chasm")
    assert of_kind(events, "karama_power")[0]["territory"] is None  # where: secret
    assert "Red Chasm" not in str(state.public_view().to_dict()["game"])
    secrets = state.view_for(F.FREMEN).secrets
    assert secrets is not None and secrets.karama_worm == "Red Chasm"
    assert state.view_for(F.HARKONNEN).secrets.karama_worm is None  # type: ignore[union-attr]
    refused(state, IllegalActionError, "1.14.03", "fremen", "karama_worm", territory="Old Gap")
    assert state.factions[F.FREMEN].cards == ("Karama",)
    # the blow of the next Spice Blow phase: the Karama worm first, then the deck
    blow = game_at(
        "spice_blow",
        turn=3,
        advanced=True,
        board=[("harkonnen", "Red Chasm", 6, 3), ("fremen", "Red Chasm", 6, 1)],
        spice_deck=("South Mesa", "Broken Land"),
        karama_worm="Red Chasm",
        karama_powers_used=frozenset({F.FREMEN}),
    )
    worms = of_kind(blow.start_events, "shai_hulud")
    assert [(w["territory"], w["rule"]) for w in worms] == [("Red Chasm", "1.14.03")]
    lost = {e["faction"] for e in of_kind(blow.start_events, "forces_destroyed")}
    assert lost == {"harkonnen"}
    assert blow.whole.step == "nexus_a" and blow.whole.karama_worm is None


def test_the_karama_worm_is_advanced_only_and_not_during_the_spice_blow() -> None:
    basic = game_at("bidding", factions={"fremen": {"cards": ("Karama",)}})
    refused(basic, IllegalActionError, "1.14.03", "fremen", "karama_worm", territory="Red Chasm")
    nexus = game_at(
        "spice_blow",
        advanced=True,
        factions={"fremen": {"cards": ("Karama",)}},
        spice_deck=(WORM, "Red Chasm", "South Mesa", "Broken Land"),
        spice_discard=("Old Gap",),
    )
    assert nexus.whole.step.startswith("nexus")
    refused(nexus, NotYourTurnError, "1.14.03", "fremen", "karama_worm", territory="Red Chasm")


def test_the_guilds_stop_is_once_a_game_not_once_a_turn() -> None:
    fresh = game_at("shipment_movement", advanced=True)
    assert not fresh.phase.guild_karama_used
    spent = game_at(
        "shipment_movement", advanced=True, karama_powers_used=frozenset({F.SPACING_GUILD})
    )
    assert spent.phase.guild_karama_used


# -- bribes (1.12) ---------------------------------------------------------------------


def test_a_bribe_lies_in_front_of_the_shield_until_the_mentat_pause() -> None:
    state = game_at("bidding", factions={"atreides": {"spice": 5}, "fremen": {"spice": 0}})
    events = act(state, "atreides", "bribe", to="fremen", amount=3)
    assert of_kind(events, "bribe_paid") == [
        {
            "type": "bribe_paid",
            "faction": "atreides",
            "to": "fremen",
            "amount": 3,
            "rule": "1.12.02",
        }
    ]
    assert state.factions[F.ATREIDES].spice == 2 and state.factions[F.FREMEN].spice == 0
    game = state.public_view().game
    assert game is not None and game.bribes == ((F.FREMEN, 3),)  # in the open
    refused(state, InvalidActionError, "1.12.02", "atreides", "bribe", to="fremen", amount=3)
    refused(state, InvalidActionError, "1.12.02", "atreides", "bribe", to="fremen", amount=0)
    refused(state, IllegalActionError, "1.12.02", "atreides", "bribe", to="atreides", amount=1)
    refused(state, IllegalActionError, "1.12.02", "atreides", "bribe", to="nobody", amount=1)


def test_bribes_are_collected_in_the_mentat_pause_and_not_before_the_first_storm() -> None:
    pause = game_at("spice_collection", turn=2, bribes={F.FREMEN: 3})
    collected = of_kind(pause.start_events, "bribes_collected")
    assert collected == [
        {"type": "bribes_collected", "faction": "fremen", "amount": 3, "rule": "1.09.01"}
    ]
    assert pause.factions[F.FREMEN].spice == 13 and pause.whole.bribes == {}
    first = game_at("storm", turn=1, dialers=(F.HARKONNEN, F.EMPEROR))
    refused(first, NotYourTurnError, "1.12.04", "atreides", "bribe", to="fremen", amount=1)


def test_bribe_spice_is_not_held_for_charity() -> None:
    state = game_at("choam_charity", factions={"fremen": {"spice": 0}, "emperor": {"spice": 0}})
    act(state, "atreides", "bribe", to="fremen", amount=5)
    assert F.FREMEN in state.waiting_on()
    act(state, "fremen", "claim_charity")
    assert state.factions[F.FREMEN].spice == 2 and state.whole.bribes == {F.FREMEN: 5}


# -- 1.00.05: nobody acts while an ability resolves -------------------------------------


def _fremen_move_open_to_karama() -> GameState:
    """The Fremen move two territories: a Karama window is open to the Atreides and the
    Emperor, whose cards and tanks give them something to play meanwhile."""
    state = game_at(
        "shipment_movement",
        advanced=True,
        seats=["fremen", None, "atreides", None, "emperor", None],
        alliances=[["fremen", "emperor"]],
        factions={
            "atreides": {"cards": ("Karama",)},
            "emperor": {"cards": ("Karama", "Tleilaxu Ghola"), "tanks": 2},
            "fremen": {"cards": ("Karama",)},
        },
        board=[("fremen", "Sietch Tabr", 13, 5)],
    )
    act(state, "fremen", "pass")
    act(state, "fremen", "move", from_="Sietch Tabr", to="Funeral Plain", forces=5)
    assert state.open_prompts() and state.open_prompts()[0].kind is PromptKind.KARAMA
    return state


@pytest.mark.parametrize(
    ("faction", "action", "fields"),
    [
        ("emperor", "karama_prevent", {"ability": "atreides_bidding"}),
        ("fremen", "karama_worm", {"territory": "Red Chasm"}),
        ("fremen", "fremen_ally_worm", {"protect": False}),
        ("emperor", "ghola", {"forces": 2}),
    ],
)
def test_no_any_time_action_while_a_karama_window_is_open(
    faction: str, action: str, fields: dict[str, Any]
) -> None:
    """Found by random whole games: a Karama played ahead while a Shipment & Movement
    Karama window was open was undone, card and all, by the cancel that followed."""
    state = _fremen_move_open_to_karama()
    refused(state, NotYourTurnError, "1.00.05", faction, action, **fields)
    assert not any(a.name == action for a in state.legal_actions(Faction(faction)))
    act(state, "atreides", "karama_cancel", ability="fremen_movement")
    assert state.factions[F.EMPEROR].cards == ("Karama", "Tleilaxu Ghola")
    assert state.is_legal(parse(faction, action, **fields))
