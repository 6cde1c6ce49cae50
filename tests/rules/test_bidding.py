"""The Bidding phase run by the engine (1.04): worked examples for each rule and ability,
the refusals (each cites its rule and changes nothing), the views and the choices."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.actions import Pass, PhaseDone
from rules.bidding.actions import Bid, GiveBackCards, KaramaBuy, SupportBids
from rules.bidding.auction import cards_in_play, hand_limit
from rules.bidding.model import bids
from rules.bidding.view import auction_secrets
from rules.components import treachery_deck
from rules.defaults import default_action
from rules.errors import IllegalActionError, InvalidActionError, NotYourTurnError, RulesError
from rules.events import CardWon, Event
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase, TurnState
from tests.rules.game_helpers import DECK, game_at, of_kind, spice_total, types
from tests.rules.helpers import act
from tests.rules.refusal import refused

F = Faction
THREE = ["harkonnen", "atreides", "emperor"]  # storm order from sector 18: H, A, E


def bidding(seats: list[str | None] | None = None, **kw: Any) -> GameState:
    kw.setdefault("treachery_deck", DECK)
    return game_at("bidding", seats=seats or THREE, **kw)


def auction(state: GameState) -> Any:
    found = bids(state.whole).auction
    assert found is not None
    return found


def passes(state: GameState, *factions: str) -> list[Event]:
    events: list[Event] = []
    for faction in factions:
        events += act(state, faction, "pass")
    return events


# -- 1.04.01-1.04.04: declaration, hand limits, the cards laid out ---------------------


def test_hands_declared_and_one_card_laid_out_per_player_allowed_to_bid() -> None:
    """1.04.01, 1.04.02 (4; Harkonnen 8), 1.04.04: a full hand gets no card laid out."""
    state = game_at(
        "bidding",
        seats=THREE,
        treachery_deck=DECK,
        factions={"atreides": {"cards": ("Kulon",) * 4}, "harkonnen": {"cards": ("Kulon",) * 7}},
    )
    events = state.start_events
    assert of_kind(events, "hand_declared") == [
        {"type": "hand_declared", "faction": "harkonnen", "cards": 7},
        {"type": "hand_declared", "faction": "atreides", "cards": 4},
        {"type": "hand_declared", "faction": "emperor", "cards": 0},
    ]
    assert of_kind(events, "cards_laid_out") == [{"type": "cards_laid_out", "count": 2}]
    assert of_kind(events, "auction_opened")[0] == {
        "type": "auction_opened",
        "number": 1,
        "of": 2,
        "opener": "harkonnen",
    }
    assert auction(state).cards == ("Lasgun", "Shield")
    assert state.whole.treachery_deck == DECK[2:]
    assert state.waiting_on() == (F.HARKONNEN,)


def test_no_auction_when_nobody_can_bid() -> None:
    """1.04.04: every hand full: no card is laid out and the phase ends."""
    full = {"cards": ("Kulon",) * 4}
    state = game_at(
        "bidding",
        seats=["atreides", "emperor"],
        treachery_deck=DECK,
        factions={"atreides": full, "emperor": full},
    )
    assert of_kind(state.start_events, "cards_laid_out")[0]["count"] == 0
    # the Revival phase runs by itself (nothing in the tanks): the game is at shipment
    assert state.game_phase is GamePhase.SHIPMENT_MOVEMENT and state.whole.treachery_deck == DECK


def test_the_deck_is_reshuffled_from_the_discards_when_it_runs_out() -> None:
    """1.04.04: two cards in the deck, three players: the discards make a new deck."""
    state = bidding(treachery_deck=("Lasgun", "Shield"), treachery_discard=("Kulon", "Baliset"))
    assert types(state.start_events).count("deck_shuffled") == 1
    assert auction(state).cards[:2] == ("Lasgun", "Shield") and len(auction(state).cards) == 3
    assert state.whole.treachery_discard == ()


# -- 1.04.05-1.04.07: the auction ------------------------------------------------------


def test_the_card_goes_to_the_high_bidder_once_everyone_else_has_passed() -> None:
    """1.04.05-1.04.06.02, 2.03.04: the opener bids, the turn goes round in storm order,
    the winner pays the Emperor."""
    state = bidding()
    total = spice_total(state)
    assert types(act(state, "harkonnen", "bid", amount=1)) == ["bid_made"]
    assert state.waiting_on() == (F.ATREIDES,)
    act(state, "atreides", "bid", amount=3)
    events = passes(state, "emperor", "harkonnen")
    assert of_kind(events, "card_won")[0] == {
        "type": "card_won",
        "faction": "atreides",
        "price": 3,
        "paid_to": "emperor",
        "rule": "1.04.06.02",
        "ally": None,
        "ally_paid": 0,
    }
    assert state.factions[F.ATREIDES].cards == ("Lasgun",)
    assert (state.factions[F.ATREIDES].spice, state.factions[F.EMPEROR].spice) == (7, 13)
    assert spice_total(state) == total


def test_the_emperors_own_purchase_pays_the_bank() -> None:
    """2.03.04: the Emperor's own purchases go to the bank."""
    state = bidding()
    bank = state.spice_bank
    passes(state, "harkonnen", "atreides")
    act(state, "emperor", "bid", amount=4)
    events = passes(state, "harkonnen", "atreides")
    assert of_kind(events, "card_won")[0]["paid_to"] is None
    assert state.spice_bank == bank + 4 and state.factions[F.EMPEROR].spice == 6


def test_the_opening_rotates_in_storm_order() -> None:
    """1.04.07: card 2 opens with the first player able to bid after card 1's opener."""
    state = bidding()
    act(state, "harkonnen", "bid", amount=1)
    events = passes(state, "atreides", "emperor")
    assert of_kind(events, "auction_opened")[0]["opener"] == "atreides"
    act(state, "atreides", "bid", amount=1)
    events = passes(state, "emperor", "harkonnen")
    assert of_kind(events, "auction_opened")[0]["opener"] == "emperor"


def test_a_pass_is_not_final_by_default() -> None:
    """1.04.06 (old FAQ Q4): a player who passed bids again when its turn comes round."""
    state = bidding()
    act(state, "harkonnen", "pass")
    act(state, "atreides", "bid", amount=2)
    act(state, "emperor", "bid", amount=3)
    assert state.waiting_on() == (F.HARKONNEN,)
    act(state, "harkonnen", "bid", amount=4)
    assert auction(state).high_bidder is F.HARKONNEN


def test_with_the_switch_a_pass_is_final_on_that_card() -> None:
    """``bid_pass_final`` (old FAQ Q4 for slow tables): a pass is final on the card."""
    state = bidding(variants={"bid_pass_final": True})
    act(state, "harkonnen", "pass")
    act(state, "atreides", "bid", amount=2)
    act(state, "emperor", "bid", amount=3)
    assert state.waiting_on() == (F.ATREIDES,)
    events = act(state, "atreides", "pass")
    assert of_kind(events, "card_won")[0]["faction"] == "emperor"
    assert auction(state).number == 2 and auction(state).passed == ()


def test_only_a_full_hand_is_skipped_a_player_without_spice_is_asked() -> None:
    """1.04.03: a full hand (a public count) cannot bid and is passed by; spice and cards
    are secret, so a player who cannot raise is asked like anyone (its only answer is a
    pass): whom the auction asks never tells what it holds (docs/secrets-and-waits.md)."""
    state = bidding(
        seats=["harkonnen", "atreides", "emperor", "fremen"],
        factions={
            "harkonnen": {"spice": 0},
            "atreides": {"cards": ("Kulon",) * 4},
            "emperor": {"spice": 2},
        },
    )
    assert auction(state).opener is F.HARKONNEN  # no spice, asked; Atreides: full hand
    assert len(auction(state).cards) == 3
    assert list(state.legal_actions(F.HARKONNEN)) == [Pass(F.HARKONNEN)]
    refused(state, IllegalActionError, "1.04.06.03", "harkonnen", "bid", amount=1)
    act(state, "harkonnen", "pass")
    assert state.waiting_on() == (F.EMPEROR,)
    act(state, "emperor", "bid", amount=2)
    assert state.waiting_on() == (F.FREMEN,)
    act(state, "fremen", "bid", amount=3)
    assert state.waiting_on() == (F.HARKONNEN,)  # asked again: a pass is not final
    passes(state, "harkonnen", "emperor")  # the Emperor holds 2: it can only pass
    assert bids(state.whole).auction is not None and auction(state).number == 2
    assert state.factions[F.FREMEN].cards == ("Lasgun",)


@pytest.mark.parametrize("card", ["Karama", "Kulon"])
def test_a_karama_in_hand_changes_nothing_in_whom_the_auction_asks(card: str) -> None:
    """The issue's demo: "Atreides bids 5. Emperor bids 6." with the Fremen skipped told
    everyone they held no Karama. Now the Fremen are asked whatever they hold."""
    state = bidding(
        seats=["atreides", "fremen", "emperor"],
        factions={"fremen": {"spice": 3, "cards": (card,)}},
    )
    asked = [state.waiting_on()]
    act(state, "atreides", "bid", amount=5)
    asked.append(state.waiting_on())
    act(state, "fremen", "pass")
    asked.append(state.waiting_on())
    assert asked == [(F.ATREIDES,), (F.FREMEN,), (F.EMPEROR,)]


def test_everyone_passing_sends_the_cards_back_on_top_in_order() -> None:
    """1.04.09: bought in: that card and the rest go back on top of the deck in the order
    they were laid out, and the phase ends."""
    state = bidding()
    act(state, "harkonnen", "bid", amount=1)
    passes(state, "atreides", "emperor")  # card 1 sold
    events = passes(state, "atreides", "emperor", "harkonnen")
    assert of_kind(events, "cards_returned") == [{"type": "cards_returned", "count": 2}]
    assert state.whole.treachery_deck[:3] == ("Shield", "Snooper", "Kulon")  # Chaumas: free
    assert state.game_phase is GamePhase.SHIPMENT_MOVEMENT and bids(state.whole).auction is None


# -- 2.05.08: the Harkonnen's free card ---------------------------------------------------


@pytest.mark.parametrize(("held", "free"), [(0, 1), (6, 1), (7, 0)])
def test_the_harkonnen_draw_a_free_card_unless_past_eight(held: int, free: int) -> None:
    """2.05.08: each purchase brings one more card from the deck, never past 8."""
    state = bidding(factions={"harkonnen": {"cards": ("Kulon",) * held}})
    act(state, "harkonnen", "bid", amount=1)
    events = passes(state, "atreides", "emperor")
    won = [e["rule"] for e in of_kind(events, "card_won")]
    assert won == ["1.04.06.02"] + ["2.05.08"] * free
    assert len(state.factions[F.HARKONNEN].cards) == held + 1 + free <= 8


# -- Karama (3.01.11.04, D11) -------------------------------------------------------------


def test_a_karama_takes_the_card_on_offer_free() -> None:
    """3.01.11.04 (a): the Karama is discarded, nobody is paid; the Harkonnen still draw
    their free card (2.05.08, as treachery.online)."""
    state = bidding(factions={"harkonnen": {"cards": ("Karama",)}})
    act(state, "atreides", "record_card", price=0)  # a correction: the auction stays
    events = act(state, "harkonnen", "karama_buy")
    assert types(events)[:3] == ["card_discarded", "card_won", "card_won"]
    assert of_kind(events, "card_won")[0] == {
        "type": "card_won",
        "faction": "harkonnen",
        "price": 0,
        "paid_to": None,
        "rule": "3.01.11.04",
        "ally": None,
        "ally_paid": 0,
    }
    assert state.factions[F.HARKONNEN].cards == ("Lasgun", "Kulon")
    assert state.whole.treachery_discard == ("Karama",)
    assert auction(state).number == 2


@pytest.mark.parametrize(("mode", "paid"), [("free", 0), ("pay", 10)])
def test_a_karama_bid_beyond_ones_spice(mode: str, paid: int) -> None:
    """3.01.11.04 (b), D11: "free" (treachery.online) wins the card free; "pay" pays what
    the bidder holds up to the bid. The Karama is discarded only when the bid wins."""
    state = bidding(
        factions={"atreides": {"cards": ("Karama",)}, "emperor": {"spice": 30}},
        variants={"karama_bid": mode},
    )
    act(state, "harkonnen", "bid", amount=5)
    refused(state, IllegalActionError, "1.04.06.03", "atreides", "bid", amount=15)
    events = act(state, "atreides", "bid", amount=15, karama=True)
    assert of_kind(events, "bid_made") == [
        {"type": "bid_made", "faction": "atreides", "amount": 15}
    ]
    shown = state.public_view().to_dict()["game"]["auction"]
    assert (shown["high_bid"], shown["high_bidder"]) == (15, "atreides")
    assert "karama" not in json.dumps(shown) and "Karama" not in json.dumps(shown)
    events = passes(state, "emperor", "harkonnen")  # the Harkonnen cannot raise 15: asked
    won = of_kind(events, "card_won")[0]
    assert (won["price"], won["rule"]) == (paid, "3.01.11.04")
    assert state.factions[F.ATREIDES].spice == 10 - paid
    assert state.factions[F.ATREIDES].cards == ("Lasgun",)


def test_a_karama_bid_outbid_keeps_the_karama() -> None:
    state = bidding(factions={"atreides": {"cards": ("Karama",)}, "emperor": {"spice": 30}})
    act(state, "harkonnen", "pass")
    act(state, "atreides", "bid", amount=12, karama=True)
    act(state, "emperor", "bid", amount=13)
    passes(state, "harkonnen", "atreides")  # the Harkonnen cannot raise 13: asked alike
    assert state.factions[F.ATREIDES].cards == ("Karama",)
    assert state.factions[F.EMPEROR].cards == ("Lasgun",)


def test_the_advanced_bene_gesserit_use_a_worthless_card_as_karama() -> None:
    """2.02.22: any worthless card works as a Karama (advanced game)."""
    state = bidding(
        seats=["bene_gesserit", "atreides"],
        advanced=True,
        factions={"bene_gesserit": {"cards": ("Baliset",)}},
    )
    events = act(state, "bene_gesserit", "karama_buy")
    assert of_kind(events, "card_discarded")[0]["card"] == "Baliset"
    basic = bidding(
        seats=["bene_gesserit", "atreides"], factions={"bene_gesserit": {"cards": ("Baliset",)}}
    )
    refused(basic, IllegalActionError, "3.01.11.04", "bene_gesserit", "karama_buy")


def test_a_full_hand_cannot_use_karama_to_buy() -> None:
    """3.01.11.04: not allowed for a player with a full hand."""
    state = bidding(factions={"atreides": {"cards": ("Karama",) * 4}})
    refused(state, IllegalActionError, "3.01.11.04", "atreides", "karama_buy")
    refused(state, IllegalActionError, "3.01.11.04", "atreides", "bid", amount=1, karama=True)


# -- allies (1.10.02.04) and the Emperor's gift (2.03.06) -----------------------------------


def test_an_ally_commitment_raises_the_bid_limit_and_pays_after_the_bidders_own() -> None:
    """1.10.02.04: the bidder's own spice pays first, the ally's commitment the rest; the
    Emperor receives it all (2.03.04)."""
    state = bidding(
        seats=["harkonnen", "atreides", "emperor", "fremen"],
        alliances=[["atreides", "fremen"]],
        factions={"atreides": {"spice": 2}},
    )
    act(state, "harkonnen", "pass")
    refused(state, IllegalActionError, "1.04.06.03", "atreides", "bid", amount=5)
    assert types(act(state, "fremen", "support_bids", amount=4)) == ["bids_supported"]
    assert auction_secrets(state.view_for(F.ATREIDES).secrets).bid_support == 4  # type: ignore[arg-type]
    refused(state, IllegalActionError, "1.04.06.03", "atreides", "bid", amount=7)
    act(state, "atreides", "bid", amount=5)
    passes(state, "emperor", "fremen", "harkonnen")
    spice = {f: state.factions[f].spice for f in (F.ATREIDES, F.FREMEN, F.EMPEROR)}
    assert spice == {F.ATREIDES: 0, F.FREMEN: 7, F.EMPEROR: 15}
    assert bids(state.whole).bid_support == {F.FREMEN: 1}


@pytest.mark.parametrize(
    ("faction", "amount", "error", "rule"),
    [
        ("harkonnen", 1, IllegalActionError, "1.10.02.04"),  # no ally
        ("fremen", 11, IllegalActionError, "1.10.02.04"),  # more than it holds
        ("fremen", -1, InvalidActionError, "1.10.02.04"),
    ],
)
def test_support_refusals(faction: str, amount: int, error: type, rule: str) -> None:
    state = bidding(seats=["harkonnen", "atreides", "fremen"], alliances=[["atreides", "fremen"]])
    refused(state, error, rule, faction, "support_bids", amount=amount)


def test_a_commitment_cannot_be_withdrawn_under_a_standing_bid() -> None:
    state = bidding(
        seats=["atreides", "fremen", "harkonnen"],
        alliances=[["atreides", "fremen"]],
        factions={"atreides": {"spice": 1}},
    )
    act(state, "fremen", "support_bids", amount=5)
    act(state, "atreides", "bid", amount=6)
    refused(state, IllegalActionError, "1.10.02.04", "fremen", "support_bids", amount=0)


def test_the_emperor_gives_spice_to_its_ally_any_time() -> None:
    """2.03.06: any time (here in the auction, out of turn); the amount stays secret."""
    state = bidding(alliances=[["emperor", "atreides"]])
    total = spice_total(state)
    events = act(state, "emperor", "give_spice", amount=4)
    assert [e.to_dict() for e in events] == [
        {"type": "spice_given", "faction": "emperor", "to": "atreides"}
    ]
    assert (state.factions[F.EMPEROR].spice, state.factions[F.ATREIDES].spice) == (6, 14)
    assert state.waiting_on() == (F.HARKONNEN,) and spice_total(state) == total
    refused(state, IllegalActionError, "2.03.06", "atreides", "give_spice", amount=1)
    refused(state, IllegalActionError, "2.03.06", "emperor", "give_spice", amount=7)
    refused(state, InvalidActionError, "2.03.06", "emperor", "give_spice", amount=0)
    alone = game_at("revival", seats=THREE)
    refused(alone, IllegalActionError, "2.03.06", "emperor", "give_spice", amount=1)
    allied = game_at("revival", seats=THREE, alliances=[["emperor", "harkonnen"]])
    act(allied, "emperor", "give_spice", amount=1)  # in another phase too
    assert allied.factions[F.HARKONNEN].spice == 11


def test_no_gift_while_a_faction_ability_is_being_resolved() -> None:
    """1.00.05: with a Shipment & Movement prompt open (the Guild's timing), nobody acts."""
    state = game_at("shipment_movement", advanced=True, alliances=[["emperor", "atreides"]])
    assert state.phase.stages
    refused(state, NotYourTurnError, "1.00.05", "emperor", "give_spice", amount=1)


# -- the Harkonnen's Karama power (1.14.04) ----------------------------------------------


def harkonnen_karama(**kw: Any) -> GameState:
    return bidding(
        advanced=True,
        factions={
            "harkonnen": {"cards": ("Karama", "Lasgun")},
            "atreides": {"cards": ("Shield", "Chaumas")},
        },
        treachery_deck=("Kulon", "Baliset", "Crysknife", "Hajr"),
        **kw,
    )


def test_the_harkonnen_take_a_hand_and_give_back_as_many() -> None:
    """1.14.04: once a game, with a Karama; the bidder waits until the cards are given back."""
    state = harkonnen_karama()
    events = act(state, "harkonnen", "karama_take_hand", target="atreides")
    assert types(events) == ["karama_power", "hand_taken"]
    assert of_kind(events, "hand_taken")[0] == {
        "type": "hand_taken",
        "faction": "harkonnen",
        "target": "atreides",
        "count": 2,
    }
    assert state.whole.step == "give_back" and state.waiting_on() == (F.HARKONNEN,)
    refused(state, NotYourTurnError, "1.04", "harkonnen", "bid", amount=1)
    refused(
        state, IllegalActionError, "1.14.04", "harkonnen", "give_back_cards", cards="Karama, Lasgun"
    )
    refused(state, InvalidActionError, "1.14.04", "harkonnen", "give_back_cards", cards="Lasgun")
    refused(state, IllegalActionError, "1.14.04", "harkonnen", "karama_take_hand", target="emperor")
    with pytest.raises(IllegalActionError):  # the moderator cannot end the phase meanwhile
        state.apply(PhaseDone())
    events = act(state, "harkonnen", "give_back_cards", cards="lasgun, chaumas")
    assert of_kind(events, "cards_given_back")[0]["count"] == 2
    assert state.factions[F.HARKONNEN].cards == ("Shield",)
    assert sorted(state.factions[F.ATREIDES].cards) == ["Chaumas", "Lasgun"]
    assert state.whole.step == "auction" and state.waiting_on() == (F.HARKONNEN,)
    assert F.HARKONNEN in state.whole.karama_powers_used


@pytest.mark.parametrize(
    ("faction", "target", "fields", "error"),
    [
        ("atreides", "harkonnen", {}, IllegalActionError),  # not the Harkonnen
        ("harkonnen", "emperor", {}, IllegalActionError),  # an empty hand
        ("harkonnen", "nobody", {}, InvalidActionError),
        ("harkonnen", "harkonnen", {}, InvalidActionError),
        ("harkonnen", "atreides", {"advanced": False}, IllegalActionError),  # basic game
        ("harkonnen", "atreides", {"used": True}, IllegalActionError),  # once a game
    ],
)
def test_take_hand_refusals(faction: str, target: str, fields: dict[str, Any], error: type) -> None:
    extra: dict[str, Any] = {}
    if fields.get("used"):
        extra["karama_powers_used"] = frozenset({F.HARKONNEN})
    state = bidding(
        advanced=fields.get("advanced", True),
        factions={
            "harkonnen": {"cards": ("Karama",)},
            "atreides": {"cards": ("Karama", "Shield")},
        },
        **extra,
    )
    refused(state, error, "1.14.04", faction, "karama_take_hand", target=target)


# -- hidden information and the views ----------------------------------------------------


def test_only_the_atreides_see_the_card_on_offer() -> None:
    """2.01.05: privately, before anyone bids; the public sees counts and bids only."""
    state = bidding()
    secrets = state.view_for(F.ATREIDES).secrets
    assert secrets is not None and auction_secrets(secrets).card_on_offer == "Lasgun"
    other = state.view_for(F.EMPEROR).secrets
    assert other is not None and auction_secrets(other).card_on_offer is None
    public = state.public_view().to_dict()
    assert public["game"]["auction"] == {
        "number": 1,
        "of": 3,
        "opener": "harkonnen",
        "bidder": "harkonnen",
        "high_bid": 0,
        "high_bidder": None,
        "passed": [],
    }
    text = json.dumps(public)
    assert not any(f'"{card}"' in text for card in DECK)


def test_the_auction_survives_to_dict_and_from_dict() -> None:
    state = bidding(
        alliances=[["emperor", "atreides"]], factions={"atreides": {"cards": ("Karama",)}}
    )
    act(state, "harkonnen", "bid", amount=2)
    act(state, "atreides", "bid", amount=14, karama=True)
    act(state, "emperor", "support_bids", amount=3)
    game = state.whole
    assert TurnState.from_dict(json.loads(json.dumps(game.to_dict()))) == game
    assert GameState.from_dict(state.to_dict()).to_dict() == state.to_dict()


def test_the_33_cards_stay_somewhere_exactly_once() -> None:
    deck = tuple(treachery_deck())
    state = bidding(treachery_deck=deck)
    act(state, "harkonnen", "bid", amount=1)
    passes(state, "atreides", "emperor")
    assert sorted(cards_in_play(state).elements()) == sorted(deck)


# -- the moderator ------------------------------------------------------------------------


def test_phase_done_ends_the_auction_with_the_cards_back_on_top() -> None:
    state = bidding()
    act(state, "harkonnen", "bid", amount=1)
    events = state.apply(PhaseDone())
    assert types(events)[0] == "cards_returned"
    assert state.whole.treachery_deck[:3] == ("Lasgun", "Shield", "Snooper")
    assert state.factions[F.HARKONNEN].spice == 10
    assert state.game_phase is GamePhase.SHIPMENT_MOVEMENT  # past a revival with no choice


def test_a_recorded_card_does_not_move_the_auction_nor_go_to_the_high_bidder() -> None:
    state = bidding()
    act(state, "harkonnen", "bid", amount=1)
    refused(state, IllegalActionError, "1.04.06.02", "harkonnen", "record_card", price=1)
    act(state, "emperor", "record_card", price=1)
    assert state.waiting_on() == (F.ATREIDES,) and auction(state).high_bid == 1


def test_a_bidder_whose_hand_a_record_fills_is_skipped() -> None:
    state = bidding(factions={"atreides": {"cards": ("Kulon",) * 3}})
    act(state, "harkonnen", "bid", amount=1)
    act(state, "atreides", "record_card", price=0)
    assert state.waiting_on() == (F.EMPEROR,)


# -- refusals, table-driven ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("faction", "action", "fields", "error", "rule"),
    [
        ("atreides", "bid", {"amount": 1}, NotYourTurnError, "1.04.05"),
        ("atreides", "pass", {}, NotYourTurnError, "1.04.05"),
        ("harkonnen", "bid", {"amount": 0}, InvalidActionError, "1.04.06.01"),
        ("harkonnen", "bid", {"amount": 10**12}, InvalidActionError, "1.04.06.01"),
        ("harkonnen", "bid", {"amount": 11}, IllegalActionError, "1.04.06.03"),
        ("harkonnen", "bid", {"amount": 11, "karama": True}, IllegalActionError, "3.01.11.04"),
        ("harkonnen", "karama_buy", {}, IllegalActionError, "3.01.11.04"),
        ("emperor", "support_bids", {"amount": 1}, IllegalActionError, "1.10.02.04"),
        ("harkonnen", "give_back_cards", {"cards": "x" * 300}, NotYourTurnError, "1.14.04"),
        ("fremen", "bid", {"amount": 1}, NotYourTurnError, "1.06.00"),
    ],
)
def test_refusals_cite_their_rule_and_change_nothing(
    faction: str, action: str, fields: dict[str, Any], error: type, rule: str
) -> None:
    state = bidding()
    refusal = refused(state, error, rule, faction, action, **fields)
    assert len(refusal.message) < 300


def test_a_raise_must_beat_the_high_bid() -> None:
    state = bidding()
    act(state, "harkonnen", "bid", amount=3)
    error = refused(state, IllegalActionError, "1.04.06", "atreides", "bid", amount=3)
    assert "3" in error.message


def test_a_long_input_is_quoted_short() -> None:
    state = harkonnen_karama()
    act(state, "harkonnen", "karama_take_hand", target="atreides")
    error = refused(
        state, InvalidActionError, "1.14.04", "harkonnen", "give_back_cards", cards="y" * 500
    )
    assert "y" * 80 not in error.message and "…" in error.message
    fresh = harkonnen_karama()
    error = refused(
        fresh, InvalidActionError, "1.14.04", "harkonnen", "karama_take_hand", target="z" * 500
    )
    assert "z" * 80 not in error.message and "…" in error.message


def test_nothing_but_the_bidding_actions_in_the_phase() -> None:
    state = bidding()
    refused(state, NotYourTurnError, "1.04", "harkonnen", "claim_charity")
    refused(state, NotYourTurnError, "1.04", "harkonnen", "revive", forces=1)
    other = game_at("revival", seats=THREE, factions={"harkonnen": {"tanks": 5}})
    refused(other, NotYourTurnError, "1.05", "harkonnen", "bid", amount=1)


# -- choices and defaults ------------------------------------------------------------------


def test_the_bidder_is_offered_pass_and_useful_raises_only() -> None:
    state = bidding(factions={"harkonnen": {"spice": 4, "cards": ("Karama",)}})
    act(state, "atreides", "record_card", price=0)
    legal = list(state.legal_actions(F.HARKONNEN))
    assert Pass(F.HARKONNEN) in legal and Bid(F.HARKONNEN, 1) in legal
    assert Bid(F.HARKONNEN, 4) in legal and Bid(F.HARKONNEN, 5) not in legal
    assert KaramaBuy(F.HARKONNEN) in legal and Bid(F.HARKONNEN, 5, karama=True) in legal
    assert all(state.is_legal(a) for a in legal)
    assert not any(isinstance(a, Bid | Pass) for a in state.legal_actions(F.EMPEROR))


def test_the_default_on_a_deadline_is_pass() -> None:
    state = bidding()
    assert default_action(state, F.HARKONNEN) == Pass(F.HARKONNEN)
    assert default_action(state, F.ATREIDES) is None


def test_the_default_give_back_returns_the_cards_taken() -> None:
    state = harkonnen_karama()
    act(state, "harkonnen", "karama_take_hand", target="atreides")
    chosen = default_action(state, F.HARKONNEN)
    assert chosen == GiveBackCards(F.HARKONNEN, "Shield, Chaumas")
    state.apply(chosen)
    assert state.factions[F.ATREIDES].cards == ("Shield", "Chaumas")


def test_the_emperor_paying_for_its_allys_card_pays_the_bank_not_itself() -> None:
    """2.03.04 with 1.10.02.04: the Atreides pay their 2 to the Emperor, the Emperor's
    commitment pays the other 3 to the bank; the event says so (it named the Emperor as
    receiving the whole price)."""
    state = bidding(alliances=[["emperor", "atreides"]], factions={"atreides": {"spice": 2}})
    act(state, "emperor", "support_bids", amount=5)
    act(state, "harkonnen", "pass")
    act(state, "atreides", "bid", amount=5)
    events = passes(state, "emperor", "harkonnen")
    (won,) = [e for e in events if isinstance(e, CardWon)]
    assert won.to_dict() == {
        "type": "card_won",
        "faction": "atreides",
        "price": 5,
        "paid_to": "emperor",
        "rule": "1.04.06.02",
        "ally": "emperor",
        "ally_paid": 3,
    }
    assert won.received == 2
    assert (state.factions[F.ATREIDES].spice, state.factions[F.EMPEROR].spice) == (0, 9)


def test_the_emperors_card_paid_in_part_by_its_ally_pays_the_emperor_that_part() -> None:
    state = bidding(alliances=[["emperor", "atreides"]], factions={"emperor": {"spice": 1}})
    act(state, "atreides", "support_bids", amount=4)
    passes(state, "harkonnen", "atreides")
    events = act(state, "emperor", "bid", amount=3)
    events += passes(state, "harkonnen", "atreides")
    (won,) = [e for e in events if isinstance(e, CardWon)]
    assert (won.paid_to, won.ally, won.ally_paid, won.received) == (F.EMPEROR, F.ATREIDES, 2, 2)
    assert (state.factions[F.EMPEROR].spice, state.factions[F.ATREIDES].spice) == (2, 8)


def test_allies_are_offered_a_commitment() -> None:
    state = bidding(alliances=[["emperor", "atreides"]])
    assert SupportBids(F.EMPEROR, 10) in list(state.legal_actions(F.EMPEROR))


def test_undo_steps_back_through_the_auction_exactly() -> None:
    state = bidding(factions={"atreides": {"cards": ("Karama",)}})
    snapshots = [state.to_dict()]
    for faction, action, fields in [
        ("harkonnen", "bid", {"amount": 2}),
        ("atreides", "karama_buy", {}),
        ("atreides", "bid", {"amount": 1}),
        ("emperor", "pass", {}),
    ]:
        act(state, faction, action, **fields)
        snapshots.append(state.to_dict())
    for expected in reversed(snapshots[:-1]):
        state.undo()
        assert state.to_dict() == expected


# -- properties over random auctions -------------------------------------------------------

SIX = ["harkonnen", "spacing_guild", "atreides", "fremen", "emperor", "bene_gesserit"]
ALL_CARDS = tuple(treachery_deck())
PREVENTABLE = ("atreides_bidding", "emperor_payment", "top_card")  # a Karama ahead (K1)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_auctions_keep_cards_spice_and_hand_limits(data: st.DataObject) -> None:
    """Random holdings, alliances, switches, Karamas played ahead (reading K1) and legal
    choices (junk probes between them):
    each of the 33 cards is somewhere exactly once (deck, discard, hands, on offer), spice
    is conserved with the bank, no hand passes its limit, a refusal changes nothing, and
    the phase ends."""
    deck = list(data.draw(st.permutations(ALL_CARDS)))
    holdings: dict[str, dict[str, Any]] = {}
    for name in SIX:
        count = data.draw(st.integers(0, 8 if name == "harkonnen" else 4))
        holdings[name] = {"spice": data.draw(st.integers(0, 12)), "cards": tuple(deck[:count])}
        del deck[:count]
    pair = data.draw(st.sampled_from([None, ("emperor", "atreides"), ("fremen", "harkonnen")]))
    state = game_at(
        "bidding",
        factions=holdings,
        treachery_deck=tuple(deck),
        alliances=[list(pair)] if pair else [],
        advanced=data.draw(st.booleans()),
        variants={
            "bid_pass_final": data.draw(st.booleans()),
            "karama_bid": data.draw(st.sampled_from(["free", "pay"])),
        },
        prevented=frozenset(data.draw(st.sets(st.sampled_from(PREVENTABLE)))),
    )
    total = spice_total(state)
    for _ in range(400):
        assert sorted(cards_in_play(state).elements()) == sorted(ALL_CARDS)
        assert spice_total(state) == total
        for faction, own in state.factions.items():
            giving_back = faction is F.HARKONNEN and state.whole.step == "give_back"
            assert giving_back or len(own.cards) <= hand_limit(faction)
        if state.game_phase is not GamePhase.BIDDING:
            break
        junk = data.draw(
            st.sampled_from(
                [
                    Bid(F.FREMEN, 10**6),
                    Bid(F.EMPEROR, 0),
                    KaramaBuy(F.ATREIDES),
                    Pass(F.SPACING_GUILD),
                    GiveBackCards(F.HARKONNEN, "Lasgun"),
                    SupportBids(F.FREMEN, 99),
                ]
            )
        )
        if not state.is_legal(junk):
            before = state.to_dict()
            with pytest.raises(RulesError):
                state.apply(junk)
            assert state.to_dict() == before
        waiting = state.waiting_on()
        assert len(waiting) == 1
        options = list(state.legal_actions(waiting[0]))
        assert options and all(state.is_legal(a) for a in options)
        state.apply(data.draw(st.sampled_from(options)))
    assert state.game_phase is not GamePhase.BIDDING
