"""The figure of issue 16: how many prompts a six-player Bidding phase asks, with and
without standing orders (tests/bot/prompt_count.py plays it three ways)."""

from __future__ import annotations

from tests.bot.prompt_count import figures


async def test_standing_orders_spare_most_prompts_of_a_six_card_auction() -> None:
    none, passing, every = await figures()
    assert none.cards == passing.cards == every.cards == 6  # six can bid: six cards
    assert none.answers == passing.answers == every.answers  # the same auction each time
    assert none.prompts == none.answers  # without orders, every turn to bid is a prompt
    assert passing.prompts < none.prompts and passing.orders_given == 2
    assert every.prompts <= every.cards  # at most each card's first bidder, as it opens
    assert every.prompts < passing.prompts
