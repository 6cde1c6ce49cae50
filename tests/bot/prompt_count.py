"""How many prompts a six-player Bidding phase asks, with and without standing orders.

The same table plays the same auction (the same position, the same policy: each faction's
limit per card, :func:`tests.bot.auction_helpers.limit`) three ways:

- ``none``: nobody gives an order; every turn to bid is a prompt;
- ``pass``: the two factions that want no card (Bene Gesserit, Guild) give "pass on
  everything this phase" once, as the phase opens;
- ``all``: those two, and every other faction gives "bid up to N on this card" (N its
  limit, 0 to pass on it) as each card comes on offer (an order is tied to the card on
  offer, so it cannot be given sooner); the card's first bidder, asked as the card
  opens, answers with its order too (its prompt was already posted).

``python -m tests.bot.prompt_count`` prints the figures.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from dataclasses import asdict, dataclass
from datetime import timedelta
from pathlib import Path

from bot.app import Mentat, whole_game_start
from bot.clock import FakeClock
from bot.publisher import RecordingPublisher
from bot.settings import GameSettings, Timing
from bot.store import Store
from rules.bidding.events import AuctionOpened, BidMade
from rules.bidding.orders import given as bidding_order
from rules.bidding.view import auction_of
from rules.events import Passed
from rules.factions import Faction
from rules.game_model import GamePhase
from rules.view import game_view
from tests.bot.auction_helpers import SEED, SIX, bidder_answer, limit, new_game, to_phase

MODERATOR = 99
CHANNELS = {"table": 101, "spectators": 102, "moderators": 103}
TIMING = Timing(step=timedelta(hours=12), prompt=timedelta(hours=2))
NOBODY_WANTS = (Faction.BENE_GESSERIT, Faction.SPACING_GUILD)


@dataclass(frozen=True, slots=True)
class Count:
    orders: str  # "none", "pass" or "all"
    cards: int  # laid out
    answers: int  # bids and passes made
    prompts: int  # prompt messages posted (each pings its player once)
    orders_given: int  # /orders commands used


async def count(orders: str, seed: int = SEED) -> Count:
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "count.db")
        publisher = RecordingPublisher()
        app = Mentat(store, publisher, FakeClock())
        await app.start()
        try:
            settings = GameSettings(timing=TIMING, maps="never")
            session = await app.create_game(
                1,
                whole_game_start(SIX, seed=seed),
                channels=CHANNELS,
                settings=settings,
                moderators=(MODERATOR,),
            )
            game_id = session.game_id
            position = to_phase(new_game(seed), GamePhase.BIDDING)
            earlier = set(publisher.prompts)  # the set-up's
            session = await app.begin_phase(game_id, MODERATOR, position, key="k", note="Test.")
            given = await _play(app, game_id, orders)
            state = session.state
            assert state is not None
            log = await store.log(game_id)
            events = [e for entry in log for e in entry.events]
            answers = sum(
                1
                for e in events
                if isinstance(e, BidMade) or (isinstance(e, Passed) and e.phase == "bidding")
            )
            cards = max((e.of for e in events if isinstance(e, AuctionOpened)), default=0)
            asked = [
                n
                for r, n in publisher.prompts.items()
                if r not in earlier and ", Bidding" in n.text
            ]
            return Count(orders, cards, answers, len(asked), given)
        finally:
            await app.stop()
            await store.close()


async def _play(app: Mentat, game_id: int, orders: str) -> int:
    """Play the phase by the policy; the number of orders given."""
    session = app.session(game_id)
    given = 0
    keys = 0
    ordered: set[int] = set()
    if orders in ("pass", "all"):
        assert session.state is not None
        for faction in NOBODY_WANTS:
            value = bidding_order(session.state, "pass")
            await app.set_standing_order(game_id, faction, "bidding", value)
            given += 1
    for _ in range(500):
        state = session.state
        assert state is not None
        auction = auction_of(game_view(state))
        if state.game_phase is not GamePhase.BIDDING or auction is None:
            return given
        if orders == "all" and auction.number not in ordered:
            ordered.add(auction.number)
            bidder = state.whole.waiting[0]  # asked as the card opened: ordering last
            for faction in sorted(SIX, key=lambda f: f == bidder):
                if faction in NOBODY_WANTS:
                    continue
                value = bidding_order(state, "up_to", limit(faction, auction.number))
                await app.set_standing_order(game_id, faction, "bidding", value)
                given += 1
            continue
        bidder = state.whole.waiting[0]
        keys += 1
        answer = bidder_answer(state, bidder)
        await session.submit(bidder, answer, actor=1, key=f"count-{keys}")
    raise AssertionError("the Bidding phase never ended")


async def figures(seed: int = SEED) -> list[Count]:
    return [await count(orders, seed) for orders in ("none", "pass", "all")]


if __name__ == "__main__":
    for found in asyncio.run(figures()):
        print(json.dumps(asdict(found)))
