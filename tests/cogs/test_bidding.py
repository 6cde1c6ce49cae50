"""The Bidding phase through Discord (simcord), six players: each bidder is asked alone, in
its own channel, with raise buttons bound to its turn to bid; the table reads counts, bids,
passes and sales (who bought, the price), never a card or a faction's spice; the Atreides
alone see each card before bidding. And hostile use of every new command and button."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
import simcord

from cogs.publisher import DiscordPublisher
from rules.actions import Pass
from rules.bidding.actions import Bid
from rules.bidding.model import bids
from rules.bidding.view import auction_of
from rules.factions import Faction
from rules.game_model import GamePhase
from tests.bot.auction_helpers import bidder_answer, new_game, to_phase
from tests.cogs.conftest import Table, is_ephemeral, refusals, text_of
from tests.cogs.test_words import ids_in
from tests.cogs.turn_helpers import (
    private_words,
    public_messages,
    public_since,
    start_at,
    whole_table,
)

F = Faction
LONG = "x" * 2100
SALE = re.compile(
    r"^(\S[\w' ]+) wins a treachery card for \d+ spice, paid to (the Spice Bank|[\w' ]+)\.$"
)


def labels(message: discord.Message) -> list[str]:
    return [c["label"] for row in message.components for c in row.to_dict()["components"]]


def prompt_of(t: Table, faction: Faction) -> discord.Message:
    """The faction's newest message with buttons (its prompt)."""
    return next(m for m in reversed(t.private(faction).history()) if m.components)


def auction(t: Table) -> Any:
    game = t.state().public_view().game
    return auction_of(game) if game is not None else None


def secrets_now(t: Table, seen: set[str]) -> None:
    """Every card in a hand or laid out, and each faction's spice, as the game goes."""
    state = t.state()
    for own in state.factions.values():
        seen.update(own.cards)
    laid = bids(state.whole).auction
    if laid is not None:
        seen.update(laid.cards)


def refused(result: simcord.InteractionResult) -> str:
    text = text_of(result)
    assert is_ephemeral(result) and text.startswith("Refused: "), text
    assert len(text) <= 2000 and "x" * 100 not in text, text
    return text


async def test_a_six_player_bidding_round_through_discord_leaks_nothing(
    simcord_env: simcord.Env,
) -> None:
    t = await whole_table(simcord_env)
    await start_at(t, to_phase(new_game(), GamePhase.BIDDING))
    earlier = public_messages(t)
    seen: set[str] = set()
    spice_seen: dict[Faction, set[int]] = {f: set() for f in F}
    prompts = 0
    by_command = 0
    for n in range(200):
        secrets_now(t, seen)
        for faction, own in t.state().factions.items():
            spice_seen[faction].add(own.spice)
        state = t.state()
        if state.game_phase is not GamePhase.BIDDING or auction(t) is None:
            break
        bidder = state.whole.waiting[0]
        prompt = prompt_of(t, bidder)
        prompts += 1
        for other in F:  # only the bidder's own channel asks anything now
            if other is not bidder:
                last = t.private(other).history()
                assert not last or not last[-1].components or "Closed" in last[-1].content
        answer = bidder_answer(state, bidder)
        if isinstance(answer, Bid) and n % 3 == 0:  # a bid now and then by the command
            result = await t.players[bidder].slash(t.table, "bid", amount=answer.amount)
            by_command += 1
        elif isinstance(answer, Bid):
            raised = answer.amount - auction(t).high_bid
            result = await t.players[bidder].click(prompt, label=f"Bid {answer.amount} (+{raised})")
        else:
            assert isinstance(answer, Pass)
            assert "Pass" in labels(prompt)
            result = await t.players[bidder].click(prompt, label="Pass")
        assert is_ephemeral(result) and text_of(result).startswith(("Done", "Passed")), text_of(
            result
        )
    assert t.state().game_phase is not GamePhase.BIDDING
    assert prompts > 6 and by_command
    public = "\n".join(public_messages(t).values())
    assert "is on offer" in public
    assert " bids 1." in public and "wins a treachery card for" in public
    for card in seen - {"Karama"}:  # "Karama" names a rule too
        assert card not in public, card
    for line in public_since(t, earlier).splitlines():  # the phase's own lines
        if "spice" in line.lower():
            assert SALE.match(line.strip()), line  # a sale's price, never a total
    assert not re.search(r"\b(hold|holds|has|have) \d+ spice\b", public)
    everything = [m.content or "" for ch in t.guild.channels.values() for m in ch.history()]
    assert ids_in(everything) == []  # no internal id reached anyone, privately either
    # the Atreides saw each card before bidding; nobody else did
    atreides = private_words(t, F.ATREIDES)
    assert "seen before bidding (only you see it, 2.01.05)" in atreides
    for faction in F:
        if faction is not F.ATREIDES:
            assert "seen before bidding" not in private_words(t, faction)
    assert not refusals(simcord_env)


@pytest.fixture
def edits_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    """The session's edits of closed prompts never reach the player (an outage, a client
    that did not refresh): the old buttons are still there to press."""

    async def lost(self: DiscordPublisher, game_id: int, ref: str, text: str) -> None:
        return None

    monkeypatch.setattr(DiscordPublisher, "close_prompt", lost, raising=False)


async def test_a_bidder_sees_the_high_bid_its_spice_and_stale_buttons_say_how_they_closed(
    simcord_env: simcord.Env, edits_lost: None
) -> None:
    t = await whole_table(simcord_env)
    await start_at(t, to_phase(new_game(), GamePhase.BIDDING))
    first = auction(t)
    bidder = first.bidder
    prompt = prompt_of(t, bidder)
    spice = t.state().factions[bidder].spice
    assert "No bid yet" in prompt.content and f"You hold {spice} spice" in prompt.content
    assert labels(prompt)[:1] == ["Bid 1 (+1)"] and "Pass" in labels(prompt)
    assert "<t:" in prompt.content
    shown = await t.players[bidder].slash(t.table, "bid")  # the same, privately
    assert is_ephemeral(shown) and "No bid yet" in text_of(shown)
    await t.players[bidder].click(prompt, label="Bid 1 (+1)")
    before = t.state().to_dict()
    again = await t.players[bidder].click(prompt, label="Bid 2 (+2)")  # stale: twice
    assert "this prompt has closed" in refused(again)
    assert t.state().to_dict() == before
    closed = next(m for m in t.private(bidder).history() if m.id == prompt.id)
    assert "Closed" in closed.content and closed.components == []
    nxt = auction(t).bidder
    status = await t.players[bidder].slash(t.table, "bid")
    assert f"high bid 1 by {bidder.label}" in text_of(status)
    assert f"{nxt.label} to bid or pass" in text_of(status)


async def test_hostile_bids_revivals_and_orders_change_nothing(simcord_env: simcord.Env) -> None:
    t = await whole_table(simcord_env, moderator_role="Mentats")
    await start_at(t, to_phase(new_game(), GamePhase.BIDDING))
    bidder = auction(t).bidder
    other = next(f for f in t.state().factions if f is not bidder)
    before, seen = t.state().to_dict(), public_messages(t)
    # not its turn; another faction; an outsider; an ex-moderator
    assert "(rule " in refused(await t.players[other].slash(t.table, "bid", amount=1))
    named = {"amount": 1, "faction": bidder.value}
    assert f"{bidder.label} seat" in refused(await t.players[other].slash(t.table, "bid", **named))
    assert "no seat" in refused(await t.outsider.slash(t.table, "bid", amount=1))
    holder = t.role_holder
    assert holder is not None and t.role is not None
    simcord_env.backend.remove_member_role(t.guild.id, holder.id, t.role.id)
    refused(await holder.slash(t.table, "bid", **named))
    # junk: a bid beyond its spice, a revival in the Bidding phase, oversized text
    rich = t.state().factions[bidder].spice + 1
    assert "(rule " in refused(await t.players[bidder].slash(t.table, "bid", amount=rich))
    refused(await t.players[bidder].slash(t.table, "revive", forces=1))
    refused(await t.players[bidder].slash(t.table, "give-back", cards=LONG[:400]))
    refused(await t.players[bidder].slash(t.table, "karama buy"))
    refused(await t.players[bidder].slash(t.table, "support-bids", amount=3))  # no ally
    refused(await t.players[bidder].slash(t.table, "give-spice", amount=3))
    # standing orders for another faction, by an outsider, by an ex-moderator
    order = {"order": "pass", "faction": bidder.value}
    refused(await t.players[other].slash(t.table, "orders bidding", **order))
    refused(await t.outsider.slash(t.table, "orders bidding", order="pass"))
    refused(await holder.slash(t.table, "orders bidding", **order))
    refused(await t.players[bidder].slash(t.table, "orders bidding", order="up_to"))
    # autocomplete: nothing of another faction's, nothing for an outsider
    for who in (t.outsider, holder):
        assert await who.autocomplete(t.table, "revive", "forces", "") == []
    assert t.state().to_dict() == before and public_messages(t) == seen
    assert t.session.orders.get(bidder) is None
    # the bidder's own: accepted once, not twice
    done = await t.players[bidder].slash(t.table, "bid", amount=1)
    assert text_of(done) == "Done: you bid 1."
    after = t.state().to_dict()
    refused(await t.players[bidder].slash(t.table, "bid", amount=1))
    assert t.state().to_dict() == after
    saved = await t.players[other].slash(t.table, "orders bidding", order="pass")
    assert "Standing order saved (only you see it): Bidding: pass on every card" in text_of(saved)
    shown = await t.players[other].slash(t.table, "orders show")
    assert "Bidding: pass on every card" in text_of(shown)
    withdrawn = await t.players[other].slash(t.table, "orders bidding", order="ask")
    assert "withdrawn" in text_of(withdrawn)
    refusals(simcord_env)  # each refusal went through the one handler
