"""Spice given away (a bribe, 1.12; the Emperor's gift, 2.03.06) never takes spice a
faction has committed: a standing high bid stays payable (1.04.06.02) and the spice
dialed in a locked battle plan is held for it (1.13.04). Worked examples found by random
whole games (issue 27): each is refused, citing the rule, and changes nothing."""

from __future__ import annotations

from typing import Any

from rules.errors import IllegalActionError
from rules.factions import Faction
from tests.rules.battle_helpers import duel, no_calls, of, plan
from tests.rules.game_helpers import DECK, game_at, of_kind, spice_total
from tests.rules.helpers import act
from tests.rules.refusal import refused

F = Faction
SEATS = ["harkonnen", "bene_gesserit", "emperor"]  # storm order from sector 18: H, BG, E


def test_a_bribe_cannot_take_the_spice_of_a_standing_high_bid() -> None:
    """The Bene Gesserit bid 5 holding 5; a bribe of 1 would leave the bid unpaid: refused.
    Everyone passes: the card is won for the whole 5."""
    state = game_at(
        "bidding",
        seats=SEATS,
        treachery_deck=DECK,
        factions={"bene_gesserit": {"spice": 5}},
    )
    act(state, "harkonnen", "bid", amount=1)
    act(state, "bene_gesserit", "bid", amount=5)
    error = refused(
        state, IllegalActionError, "1.04.06.02", "bene_gesserit", "bribe", to="harkonnen", amount=1
    )
    assert "standing bid of 5" in error.message
    act(state, "emperor", "pass")
    events = act(state, "harkonnen", "pass")
    won = of_kind(events, "card_won")[0]
    assert (won["faction"], won["price"]) == ("bene_gesserit", 5)
    assert state.factions[F.BENE_GESSERIT].spice == 0 and state.factions[F.EMPEROR].spice == 15


def test_a_bribe_beyond_the_standing_bid_is_accepted() -> None:
    """Spice beyond the high bid is the bidder's to give."""
    state = game_at("bidding", seats=SEATS, treachery_deck=DECK)
    act(state, "harkonnen", "bid", amount=4)
    act(state, "harkonnen", "bribe", to="emperor", amount=6)
    assert state.factions[F.HARKONNEN].spice == 4
    refused(state, IllegalActionError, "1.04.06.02", "harkonnen", "bribe", to="emperor", amount=1)


def test_the_allys_bribe_cannot_take_the_spice_it_committed_to_a_standing_bid() -> None:
    """The ally's commitment pays the part of the bid beyond the bidder's spice."""
    state = game_at(
        "bidding",
        seats=SEATS,
        treachery_deck=DECK,
        alliances=[["harkonnen", "bene_gesserit"]],
        factions={"harkonnen": {"spice": 2}},
    )
    act(state, "bene_gesserit", "support_bids", amount=10)
    act(state, "harkonnen", "bid", amount=9)
    refused(
        state, IllegalActionError, "1.04.06.02", "bene_gesserit", "bribe", to="emperor", amount=4
    )
    act(state, "bene_gesserit", "bribe", to="emperor", amount=3)


def locked_dial(**kw: Any) -> Any:
    """The Emperor (defender) has locked a plan dialing 3 with 3 spice, holding 3."""
    state = duel(harkonnen={"spice": 0}, emperor={"spice": 3}, advanced=True, **kw)
    plan(state, "emperor", "Bashar", 3, spice=3)
    return state


def test_a_bribe_cannot_take_the_spice_dialed_in_a_locked_plan() -> None:
    state = locked_dial()
    error = refused(
        state, IllegalActionError, "1.13.04", "emperor", "bribe", to="harkonnen", amount=3
    )
    assert "dialed" in error.message
    total = spice_total(state)
    events = plan(state, "harkonnen", "Feyd Rautha", 1) + no_calls(state)
    assert of(events, "spice_paid") == [
        {"type": "spice_paid", "faction": "emperor", "amount": 3, "to": None}
    ]
    assert state.factions[F.EMPEROR].spice == 0 and spice_total(state) == total


def test_the_emperors_gift_cannot_take_the_spice_dialed_in_a_locked_plan() -> None:
    state = locked_dial(alliances=[["emperor", "fremen"]], seats=SEATS_WITH_THIRD)
    refused(state, IllegalActionError, "1.13.04", "emperor", "give_spice", amount=1)


def test_dialed_spice_is_free_again_once_paid() -> None:
    state = duel(harkonnen={"spice": 0}, emperor={"spice": 5}, advanced=True)
    plan(state, "emperor", "Bashar", 3, spice=3)
    refused(state, IllegalActionError, "1.13.04", "emperor", "bribe", to="harkonnen", amount=3)
    act(state, "emperor", "bribe", to="harkonnen", amount=2)
    plan(state, "harkonnen", "Feyd Rautha", 1)
    no_calls(state)
    assert state.factions[F.EMPEROR].spice == 0


SEATS_WITH_THIRD = ["harkonnen", None, "fremen", None, "emperor", None]


def test_the_allys_share_of_a_dial_is_held_too() -> None:
    """D13 "yes": the ally pays the part of the dial the side's own spice does not; that
    part is held: the ally (10 spice) may give away 8, not 9."""
    state = duel(
        harkonnen={"spice": 0},
        emperor={"spice": 1},
        advanced=True,
        seats=SEATS_WITH_THIRD,
        alliances=[["emperor", "fremen"]],
        variants={"ally_battle_spice": "yes"},
    )
    plan(state, "emperor", "Bashar", 3, spice=3)
    refused(state, IllegalActionError, "1.13.04", "fremen", "bribe", to="harkonnen", amount=9)
    refused(state, IllegalActionError, "1.13.04", "emperor", "bribe", to="harkonnen", amount=1)
    act(state, "fremen", "bribe", to="harkonnen", amount=8)
    plan(state, "harkonnen", "Feyd Rautha", 1)
    no_calls(state)
    assert (state.factions[F.EMPEROR].spice, state.factions[F.FREMEN].spice) == (0, 0)


def test_a_recorded_payment_cannot_take_the_spice_dialed_in_a_locked_plan() -> None:
    """Found by random whole games: the moderator's record of a payment during the traitor
    question left the revealed dial unpaid."""
    state = locked_dial()
    refused(state, IllegalActionError, "1.13.04", "emperor", "record_payment", amount=1)


def test_a_card_recorded_for_the_allys_spice_cannot_leave_a_standing_bid_unpaid() -> None:
    state = game_at(
        "bidding",
        seats=SEATS,
        treachery_deck=DECK,
        alliances=[["harkonnen", "bene_gesserit"]],
        factions={"harkonnen": {"spice": 2}, "bene_gesserit": {"spice": 6}},
    )
    act(state, "bene_gesserit", "support_bids", amount=6)
    act(state, "harkonnen", "bid", amount=8)
    refused(state, IllegalActionError, "1.04.06.02", "bene_gesserit", "record_card", price=1)
