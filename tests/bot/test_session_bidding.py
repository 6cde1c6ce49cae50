"""The session runs the Bidding and Revival phases: who is asked (only the bidder, each
turn to bid once, with a deadline; in revival everyone with a choice at once, nobody
without), the defaults, standing orders (stored with the game), and what each faction
hears privately."""

from __future__ import annotations

from collections import Counter

from bot.waits import CHOICE
from rules.actions import Pass, RemoveForces
from rules.bidding.actions import Bid, SupportBids
from rules.bidding.view import auction_of
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from rules.revival.actions import Revive
from tests.bot.auction_helpers import bidder_answer, new_game, to_phase
from tests.bot.test_session_whole_game import MODERATOR, WholeTable, table
from tests.rules.game_helpers import DECK, game_at

__all__ = ["table"]
STAMP = "<t:"


BEFORE: dict[int, set[str]] = {}  # each table's prompts from before the position


async def start(table: WholeTable, state: GameState, *, created: bool = False) -> None:
    if not created:
        await table.create()
    assert table.app is not None
    BEFORE[id(table)] = set(table.publisher.prompts)
    await table.app.begin_phase(table.game_id, MODERATOR, state, key="start", note="Test.")
    await table.session.until_idle()


def auction(table: WholeTable):  # type: ignore[no-untyped-def]
    game = table.state.public_view().game
    assert game is not None
    return auction_of(game)


def asked(table: WholeTable, phase: str = "") -> list[Faction]:
    """The factions asked since the position began (in ``phase``: "Bidding"), one entry per
    prompt message, in order."""
    before = BEFORE.get(id(table), set())
    return [
        n.faction
        for r, n in table.publisher.prompts.items()
        if r not in before and f", {phase}" in n.text
    ]


async def test_bidding_asks_only_the_bidder_each_turn_once_with_a_deadline(
    table: WholeTable,
) -> None:
    await start(table, to_phase(new_game(), GamePhase.BIDDING))
    first = auction(table)
    assert first is not None and first.number == 1
    wait = table.session.current_wait()
    assert wait is not None and wait.kind == CHOICE and wait.factions == (first.bidder,)
    assert asked(table) == [first.bidder]
    prompt = table.publisher.open_prompts_for(first.bidder)[-1]
    assert f"card 1 of {first.of}" in prompt.text and STAMP in prompt.text
    assert "spice" in prompt.text and prompt.token is not None
    bids = [a.action for a in prompt.answers if isinstance(a.action, Bid)]  # the engine's
    assert bids and bids[0] == Bid(first.bidder, first.high_bid + 1)
    turns: list[Faction] = [first.bidder]
    for _ in range(200):  # the whole phase, by the policy
        state = table.state
        if state.game_phase is not GamePhase.BIDDING:
            break
        now = auction(table)
        if now is None:
            break
        bidder = state.whole.waiting[0]
        assert bidder == now.bidder
        opened = [f for f in state.factions if table.publisher.open_prompts_for(f)]
        assert opened == [bidder], opened  # only the bidder has an open prompt
        seen = len(table.publisher.public_notices)
        await table.submit(bidder_answer(state, bidder))
        if table.state.game_phase is GamePhase.BIDDING and auction(table) is not None:
            turns.append(table.state.whole.waiting[0])
            pinged = [n.mention for _, n in table.publisher.public_notices[seen:] if n.mention]
            assert pinged == []  # the next bidder is pinged by its own prompt, not the table
            assert table.publisher.open_prompts_for(turns[-1])[-1].ping
    assert table.state.game_phase is not GamePhase.BIDDING
    assert asked(table, "Bidding") == turns  # one prompt per turn to bid, in the order of the turns
    text = table.public_text()
    assert "is on offer" in text and "bids 1." in text
    assert "wins a treachery card for" in text


async def test_a_bidder_who_does_not_answer_passes_on_the_deadline(table: WholeTable) -> None:
    await start(table, to_phase(new_game(), GamePhase.BIDDING))
    first = auction(table)
    assert first is not None
    await table.advance(3601)  # the step time
    now = auction(table)
    assert now is not None and now.bidder != first.bidder
    assert first.bidder in now.passed or now.high_bidder is None
    mine = [n.text for n in table.publisher.private_for(first.bidder)]
    assert "Time ran out: you pass on the card on offer." in mine
    assert f"{first.bidder.label} passes." in table.public_text()
    assert table.publisher.closed  # its prompt says how it closed


async def test_a_pass_order_answers_every_card_of_the_phase_and_is_stored(
    table: WholeTable,
) -> None:
    state = to_phase(new_game(), GamePhase.BIDDING)
    await start(table, state)
    assert table.app is not None
    for faction in (Faction.BENE_GESSERIT, Faction.SPACING_GUILD):
        await table.app.set_standing_order(table.game_id, faction, "bidding", "pass:1")
    await table.session.until_idle()
    for _ in range(200):
        state = table.state
        if state.game_phase is not GamePhase.BIDDING or auction(table) is None:
            break
        bidder = state.whole.waiting[0]
        assert bidder not in (Faction.BENE_GESSERIT, Faction.SPACING_GUILD)
        await table.submit(bidder_answer(state, bidder))
    later = asked(table, "Bidding")[1:]  # the first prompt may predate the orders
    assert Faction.BENE_GESSERIT not in later and Faction.SPACING_GUILD not in later
    bg = [n.text for n in table.publisher.private_for(Faction.BENE_GESSERIT)]
    assert any("Your standing order answered: you pass on the card on offer" in t for t in bg)
    session = await table.reopen()  # stored with the game
    assert session.orders[Faction.BENE_GESSERIT].bidding == "pass:1"


async def test_a_bid_up_to_order_raises_by_one_never_beyond_its_limit(table: WholeTable) -> None:
    await start(table, to_phase(new_game(), GamePhase.BIDDING))
    assert table.app is not None
    first = auction(table)
    assert first is not None
    bidder = first.bidder
    others = [f for f in table.state.whole.order if f != bidder]
    rival = others[0]
    value = f"up_to:3:1:{first.number}"
    await table.app.set_standing_order(table.game_id, bidder, "bidding", value)
    await table.session.until_idle()
    now = auction(table)
    assert now is not None and now.high_bidder == bidder and now.high_bid == 1
    for _ in range(30):  # the rival raises each time; everyone else passes
        state = table.state
        now = auction(table)
        if now is None or now.number != first.number:
            break
        who = state.whole.waiting[0]
        assert who != bidder  # its order answers its turns: it is never asked
        want = Bid(who, now.high_bid + 1) if who == rival else Pass(who)
        await table.submit(want if state.is_legal(want) else Pass(who))
    text = table.public_text()
    assert f"{bidder.label} bids 1." in text and f"{bidder.label} bids 3." in text
    assert f"{bidder.label} bids 5." not in text  # never beyond its limit
    assert f"{rival.label} wins a treachery card for 4 spice" in text
    assert asked(table, "Bidding").count(bidder) == 1  # only before its order


async def test_an_order_for_another_card_or_turn_does_not_answer(table: WholeTable) -> None:
    await start(table, to_phase(new_game(), GamePhase.BIDDING))
    assert table.app is not None
    first = auction(table)
    assert first is not None
    for value in (f"up_to:5:1:{first.number + 1}", "pass:2", f"up_to:5:2:{first.number}"):
        await table.app.set_standing_order(table.game_id, first.bidder, "bidding", value)
        await table.session.until_idle()
        now = auction(table)
        assert now is not None and now.bidder == first.bidder and now.high_bid == 0


async def test_revival_asks_at_once_only_who_has_something_to_decide(table: WholeTable) -> None:
    state = to_phase(new_game(), GamePhase.BIDDING)
    fremen_home = next(s for s in state.public_view().stacks if s.faction is Faction.FREMEN)
    atreides_home = next(s for s in state.public_view().stacks if s.faction is Faction.ATREIDES)
    for stack in (fremen_home, atreides_home):
        removed = min(stack.forces, 4)
        state.apply(
            RemoveForces(stack.faction, stack.territory, stack.sector, removed, to_tanks=True)
        )
    state = to_phase(state, GamePhase.REVIVAL)
    waiting = set(state.whole.waiting)
    assert Faction.ATREIDES in waiting
    assert not waiting & {Faction.SPACING_GUILD, Faction.BENE_GESSERIT, Faction.EMPEROR}
    await start(table, state)
    revival = asked(table, "Revival")
    assert set(revival) == waiting and len(revival) == len(waiting)  # all at once
    prompt = table.publisher.open_prompts_for(Faction.ATREIDES)[-1]
    assert "Revival" in prompt.text and STAMP in prompt.text and "spice" in prompt.text
    before = table.state.public_view().faction(Faction.ATREIDES).tanks
    await table.submit(Revive(Faction.ATREIDES, 3))
    after = table.state.public_view().faction(Faction.ATREIDES).tanks
    assert after == before - 3
    mine = "\n".join(n.text for n in table.publisher.private_for(Faction.ATREIDES))
    assert "You pay 2 spice; you now hold" in mine  # 2 free, the third 2 spice (1.05.01)
    counted = Counter(asked(table, "Revival"))
    assert all(n == 1 for n in counted.values())


async def test_a_free_revival_order_answers_at_once(table: WholeTable) -> None:
    state = to_phase(new_game(), GamePhase.BIDDING)
    home = next(s for s in state.public_view().stacks if s.faction is Faction.ATREIDES)
    state.apply(
        RemoveForces(Faction.ATREIDES, home.territory, home.sector, home.forces, to_tanks=True)
    )
    state = to_phase(state, GamePhase.REVIVAL)
    await table.create()
    assert table.app is not None
    await table.app.set_standing_order(table.game_id, Faction.ATREIDES, "revival", "free")
    await start(table, state, created=True)
    assert Faction.ATREIDES not in asked(table, "Revival")
    tanks = table.state.public_view().faction(Faction.ATREIDES).tanks
    assert tanks == home.forces - 2  # the 2 free came back (1.05.01)


async def test_the_ally_paying_part_of_a_card_hears_its_part(table: WholeTable) -> None:
    """The Fremen's commitment pays 3 of the Atreides' 5: the Fremen hear it privately."""
    state = game_at(
        "bidding",
        treachery_deck=DECK,
        alliances=[["atreides", "fremen"]],
        factions={"atreides": {"spice": 2}},
    )
    await table.create(start=state)
    await table.submit(SupportBids(Faction.FREMEN, 5))
    bid = False
    while (now := auction(table)) is not None and now.number == 1:
        bidder = table.state.whole.waiting[0]
        if bidder is Faction.ATREIDES and not bid:
            await table.submit(Bid(bidder, 5))
            bid = True
        else:
            await table.submit(Pass(bidder))
    await table.session.until_idle()
    fremen = "\n".join(n.text for n in table.publisher.private_for(Faction.FREMEN))
    assert "You pay 3 spice; you now hold 7." in fremen
