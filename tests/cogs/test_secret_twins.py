"""Issue 23 §1: whom the game asks, and for how long, is a function of public facts only.

For each choice conditioned on a secret (docs/secrets-and-waits.md lists them), two games
that differ only in the secret get the same public inputs through Discord; the table's and
the spectators' channels (text, order, maps) and the maps' public input stay identical up
to the point the secret is played (tests/cogs/secret_twins.py).
"""

from __future__ import annotations

from typing import Any

import simcord

from rules.bidding.view import auction_of
from rules.factions import Faction
from rules.game import GameState
from tests.cogs.conftest import Bots, Table, is_ephemeral, text_of
from tests.cogs.secret_twins import Twins, seen, twin_tables
from tests.cogs.turn_helpers import private_words
from tests.rules.game_helpers import DECK, game_at

F = Faction
HOURS = 3600


async def answer(t: Table, faction: Faction, command: str, **options: Any) -> None:
    result = await t.players[faction].slash(t.table, command, **options)
    text = text_of(result)
    assert is_ephemeral(result) and text.startswith(("Done", "Passed")), (command, text)


def passes(faction: Faction) -> Any:
    async def step(t: Table) -> None:
        await answer(t, faction, "pass")

    return step


async def everyone_passes(twins: Twins, what: str) -> None:
    """Each faction the phase waits on passes by hand, one by one, in the order asked."""
    phase = twins.first.state().game_phase
    for _ in range(12):
        waiting = twins.waiting()
        if not waiting or twins.first.state().game_phase is not phase:
            return
        await twins.each(passes(waiting[0]), f"{what}: {waiting[0].label} passes")


async def test_the_auction_asks_the_same_bidders_whatever_they_hold(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    """The issue's demo: "Atreides bids 5. Emperor bids 6." with the Fremen (3 spice)
    skipped told everyone they held no Karama. The Fremen hold a Karama in one game, a
    worthless card in the other; the Bene Gesserit hold no spice in one game, 10 in the
    other. Both games ask the same bidders, in the same order, for as long."""
    twins = await twin_tables(simcord_env, bots)
    seats: list[str | None] = ["atreides", "fremen", "emperor", "bene_gesserit"]

    def position(fremen_card: str, bg_spice: int) -> GameState:
        return game_at(
            "bidding",
            seats=seats,
            storm=18,
            treachery_deck=DECK,
            factions={
                "fremen": {"spice": 3, "cards": (fremen_card,)},
                "bene_gesserit": {"spice": bg_spice},
            },
        )

    await twins.start(position("Karama", 0), position("Kulon", 10))
    opener = twins.waiting()
    assert len(opener) == 1
    wanted = {F.ATREIDES: 5, F.EMPEROR: 6}
    for n in range(12):
        auction = auction_of(twins.first.state().public_view().game)
        if auction is None or auction.number > 1:
            break
        bidder = auction.bidder
        if bidder is F.FREMEN and n < 4:
            await twins.wait(12 * HOURS + 1, "the Fremen's deadline passed")  # by default
            continue
        amount = wanted.get(bidder, 0)
        if amount > auction.high_bid:

            async def bid(t: Table, who: Faction = bidder, amount: int = amount) -> None:
                await answer(t, who, "bid", amount=amount)

            await twins.each(bid, f"{bidder.label} bids {amount}")
        else:
            await twins.each(passes(bidder), f"{bidder.label} passes")
    public = "\n".join(m.content for m in twins.first.table.history())
    assert "Atreides bids 5." in public and "Emperor bids 6." in public
    assert "Fremen pass" in public and "Bene Gesserit pass" in public
    poor, rich = (private_words(t, F.BENE_GESSERIT) for t in twins.tables)
    assert "You can only pass here" in poor and "/orders only-pass" in poor  # privately
    assert "You can only pass here" not in rich


async def test_the_storm_card_step_asks_every_hand_alike_and_runs_the_same_time(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    """ "Waiting for Emperor (Storm: whether to play a storm card)" told that the Emperor
    held Weather Control; and with no holder the storm moved 12 hours sooner. The Emperor
    holds Weather Control in one game, a Lasgun in the other: the same factions are asked
    (each with a card in hand), nobody answers, and both storms move at the same deadline."""
    twins = await twin_tables(simcord_env, bots)

    def position(card: str) -> GameState:
        return game_at(
            "storm",
            turn=3,
            storm=7,
            dialers=(F.EMPEROR, F.FREMEN),
            factions={"emperor": {"cards": (card,)}, "atreides": {"cards": ("Shield",)}},
            treachery_deck=DECK,
        )

    await twins.start(position("Weather Control"), position("Lasgun"))
    for dialer in (F.EMPEROR, F.FREMEN):

        async def dial(t: Table, who: Faction = dialer) -> None:
            await answer(t, who, "dial", value=1)

        await twins.each(dial, f"{dialer.label} dials")
    assert set(twins.waiting()) == {F.ATREIDES, F.EMPEROR}  # each holds a card
    await twins.wait(11 * HOURS, "most of the storm cards' time")
    assert twins.first.state().whole.step == "storm_cards"
    await twins.wait(1 * HOURS + 1, "the storm cards' deadline")
    assert twins.first.state().storm_sector == 9  # both storms moved, by default
    assert any("png" in line for line in seen(twins.first))  # maps compared, byte for byte


async def test_charity_asks_everyone_whatever_they_hold(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    """ "Waiting for Spacing Guild and Atreides (CHOAM Charity: ...)" told that they held 0
    or 1 spice. The Guild hold 1 spice in one game, 5 in the other; everyone declines."""
    twins = await twin_tables(simcord_env, bots)

    def position(guild_spice: int) -> GameState:
        return game_at(
            "choam_charity",
            factions={"spacing_guild": {"spice": guild_spice}},
            treachery_deck=DECK,
        )

    await twins.start(position(1), position(5))
    assert len(twins.waiting()) == 6
    await everyone_passes(twins, "charity")
    assert twins.first.state().game_phase.value == "bidding"


async def test_revival_asks_the_same_factions_whatever_their_spice_and_cards(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    """ "Waiting for Atreides (Revival: ...)" appeared only when the Atreides could pay, and
    for the Emperor only when it held a Karama or could pay for its ally. One game: the
    Atreides without spice, the Emperor with a worthless card and 1 spice; the other: the
    Atreides with 10, the Emperor with a Karama and 10. Everyone takes its free revival."""
    twins = await twin_tables(simcord_env, bots)

    def position(atreides_spice: int, emperor_card: str, emperor_spice: int) -> GameState:
        return game_at(
            "revival",
            advanced=True,
            alliances=[["emperor", "fremen"]],
            factions={
                "atreides": {"tanks": 5, "spice": atreides_spice},
                "emperor": {"tanks": 4, "spice": emperor_spice, "cards": (emperor_card,)},
                "fremen": {"tanks": 8},
            },
            treachery_deck=DECK,
        )

    await twins.start(position(0, "Kulon", 1), position(10, "Karama", 10))
    assert set(twins.waiting()) == {F.ATREIDES, F.EMPEROR}  # the Fremen: all 3 free
    await everyone_passes(twins, "revival")
    assert twins.first.state().game_phase.value != "revival"


async def test_the_only_pass_order_answers_at_once_like_a_quick_pass_by_hand(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    """A standing order answers for its player at once and leaves no public trace: the
    Fremen (no spice) order "pass whenever a pass is all I can do" in both games; holding a
    worthless card, the order passes for them; holding a Karama they are asked, and pass
    by hand. The table cannot tell the two apart."""
    twins = await twin_tables(simcord_env, bots)
    seats: list[str | None] = ["atreides", "fremen", "emperor"]

    def position(card: str) -> GameState:
        factions = {"fremen": {"spice": 0, "cards": (card,)}}
        return game_at("bidding", seats=seats, treachery_deck=DECK, factions=factions)

    await twins.start(position("Karama"), position("Kulon"))

    async def order(t: Table) -> None:
        result = await t.players[F.FREMEN].slash(t.table, "orders only-pass", order="pass")
        assert is_ephemeral(result) and text_of(result).startswith("Standing order saved")

    await twins.each(order, "the Fremen's order")

    async def bid(t: Table) -> None:
        await answer(t, F.ATREIDES, "bid", amount=1)

    await twins.each(bid, "Atreides bids 1", check=False)  # a quick player is still to answer
    holder, other = twins.tables
    assert holder.state().whole.waiting == (F.FREMEN,)  # a Karama: it may act, asked
    assert other.state().whole.waiting == (F.EMPEROR,)  # the order passed at once
    assert "Your standing order answered" in other.private(F.FREMEN).last_message.content

    async def by_hand(t: Table) -> None:
        if F.FREMEN in t.state().whole.waiting:
            await answer(t, F.FREMEN, "pass")

    await twins.each(by_hand, "the Fremen pass (by hand, or their order did)")
    prompt = holder.private(F.FREMEN).history()
    assert not any("You can only pass here" in m.content for m in prompt)
