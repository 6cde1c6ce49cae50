"""The figure of issue 16: how many prompts a six-player Bidding phase asks, with and
without standing orders (tests/bot/prompt_count.py plays it three ways)."""

from __future__ import annotations

import pytest

from tests.bot.demo_prompt_count import count as demo_prompts
from tests.bot.prompt_count import figures


async def test_standing_orders_spare_most_prompts_of_a_six_card_auction() -> None:
    none, passing, every = await figures()
    assert none.cards == passing.cards == every.cards == 6  # six can bid: six cards
    assert none.answers == passing.answers == every.answers  # the same auction each time
    assert none.prompts == none.answers  # without orders, every turn to bid is a prompt
    assert passing.prompts < none.prompts and passing.orders_given == 2
    assert every.prompts <= every.cards  # at most each card's first bidder, as it opens
    assert every.prompts < passing.prompts


async def test_the_demo_asks_alike_where_a_secret_decides_and_only_pass_spares_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 23: the whole demo asks charity, bids and storm cards of factions whose only
    answer is a pass (asked alike, so that being asked tells nothing); those are the
    prompts `/orders only-pass` answers at once (docs/secrets-and-waits.md gives the
    figures against the engine before the change)."""
    found = await demo_prompts(monkeypatch)
    for phase in ("choam_charity", "bidding", "storm"):
        assert found.only_pass_by_phase.get(phase, 0) > 0, found
    assert 0 < found.with_only_pass_orders < found.prompts
