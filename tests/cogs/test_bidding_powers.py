"""The abilities of the Bidding phase through Discord (simcord): an ally's commitment to
bids and the Emperor's gift (amounts told only to the two allies), a card bought with
Karama, the Harkonnen's hand taken and given back, a Ghola, a Karama played ahead against
the Emperor's payment. The table reads who did what, never a card or an amount of spice
held or given."""

from __future__ import annotations

import re

import simcord

from cogs.play.karama import PREVENTED
from rules.bidding.model import bids
from rules.factions import Faction
from rules.karama import PREVENTABLE
from rules.karama_turn import TURN_ABILITIES
from tests.cogs.conftest import Table, is_ephemeral, refusals, text_of
from tests.cogs.turn_helpers import (
    private_words,
    public_messages,
    public_since,
    start_at,
    whole_table,
)
from tests.rules.game_helpers import DECK, game_at

F = Faction
HAND = ("Ellaca Drug", "Gom Jabbar")
KARAMA = {"cards": ("Karama",)}


def done(result: simcord.InteractionResult) -> str:
    text = text_of(result)
    assert is_ephemeral(result) and text.startswith("Done"), text
    return text


async def at_bidding(t: Table, **fields: object) -> None:
    position = game_at(
        "bidding",
        treachery_deck=DECK,
        advanced=True,
        alliances=[["emperor", "harkonnen"]],
        **fields,  # type: ignore[arg-type]
    )
    await start_at(t, position)


async def test_an_allys_commitment_and_the_emperors_gift_stay_between_the_allies(
    simcord_env: simcord.Env,
) -> None:
    t = await whole_table(simcord_env)
    await at_bidding(t)
    before = public_messages(t)
    said = done(await t.players[F.EMPEROR].slash(t.table, "support-bids", amount=4))
    assert "up to 4 of your spice" in said
    shown = text_of(await t.players[F.HARKONNEN].slash(t.table, "bid"))  # the bidder's view
    assert "your ally commits 4 to your bids" in shown and "You hold 10 spice" in shown
    done(await t.players[F.EMPEROR].slash(t.table, "give-spice", amount=3))
    assert t.state().factions[F.HARKONNEN].spice == 13
    assert "You now hold 13 spice." in private_words(t, F.HARKONNEN)
    public = public_since(t, before)
    assert "Emperor changes what it commits to its ally's bids." in public
    assert "Emperor gives spice to Harkonnen, its ally." in public
    assert not re.search(r"\b(3|4|7|13) spice\b|\b(3|4)\b", public), public
    done(await t.players[F.EMPEROR].slash(t.table, "support-bids", amount=0))  # withdrawn
    assert not refusals(simcord_env)


async def test_a_card_bought_with_karama_is_told_without_the_card(
    simcord_env: simcord.Env,
) -> None:
    t = await whole_table(simcord_env)
    await at_bidding(t, factions={"harkonnen": {"cards": ("Karama",)}})
    before = public_messages(t)
    prompt = t.private(F.HARKONNEN).history()[-1]
    names = [c["label"] for row in prompt.components for c in row.to_dict()["components"]]
    assert "Take it with Karama" in names
    done(await t.players[F.HARKONNEN].slash(t.table, "karama buy"))
    public = public_since(t, before)
    assert "Harkonnen plays Karama: it takes the card on offer, paying nothing." in public
    bought = [c for c in t.state().factions[F.HARKONNEN].cards if c != "Karama"]
    assert bought and all(card not in public for card in bought)
    assert bought[0] in private_words(t, F.HARKONNEN)  # its new card, to it alone


async def test_the_harkonnen_take_a_hand_and_give_as_many_back(simcord_env: simcord.Env) -> None:
    t = await whole_table(simcord_env)
    cards = {"harkonnen": {"cards": ("Karama", "Lasgun")}, "atreides": {"cards": HAND}}
    await at_bidding(t, factions=cards)
    before = public_messages(t)
    harkonnen = t.players[F.HARKONNEN]
    targets = await harkonnen.autocomplete(t.table, "karama take-hand", "target", "")
    assert [c["value"] for c in targets] == ["atreides"]
    assert await t.players[F.ATREIDES].autocomplete(t.table, "karama take-hand", "target", "") == []
    done(await harkonnen.slash(t.table, "karama take-hand", target="atreides"))
    assert t.state().whole.waiting == (F.HARKONNEN,)
    assert "give back as many cards" in t.private(F.HARKONNEN).history()[-1].content
    offered = await harkonnen.autocomplete(t.table, "give-back", "cards", "Lasgun, ")
    assert "Lasgun, Ellaca Drug" in [c["value"] for c in offered]
    refused = await harkonnen.slash(t.table, "give-back", cards="Lasgun")  # one, not two
    assert text_of(refused).startswith("Refused: ") and "(rule 1.14.04)" in text_of(refused)
    done(await harkonnen.slash(t.table, "give-back", cards="Lasgun, Gom Jabbar"))
    assert sorted(t.state().factions[F.ATREIDES].cards) == ["Gom Jabbar", "Lasgun"]
    public = public_since(t, before)
    assert "Harkonnen takes Atreides' whole hand (2 cards)." in public
    assert "Harkonnen gives 2 cards back to Atreides." in public
    for card in ("Lasgun", "Gom Jabbar", "Ellaca Drug"):
        assert card not in public
    assert "Your hand now: Lasgun and Gom Jabbar." in private_words(t, F.ATREIDES)
    again = await harkonnen.slash(t.table, "karama take-hand", target="atreides")
    assert text_of(again).startswith("Refused: ")  # once a game
    refusals(simcord_env)


async def test_a_ghola_revives_at_any_time_and_is_told_as_played(simcord_env: simcord.Env) -> None:
    t = await whole_table(simcord_env)
    ghola = {"atreides": {"cards": ("Tleilaxu Ghola",), "tanks": 6}}
    await at_bidding(t, factions=ghola)
    before, state = public_messages(t), t.state().to_dict()
    atreides = t.players[F.ATREIDES]
    offered = await atreides.autocomplete(t.table, "ghola", "forces", "")
    assert "5 forces, free" in [c["name"] for c in offered]
    assert await t.players[F.EMPEROR].autocomplete(t.table, "ghola", "forces", "") == []
    for result in (
        await t.players[F.EMPEROR].slash(t.table, "ghola", forces=1),  # no such card
        await t.players[F.EMPEROR].slash(t.table, "ghola", forces=1, faction="atreides"),
        await t.outsider.slash(t.table, "ghola", forces=1),
        await atreides.slash(t.table, "ghola", forces=9),  # more than 5
        await atreides.slash(t.table, "ghola", forces=1, leader="Xyzzy" * 20),
    ):
        text = text_of(result)
        assert is_ephemeral(result) and text.startswith("Refused: "), text
        assert "XyzzyXyzzyXyzzy" not in text
    assert t.state().to_dict() == state and public_messages(t) == before
    said = done(await atreides.slash(t.table, "ghola", forces=5))
    assert said == "Done: Tleilaxu Ghola played: you revive 5 forces, free."
    assert "Atreides plays Tleilaxu Ghola: it revives 5 forces, free." in public_since(t, before)
    assert t.state().factions[F.ATREIDES].tanks == 1
    again = await atreides.slash(t.table, "ghola", forces=1)
    assert text_of(again).startswith("Refused: ")  # the card is spent
    refusals(simcord_env)


async def test_a_karama_ahead_sends_the_next_purchases_spice_to_the_bank(
    simcord_env: simcord.Env,
) -> None:
    """3.01.11.02 (reading K1): the Atreides play a Karama against the Emperor's payment
    for treachery cards (2.03.04); the next card sold pays the bank, and the table hears
    both. Refused: the Emperor against its own ability, a player without a Karama, an
    outsider, a second play (the card is spent)."""
    t = await whole_table(simcord_env)
    await start_at(t, game_at("bidding", treachery_deck=DECK, factions={"atreides": KARAMA}))
    before, state = public_messages(t), t.state().to_dict()
    ability = "emperor_payment"
    for result in (
        await t.players[F.EMPEROR].slash(t.table, "karama prevent", ability=ability),
        await t.players[F.HARKONNEN].slash(t.table, "karama prevent", ability=ability),
        await t.players[F.EMPEROR].slash(
            t.table, "karama prevent", ability=ability, faction="atreides"
        ),
        await t.outsider.slash(t.table, "karama prevent", ability=ability),
    ):
        text = text_of(result)
        assert is_ephemeral(result) and text.startswith("Refused: "), text
    own = text_of(await t.players[F.EMPEROR].slash(t.table, "karama prevent", ability=ability))
    assert "not Emperor's own" in own and "(rule 3.01.11)" in own
    assert t.state().to_dict() == state and public_messages(t) == before
    said = done(await t.players[F.ATREIDES].slash(t.table, "karama prevent", ability=ability))
    assert said == "Done: Karama played to prevent the Emperor's payment for treachery cards."
    assert t.state().factions[F.ATREIDES].cards == ()
    again = await t.players[F.ATREIDES].slash(t.table, "karama prevent", ability=ability)
    assert text_of(again).startswith("Refused: ")  # the card is spent
    bank = t.state().spice_bank
    done(await t.players[F.HARKONNEN].slash(t.table, "bid", amount=2))
    while bids(t.state().whole).auction is not None and bids(t.state().whole).auction.number == 1:
        bidder = t.state().waiting_on()[0]
        done(await t.players[bidder].slash(t.table, "pass"))
    assert t.state().factions[F.EMPEROR].spice == 10
    assert t.state().spice_bank == bank + 2
    public = public_since(t, before)
    assert (
        "Atreides plays Karama to prevent the next use of the Emperor's payment for "
        "treachery cards." in public
    )
    assert "Karama: the Emperor's payment for treachery cards does not work this time." in public
    assert "Harkonnen wins a treachery card for 2 spice, paid to the Spice Bank." in public
    assert t.state().whole.prevented == frozenset()
    refusals(simcord_env)


def test_the_prevent_list_names_every_preventable_ability_within_discords_limit() -> None:
    """Discord allows 25 choices of at most 100 characters; each in words, no id."""
    values = {c.value for c in PREVENTED}
    assert values == {a.value for a in (*TURN_ABILITIES, *PREVENTABLE)}
    assert {"atreides_bidding", "emperor_payment", "top_card", "ally_revival"} <= values
    assert len(PREVENTED) <= 25
    assert all(len(c.name) <= 100 and "_" not in c.name for c in PREVENTED)
