"""Standing orders' kinds: a phase declares its own in its place, the generic orders find it
by the engine's registry, and the stored form reads back unchanged."""

from __future__ import annotations

import pytest

from bot.orders import KINDS, OrderError, StandingOrders, order_words
from rules.bidding import orders as bidding_orders
from rules.choam_charity import orders as charity_orders
from rules.revival import orders as revival_orders
from rules.storm import orders as storm_orders

STORED = {
    "karama": "never",
    "advise": "ask",
    "intrusion": "ask",
    "guild_timing": "before:harkonnen",
    "charity": "claim",
    "dial": "ask",
    "nexus": "ask",
    "bidding": "up_to:5:2:3",
    "revival": "ask",
    "storm": "ask",
    "only_pass": "pass",
}
"""A faction's orders as the store kept them before the kinds were pluggable."""


def test_the_bidding_phase_declares_its_kind_in_its_own_place() -> None:
    assert KINDS["bidding"] is bidding_orders.ORDER
    assert list(KINDS)[-1] == "only_pass"  # the last resort last


def test_stored_orders_read_back_unchanged() -> None:
    orders = StandingOrders.from_dict(STORED)
    assert orders.bidding == "up_to:5:2:3"
    assert orders.get("guild_timing") == "before:harkonnen"
    assert orders.to_dict() == STORED
    assert StandingOrders.from_dict(orders.to_dict()) == orders
    assert orders == StandingOrders(
        karama="never",
        guild_timing="before:harkonnen",
        charity="claim",
        bidding="up_to:5:2:3",
        only_pass="pass",
    )


def test_charity_and_revival_declare_their_kinds_in_their_own_places() -> None:
    assert KINDS["charity"] is charity_orders.ORDER
    assert KINDS["revival"] is revival_orders.ORDER
    assert order_words("charity", "claim") == (
        "Charity: always claim it when you may (else decline it)"
    )
    assert order_words("revival", "free") == "Revival: free revival only (you are not asked)"
    assert StandingOrders(charity="pass", revival="free").lines() == [
        "Charity: never claim it (withdraw it: `/orders charity` order: “ask me each time”)",
        "Revival: free revival only (you are not asked) (withdraw it: `/orders revival` "
        "order: “ask me each time”)",
    ]


def test_a_withdrawn_order_is_no_order() -> None:
    assert StandingOrders(bidding="ask") == StandingOrders()
    assert StandingOrders().bidding == "ask"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"bidding": "up_to:5"}, "Bidding cannot be"),
        ({"charity": "always"}, "Charity cannot be"),
        ({"revival": "pass"}, "Revival cannot be"),
        ({"bribes": "never"}, "there is no standing order"),
    ],
)
def test_an_order_that_cannot_be_is_refused(data: dict[str, str], message: str) -> None:
    with pytest.raises(OrderError, match=message):
        StandingOrders.from_dict(data)


def test_a_bidding_order_in_words_with_the_command_that_withdraws_it() -> None:
    assert order_words("bidding", "pass:3") == (
        "Bidding: pass on every card of the turn 3 Bidding phase"
    )
    assert order_words("bidding", "up_to:0:2:1") == "Bidding: pass on card 1 of turn 2"
    assert StandingOrders(bidding="pass:3").lines() == [
        "Bidding: pass on every card of the turn 3 Bidding phase (withdraw it: "
        "`/orders bidding` order: “ask me each time”)"
    ]


def test_a_phase_s_order_is_the_engine_s_and_its_words_are_the_phase_s_words() -> None:
    """The engine's order kind gives answers, never a player's words; the phase's words
    module tells it (bot.words.<phase>), found by the kind's name."""
    from bot.words import phase_words

    for module in (storm_orders, bidding_orders, charity_orders, revival_orders):
        kind = module.ORDER
        assert not hasattr(kind, "words") and not hasattr(kind, "title"), kind.name
        said = phase_words.order_words(kind.name)
        assert said is not None and said.name == kind.name
        assert order_words(kind.name, "ask") == f"{said.title}: ask me each time"
    assert phase_words.order_words("nexus") is None  # the bot's own kinds keep their words
    assert order_words("nexus", "pass") == "Nexus: always pass"
    assert (
        order_words("storm", "pass") == "Storm: never play a storm card (pass at once when asked)"
    )
