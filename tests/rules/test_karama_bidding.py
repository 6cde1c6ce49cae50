"""A Karama played ahead against the Bidding and Revival phases' ✷ abilities (3.01.11.02,
reading K1): the Atreides' look at the cards (2.01.05), the Emperor's payment for cards
(2.03.04), the Harkonnen's top card (2.05.08) and the Emperor's payment for its ally's
revival (2.03.07). Each is stopped at its next use, once, and said so; the refusals cite
their rule and change nothing; cards and spice are conserved; undo and replay are exact."""

from __future__ import annotations

from typing import Any

import pytest

from rules.actions import Pass, action_from_dict, action_to_dict
from rules.bidding.auction import cards_in_play
from rules.bidding.model import bids
from rules.bidding.view import auction_secrets
from rules.components import treachery_deck
from rules.errors import IllegalActionError
from rules.events import Event
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from tests.rules.game_helpers import DECK, game_at, of_kind, spice_total, types
from tests.rules.helpers import act, parse
from tests.rules.refusal import refused

F = Faction
THREE = ["harkonnen", "atreides", "emperor"]  # storm order from sector 18: H, A, E
KARAMA = {"cards": ("Karama",)}


def bidding(**kw: Any) -> GameState:
    kw.setdefault("treachery_deck", DECK)
    kw.setdefault("seats", THREE)
    return game_at("bidding", **kw)


def seen(state: GameState) -> str | None:
    secrets = state.view_for(F.ATREIDES).secrets
    assert secrets is not None
    return auction_secrets(secrets).card_on_offer


def stopped(events: list[Event]) -> list[tuple[str, str, str]]:
    return [(e["faction"], e["ability"], e["rule"]) for e in of_kind(events, "ability_stopped")]


def sell(state: GameState, buyer: str, price: int) -> list[Event]:
    """The card on offer to ``buyer`` for ``price``: it bids, everyone else passes."""
    events: list[Event] = []
    while not any(e.kind == "card_won" for e in events):
        bidder = state.waiting_on()[0]
        if bidder is F(buyer):
            events += act(state, buyer, "bid", amount=price)
        else:
            events += act(state, bidder.value, "pass")
    return events


# -- the Atreides' look at the cards (2.01.05) --------------------------------------------


def test_the_atreides_do_not_see_the_next_card_laid_out_and_see_the_one_after() -> None:
    """Played while card 1 is on offer (the Atreides have seen it): card 2 is the one they
    do not see; card 3 they see again (the Karama is spent)."""
    state = bidding(factions={"emperor": KARAMA})
    assert seen(state) == "Lasgun"
    events = act(state, "emperor", "karama_prevent", ability="atreides_bidding")
    assert of_kind(events, "karama_prevent")[0]["rule"] == "2.01.05"
    assert seen(state) == "Lasgun"  # already seen as it came up
    events = sell(state, "harkonnen", 1)
    assert stopped(events) == [("atreides", "atreides_bidding", "2.01.05")]
    assert types(events).index("ability_stopped") < types(events).index("auction_opened")
    assert bids(state.whole).auction is not None and bids(state.whole).auction.number == 2
    assert seen(state) is None and state.whole.prevented == frozenset()
    events = sell(state, "emperor", 1)
    assert stopped(events) == [] and seen(state) == "Snooper"


def test_a_karama_played_before_the_phase_hides_its_first_card() -> None:
    state = bidding(prevented=frozenset({"atreides_bidding"}))
    assert stopped(state.start_events) == [("atreides", "atreides_bidding", "2.01.05")]
    assert seen(state) is None
    assert state.public_view().to_dict()["game"]["auction"]["number"] == 1
    sell(state, "harkonnen", 1)
    assert seen(state) == "Shield"


def test_no_card_on_offer_uses_nothing() -> None:
    """Every hand full: no card comes up, the Karama waits for the next one."""
    full = {"cards": ("Kulon",) * 4}
    state = game_at(
        "bidding",
        seats=["atreides", "emperor"],
        treachery_deck=DECK,
        factions={"atreides": full, "emperor": full},
        prevented=frozenset({"atreides_bidding"}),
    )
    assert stopped(state.start_events) == []
    assert state.whole.prevented == frozenset({"atreides_bidding"})


# -- the Emperor's payment for cards (2.03.04) --------------------------------------------


def test_the_next_payment_to_the_emperor_goes_to_the_bank_once() -> None:
    state = bidding(factions={"atreides": KARAMA})
    total, bank = spice_total(state), state.spice_bank
    act(state, "atreides", "karama_prevent", ability="emperor_payment")
    events = sell(state, "harkonnen", 3)
    assert stopped(events) == [("emperor", "emperor_payment", "2.03.04")]
    assert types(events).index("ability_stopped") < types(events).index("card_won")
    assert of_kind(events, "card_won")[0]["paid_to"] is None
    assert state.factions[F.EMPEROR].spice == 10 and state.spice_bank == bank + 3
    events = sell(state, "atreides", 2)  # the next one pays the Emperor again
    assert stopped(events) == [] and of_kind(events, "card_won")[0]["paid_to"] == "emperor"
    assert state.factions[F.EMPEROR].spice == 12
    assert spice_total(state) == total and state.whole.prevented == frozenset()


def test_the_emperors_own_purchase_and_a_card_taken_with_karama_leave_it_waiting() -> None:
    """The Emperor's own purchase pays the bank anyway and a card taken with Karama pays
    nobody: no payment would reach the Emperor, so the Karama waits for one."""
    state = bidding(factions={"atreides": KARAMA, "harkonnen": KARAMA})
    act(state, "atreides", "karama_prevent", ability="emperor_payment")
    events = sell(state, "emperor", 4)
    assert of_kind(events, "card_won")[0]["paid_to"] is None and stopped(events) == []
    assert state.waiting_on() == (F.ATREIDES,)  # card 2 opens with the Atreides
    events = act(state, "atreides", "pass") + act(state, "emperor", "pass")
    events += act(state, "harkonnen", "karama_buy")
    assert of_kind(events, "card_won")[0]["price"] == 0 and stopped(events) == []
    assert state.whole.prevented == frozenset({"emperor_payment"})


def test_the_allys_share_of_a_bid_goes_to_the_bank_too() -> None:
    """1.10.02.04: the Harkonnen pay their 2, their ally the Atreides the other 4; the whole
    payment for the card is the Emperor's ability stopped."""
    state = bidding(
        factions={"atreides": KARAMA, "harkonnen": {"spice": 2}},
        alliances=[["harkonnen", "atreides"]],
    )
    total = spice_total(state)
    act(state, "atreides", "karama_prevent", ability="emperor_payment")
    act(state, "atreides", "support_bids", amount=5)
    events = sell(state, "harkonnen", 6)
    assert stopped(events) == [("emperor", "emperor_payment", "2.03.04")]
    spice = {f: state.factions[f].spice for f in (F.HARKONNEN, F.ATREIDES, F.EMPEROR)}
    assert spice == {F.HARKONNEN: 0, F.ATREIDES: 6, F.EMPEROR: 10}
    assert spice_total(state) == total


# -- the Harkonnen's top card (2.05.08) ---------------------------------------------------


def test_the_harkonnen_draw_no_free_card_with_their_next_purchase_only() -> None:
    state = bidding(factions={"emperor": KARAMA})
    act(state, "emperor", "karama_prevent", ability="top_card")
    events = sell(state, "harkonnen", 1)
    assert stopped(events) == [("harkonnen", "top_card", "2.05.08")]
    assert types(events).index("card_won") < types(events).index("ability_stopped")
    assert len(of_kind(events, "card_won")) == 1
    assert state.factions[F.HARKONNEN].cards == ("Lasgun",)
    assert state.whole.treachery_deck == DECK[3:]  # nothing drawn
    sell(state, "atreides", 1)
    events = sell(state, "harkonnen", 1)
    assert stopped(events) == [] and len(of_kind(events, "card_won")) == 2
    assert state.factions[F.HARKONNEN].cards == ("Lasgun", "Snooper", "Chaumas")


def test_a_purchase_that_fills_the_harkonnen_hand_uses_nothing() -> None:
    """2.05.08: no free card past 8; the Karama waits for a purchase that would draw one."""
    state = bidding(
        factions={"emperor": KARAMA, "harkonnen": {"cards": ("Kulon",) * 7}},
    )
    act(state, "emperor", "karama_prevent", ability="top_card")
    events = sell(state, "harkonnen", 1)
    assert stopped(events) == [] and len(state.factions[F.HARKONNEN].cards) == 8
    assert state.whole.prevented == frozenset({"top_card"})


def test_the_advanced_bene_gesserit_stop_the_top_card_with_a_worthless_card() -> None:
    """2.02.22 (advanced): any worthless card serves as a Karama; not in the basic game."""
    seats = ["harkonnen", "atreides", "emperor", "bene_gesserit"]
    hand = {"bene_gesserit": {"cards": ("Baliset",)}}
    basic = bidding(seats=seats, factions=hand)
    refused(
        basic, IllegalActionError, "3.01.11", "bene_gesserit", "karama_prevent",
        ability="top_card", card="Baliset",
    )  # fmt: skip
    state = bidding(seats=seats, factions=hand, advanced=True)
    events = act(state, "bene_gesserit", "karama_prevent", ability="top_card", card="Baliset")
    assert of_kind(events, "karama_prevent")[0]["card"] == "Baliset"
    assert state.factions[F.BENE_GESSERIT].cards == ()
    assert state.whole.treachery_discard[0] == "Baliset"
    events = sell(state, "harkonnen", 1)
    assert stopped(events) == [("harkonnen", "top_card", "2.05.08")]


# -- the Emperor's payment for its ally's revival (2.03.07) -------------------------------


def revival(**kw: Any) -> GameState:
    kw.setdefault("alliances", [["emperor", "atreides"]])
    return game_at("revival", **kw)


def test_the_emperor_is_not_asked_to_pay_for_its_ally_at_the_next_revival() -> None:
    state = revival(factions={"atreides": {"tanks": 8}}, prevented=frozenset({"ally_revival"}))
    assert stopped(state.start_events) == [("emperor", "ally_revival", "2.03.07")]
    assert state.waiting_on() == (F.ATREIDES,) and state.whole.prevented == frozenset()
    refused(state, IllegalActionError, "2.03.07", "emperor", "pay_ally_revival", forces=1)
    act(state, "atreides", "revive", forces=3)
    assert state.factions[F.ATREIDES].tanks == 5 and state.factions[F.EMPEROR].spice == 10
    assert state.game_phase is not GamePhase.REVIVAL


def test_a_revival_where_the_emperor_could_not_pay_uses_nothing() -> None:
    """The ally's own 3 bring back all it has: nothing beyond its limit to pay for."""
    state = revival(factions={"atreides": {"tanks": 3}}, prevented=frozenset({"ally_revival"}))
    assert stopped(state.start_events) == []
    assert state.whole.prevented == frozenset({"ally_revival"})


def test_a_karama_played_while_the_emperor_may_pay_stops_that_payment_at_once() -> None:
    state = revival(factions={"atreides": {"tanks": 8}, "harkonnen": KARAMA})
    assert set(state.waiting_on()) == {F.ATREIDES, F.EMPEROR}
    events = act(state, "harkonnen", "karama_prevent", ability="ally_revival")
    assert types(events)[:2] == ["karama_prevent", "ability_stopped"]
    assert state.waiting_on() == (F.ATREIDES,)  # the Emperor had nothing else to decide
    assert state.whole.prevented == frozenset()
    refused(state, IllegalActionError, "2.03.07", "emperor", "pay_ally_revival", forces=1)


# -- the Fremen's gift of 3 free revivals to their ally (2.04.11) -------------------------


def fremen_ally(tanks: int, **kw: Any) -> GameState:
    """The Atreides (2 free of their own) allied with the Fremen, no spice to pay more:
    asked all the same when more lies in the tanks (spice is secret), they take their free
    revival alone (a pass)."""
    factions = {"atreides": {"tanks": tanks, "spice": 0}} | kw.pop("factions", {})
    state = game_at("revival", alliances=[["fremen", "atreides"]], factions=factions, **kw)
    if F.ATREIDES in state.waiting_on():
        state.start_events = [*state.start_events, *state.apply(Pass(F.ATREIDES))]
    return state


def test_the_fremen_ally_revives_its_own_free_number_at_the_next_revival() -> None:
    state = fremen_ally(5, prevented=frozenset({"fremen_ally_revival"}))
    assert stopped(state.start_events) == [("fremen", "fremen_ally_revival", "2.04.11")]
    revived = [e for e in of_kind(state.start_events, "revived") if e["faction"] == "atreides"]
    assert [e["forces"] for e in revived] == [2]  # its own 2, not the Fremen's 3
    assert state.factions[F.ATREIDES].tanks == 3 and state.whole.prevented == frozenset()


def test_the_gift_is_back_the_turn_after() -> None:
    state = fremen_ally(5, prevented=frozenset({"fremen_ally_revival"}))
    again = GameState.from_dict(state.to_dict())
    assert again.whole.fremen_gift_stopped  # kept for the rest of this turn
    following = fremen_ally(5)  # a new Revival phase, nothing waiting
    assert not following.whole.fremen_gift_stopped
    assert following.factions[F.ATREIDES].tanks == 2


def test_an_ally_with_nobody_in_the_tanks_uses_nothing() -> None:
    state = fremen_ally(0, prevented=frozenset({"fremen_ally_revival"}))
    assert stopped(state.start_events) == []
    assert state.whole.prevented == frozenset({"fremen_ally_revival"})


def test_a_karama_after_the_ally_revived_waits_for_the_next_revival() -> None:
    """With the gift the ally's free revival is the turn's limit: it revives as the phase
    begins, so a Karama played later in the phase stops the next turn's gift."""
    state = fremen_ally(5, factions={"harkonnen": KARAMA, "bene_gesserit": {"tanks": 3}})
    assert state.factions[F.ATREIDES].tanks == 2 and state.waiting_on() == (F.BENE_GESSERIT,)
    events = act(state, "harkonnen", "karama_prevent", ability="fremen_ally_revival")
    assert stopped(events) == []
    assert state.whole.prevented == frozenset({"fremen_ally_revival"})


def test_the_fremen_may_not_stop_their_own_gift() -> None:
    state = fremen_ally(5, factions={"fremen": KARAMA, "atreides": {"tanks": 5, "spice": 10}})
    refused(
        state,
        IllegalActionError,
        "3.01.11",
        "fremen",
        "karama_prevent",
        ability="fremen_ally_revival",
    )


# -- refusals ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("faction", "ability", "phase", "hand", "waiting"),
    [
        ("atreides", "atreides_bidding", "bidding", ("Karama",), False),  # its own ability
        ("emperor", "emperor_payment", "bidding", ("Karama",), False),
        ("harkonnen", "top_card", "bidding", ("Karama",), False),
        ("emperor", "ally_revival", "revival", ("Karama",), False),
        ("atreides", "top_card", "bidding", (), False),  # no Karama
        ("atreides", "top_card", "bidding", ("Baliset",), False),  # worthless, not the BG
        ("atreides", "top_card", "bidding", ("Karama",), True),  # one waits already
    ],
)
def test_refusals_cite_the_karama_rule_and_change_nothing(
    faction: str, ability: str, phase: str, hand: tuple[str, ...], waiting: bool
) -> None:
    holdings: dict[str, dict[str, Any]] = {"atreides": {"tanks": 8}}
    holdings[faction] = {**holdings.get(faction, {}), "cards": hand}
    state = game_at(
        phase,
        treachery_deck=DECK,
        alliances=[["emperor", "atreides"]],
        factions=holdings,
        prevented=frozenset({ability}) if waiting else frozenset(),
    )
    assert state.game_phase.value == phase
    refused(state, IllegalActionError, "3.01.11", faction, "karama_prevent", ability=ability)


def test_a_karama_against_a_faction_not_in_the_game_is_refused() -> None:
    state = bidding(seats=["harkonnen", "atreides"], factions={"atreides": KARAMA})
    for ability in ("emperor_payment", "ally_revival"):
        error = refused(
            state, IllegalActionError, "3.01.11", "atreides", "karama_prevent", ability=ability
        )
        assert "Emperor" in error.message


# -- conservation, undo and replay --------------------------------------------------------


def test_cards_and_spice_are_conserved_with_every_prevention_waiting() -> None:
    deck = tuple(treachery_deck())
    state = bidding(
        treachery_deck=deck,
        prevented=frozenset({"atreides_bidding", "emperor_payment", "top_card"}),
    )
    total = spice_total(state)
    for buyer in ("harkonnen", "atreides", "emperor"):
        sell(state, buyer, 2)
        assert sorted(cards_in_play(state).elements()) == sorted(deck)
        assert spice_total(state) == total
    assert state.whole.prevented == frozenset()


PLAY = [
    ("emperor", "karama_prevent", {"ability": "top_card"}),
    ("atreides", "karama_prevent", {"ability": "emperor_payment"}),
    ("harkonnen", "bid", {"amount": 2}),
    ("atreides", "pass", {}),
    ("emperor", "pass", {}),
    ("atreides", "bid", {"amount": 1}),
]


def test_undo_and_replay_are_exact() -> None:
    def start() -> GameState:
        return bidding(factions={"emperor": KARAMA, "atreides": KARAMA})

    state = start()
    snapshots, said = [state.to_dict()], []
    for faction, action, fields in PLAY:
        said.append([e.to_dict() for e in act(state, faction, action, **fields)])
        snapshots.append(state.to_dict())
    assert any(e["type"] == "ability_stopped" for events in said for e in events)
    replay = start()
    for (faction, action, fields), events in zip(PLAY, said, strict=True):
        step = action_from_dict(action_to_dict(parse(faction, action, **fields)))
        assert [e.to_dict() for e in replay.apply(step)] == events
    assert replay.to_dict() == state.to_dict()
    assert GameState.from_dict(state.to_dict()).to_dict() == state.to_dict()
    for expected in reversed(snapshots[:-1]):
        state.undo()
        assert state.to_dict() == expected
