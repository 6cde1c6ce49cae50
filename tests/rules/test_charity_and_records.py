"""CHOAM Charity (1.03) and the phases the moderator records: bidding, battle (the
Revival phase, run by the engine, is tests/rules/test_revival.py)."""

from __future__ import annotations

import pytest

from rules.actions import PhaseDone
from rules.bidding.model import bids
from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from tests.rules.game_helpers import DECK, game_at, of_kind, spice_total, types
from tests.rules.helpers import act
from tests.rules.refusal import refused

F = Faction


def test_charity_asks_everyone_and_pays_only_the_poor_up_to_two() -> None:
    """Spice is behind shields: every faction is asked alike (docs/secrets-and-waits.md);
    only a faction holding 0 or 1 spice may claim (1.03.01), checked at the claim."""
    state = game_at(
        "choam_charity",
        factions={"atreides": {"spice": 0}, "fremen": {"spice": 1}, "emperor": {"spice": 2}},
        treachery_deck=DECK,
    )
    assert state.waiting_on() == state.whole.order  # whatever each holds
    total = spice_total(state)
    assert of_kind(act(state, "atreides", "claim_charity"), "charity_paid")[0]["amount"] == 2
    refused(state, NotYourTurnError, "1.03.01", "atreides", "claim_charity")
    refused(state, IllegalActionError, "1.03.01", "emperor", "claim_charity")
    act(state, "fremen", "claim_charity")
    assert (state.factions[F.ATREIDES].spice, state.factions[F.FREMEN].spice) == (2, 2)
    assert spice_total(state) == total
    for faction in state.waiting_on():
        act(state, faction.value, "pass")
    assert state.game_phase is GamePhase.BIDDING


def test_a_claim_raised_to_two_spice_by_the_emperors_gift_is_refused() -> None:
    """Issue 27: eligibility is checked at the claim, not fixed as the phase begins: the
    Emperor's gift (2.03.06) raises its ally from 1 to 2 spice; the claim is refused."""
    state = game_at(
        "choam_charity",
        factions={"atreides": {"spice": 1}},
        alliances=[["emperor", "atreides"]],
        treachery_deck=DECK,
    )
    act(state, "emperor", "give_spice", amount=1)
    assert state.factions[F.ATREIDES].spice == 2
    error = refused(state, IllegalActionError, "1.03.01", "atreides", "claim_charity")
    assert "0 or 1 spice" in error.message
    act(state, "atreides", "pass")  # it may still decline
    assert state.factions[F.ATREIDES].spice == 2


def test_a_claim_may_be_declined() -> None:
    state = game_at("choam_charity", factions={"atreides": {"spice": 0}}, seats=["atreides"])
    assert types(act(state, "atreides", "pass"))[:2] == ["passed", "phase_began"]
    assert state.factions[F.ATREIDES].spice == 0


@pytest.mark.parametrize(
    ("advanced", "variant", "bg_spice", "paid"),
    [(True, "advanced", 7, 2), (False, "advanced", 7, 0), (False, "always", 7, 2)],
)
def test_bene_gesserit_charity(advanced: bool, variant: str, bg_spice: int, paid: int) -> None:
    """2.02.09 (D10): advanced only, unless the table says always."""
    state = game_at(
        "choam_charity",
        advanced=advanced,
        variants={"bg_charity": variant},
        factions={"bene_gesserit": {"spice": bg_spice}},
    )
    assert state.factions[F.BENE_GESSERIT].spice == bg_spice + paid
    assert (F.BENE_GESSERIT in state.waiting_on()) is not bool(paid)  # asked unless paid


# -- bidding: the moderator's record, a correction during the auction (rules.bidding) ----


def test_a_card_recorded_pays_the_emperor_and_the_harkonnen_draw_one_more() -> None:
    """1.04.06.02, 2.03.04, 2.05.08: the record draws the next card of the deck (the cards
    laid out stay on offer) and leaves the auction where it is."""
    state = game_at("bidding", seats=["harkonnen", "atreides", "emperor"], treachery_deck=DECK)
    assert bids(state.whole).auction is not None and state.waiting_on() == (F.HARKONNEN,)
    act(state, "atreides", "record_card", price=3)
    assert state.factions[F.ATREIDES].cards == ("Chaumas",)  # 3 laid out, then this one
    assert (state.factions[F.ATREIDES].spice, state.factions[F.EMPEROR].spice) == (7, 13)
    events = act(state, "harkonnen", "record_card", price=2)
    assert [e.to_dict()["rule"] for e in events] == ["1.04.06.02", "2.05.08"]
    assert state.factions[F.HARKONNEN].cards == ("Kulon", "Baliset")
    assert "Kulon" not in str(state.public_view().to_dict())
    assert state.waiting_on() == (F.HARKONNEN,) and bids(state.whole).auction.high_bid == 0


def test_the_emperor_pays_the_bank() -> None:
    state = game_at("bidding", treachery_deck=DECK)
    bank = state.spice_bank
    act(state, "emperor", "record_card", price=4)
    assert state.spice_bank == bank + 4


def test_the_deck_is_made_again_from_the_discards() -> None:
    state = game_at(
        "bidding",
        seats=["atreides", "fremen"],
        treachery_deck=("Lasgun", "Shield"),
        treachery_discard=("Kulon", "Baliset"),
    )
    events = act(state, "atreides", "record_card", price=0)
    assert types(events)[0] == "deck_shuffled"
    assert len(state.whole.treachery_deck) == 1


@pytest.mark.parametrize(
    ("fields", "factions", "error", "rule"),
    [
        ({"price": 11}, {}, IllegalActionError, "1.04.06.03"),
        ({"price": -1}, {}, InvalidActionError, "1.04.06.02"),
        (
            {"price": 1},
            {"atreides": {"cards": ("a", "b", "c", "d")}},
            IllegalActionError,
            "1.04.02",
        ),
    ],
)
def test_bidding_record_refusals(
    fields: dict[str, object], factions: dict[str, dict[str, object]], error: type, rule: str
) -> None:
    state = game_at("bidding", treachery_deck=DECK, factions=factions)
    refused(state, error, rule, "atreides", "record_card", **fields)


def test_records_belong_to_their_phase() -> None:
    state = game_at("bidding", treachery_deck=DECK)
    refused(state, NotYourTurnError, "1.04", "atreides", "record_revival", forces=1)
    refused(state, NotYourTurnError, "1.04", "atreides", "claim_charity")
    events = state.apply(PhaseDone())
    # the Revival phase runs by itself: nobody has anything in the tanks to decide about
    began = [e["phase"] for e in of_kind(events, "phase_began")]
    assert began[:2] == ["revival", "shipment_movement"]
    assert state.game_phase is GamePhase.SHIPMENT_MOVEMENT


# -- battle -----------------------------------------------------------------------


def battle() -> GameState:
    return game_at(
        "battle",
        board=[("atreides", "Arrakeen", 9, 5), ("harkonnen", "Arrakeen", 9, 4)],
        factions={"atreides": {"cards": ("Crysknife",)}},
    )


def test_battle_records_and_the_next_storm_dialers() -> None:
    state = game_at(
        "battle",
        board=[("atreides", "Arrakeen", 9, 5), ("harkonnen", "Arrakeen", 9, 4)],
        factions={"atreides": {"cards": ("Crysknife",)}},
    )
    total = spice_total(state)
    act(state, "atreides", "record_battle", opponent="harkonnen")
    act(state, "harkonnen", "record_losses", territory="arrakeen", sector=9, forces=4)
    act(state, "harkonnen", "record_leader_killed", leader="Feyd Rautha")
    act(state, "atreides", "record_discard", card="crysknife")
    act(state, "atreides", "record_payment", amount=3)
    act(state, "atreides", "record_income", amount=6)
    assert state.factions[F.HARKONNEN].tanks == 4
    assert state.whole.leaders_tanks[F.HARKONNEN] == ("Feyd Rautha",)
    assert state.whole.treachery_discard == ("Crysknife",)
    assert state.factions[F.ATREIDES].spice == 13 and spice_total(state) == total
    state.apply(PhaseDone())
    assert state.whole.dialers == (F.ATREIDES, F.HARKONNEN)


@pytest.mark.parametrize(
    ("action", "fields", "error"),
    [
        ("record_losses", {"territory": "Arrakeen", "sector": 9, "forces": 6}, IllegalActionError),
        ("record_losses", {"territory": "Nowhere", "sector": 9, "forces": 1}, InvalidActionError),
        ("record_losses", {"territory": "Arrakeen", "sector": 9, "forces": 0}, IllegalActionError),
        ("record_leader_killed", {"leader": "Stilgar"}, IllegalActionError),
        ("record_discard", {"card": "Lasgun"}, IllegalActionError),
        ("record_payment", {"amount": 11}, IllegalActionError),
        ("record_payment", {"amount": 1, "to": "atreides"}, InvalidActionError),
        ("record_payment", {"amount": 1, "to": "nobody"}, InvalidActionError),
        ("record_battle", {"opponent": "atreides"}, InvalidActionError),
        ("record_income", {"amount": 0}, InvalidActionError),
    ],
)
def test_battle_record_refusals(action: str, fields: dict[str, object], error: type) -> None:
    refused(battle(), error, "1.07.06", "atreides", action, **fields)


def test_phase_done_only_where_the_moderator_records() -> None:
    state = game_at("choam_charity", factions={"atreides": {"spice": 0}})
    with pytest.raises(NotYourTurnError):
        state.apply(PhaseDone())
    assert state.game_phase is GamePhase.CHOAM_CHARITY


def test_moderator_actions_are_listed_and_legal() -> None:
    state = battle()
    actions = state.moderator_actions()
    assert actions[0] == PhaseDone()
    assert all(state.is_legal(a) for a in actions)
    assert not any(a.name.startswith("record") for a in state.legal_actions(F.ATREIDES))


@pytest.mark.parametrize(("advanced", "active"), [(True, True), (False, False)])
def test_seven_atreides_battle_losses_wake_the_kwisatz_haderach(
    advanced: bool, active: bool
) -> None:
    state = game_at(
        "battle",
        advanced=advanced,
        board=[
            ("atreides", "Arrakeen", 9, 5),
            ("atreides", "Carthag", 10, 3),
            ("harkonnen", "Carthag", 10, 3),  # a battle keeps the phase open for corrections
        ],
        atreides_battle_losses=2,
    )
    act(state, "atreides", "record_losses", territory="Arrakeen", sector=9, forces=4)
    assert not state.whole.kwisatz_haderach_active
    act(state, "atreides", "record_losses", territory="Carthag", sector=10, forces=1)
    assert state.whole.atreides_battle_losses == 7
    assert state.whole.kwisatz_haderach_active is active
    assert state.public_view().to_dict()["game"]["kwisatz_haderach_active"] is active


def test_an_ally_may_pay_part_of_the_price() -> None:
    """1.10.02.04; the Emperor is paid by both (2.03.04)."""
    state = game_at(
        "bidding",
        treachery_deck=DECK,
        alliances=[["atreides", "fremen"]],
        factions={"atreides": {"spice": 2}},
    )
    refused(state, IllegalActionError, "1.04.06.03", "atreides", "record_card", price=5)
    refused(
        state, IllegalActionError, "1.10.02.04", "harkonnen", "record_card", price=5, ally_pays=1
    )
    refused(
        state, IllegalActionError, "1.10.02.04", "atreides", "record_card", price=5, ally_pays=6
    )
    refused(
        state, IllegalActionError, "1.04.06.03", "atreides", "record_card", price=13, ally_pays=11
    )
    act(state, "atreides", "record_card", price=5, ally_pays=3)
    spice = {f: state.factions[f].spice for f in (F.ATREIDES, F.FREMEN, F.EMPEROR)}
    assert spice == {F.ATREIDES: 0, F.FREMEN: 7, F.EMPEROR: 15}
