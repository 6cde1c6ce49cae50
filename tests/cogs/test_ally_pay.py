"""/ally-pay: an ally's private consent to pay toward its ally's next shipment."""

from __future__ import annotations

import simcord

from bot.session.session import SessionError
from rules.factions import Faction
from tests.cogs.conftest import Table, is_ephemeral, make_table, position, refusals, text_of

ATREIDES, HARKONNEN, EMPEROR = Faction.ATREIDES, Faction.HARKONNEN, Faction.EMPEROR


async def _allied_table(env: simcord.Env) -> Table:
    """Atreides (to ship first) allied with Harkonnen; the Emperor alone; 10 spice each."""
    t = await make_table(env, start=False)
    started = await t.moderator.slash(t.table, "game start", position=position())
    assert is_ephemeral(started) and "is running" in text_of(started)
    assert t.state().to_act() is ATREIDES
    return t


async def test_ally_pays_toward_the_next_shipment(simcord_env: simcord.Env) -> None:
    t = await _allied_table(simcord_env)
    atreides, harkonnen = t.players[ATREIDES], t.players[HARKONNEN]
    public_before = len(t.table.history())

    offered = await harkonnen.slash(t.table, "ally-pay", amount=3)
    assert is_ephemeral(offered)
    assert text_of(offered) == (
        "Recorded: you pay up to 3 spice of Atreides' next shipment this turn. "
        "Only you and Atreides are told."
    )
    told = t.private(ATREIDES).last_message.content
    assert "Your ally Harkonnen will pay up to 3 spice of your next shipment" in told
    assert len(t.table.history()) == public_before  # nothing public
    assert all("pay up to" not in m.content for m in t.spectators.history())

    preview = await atreides.slash(t.table, "ship", to="Arrakeen", forces=4)
    assert preview.ephemeral
    text = preview.response.content
    assert "Ally payment: Harkonnen pays 3 of it (offered up to 3 with /ally-pay)." in text
    assert "Your spice: 10 → 9" in text
    await atreides.click(preview.response.message, label="Confirm")
    assert t.state().factions[ATREIDES].spice == 9
    assert t.state().factions[HARKONNEN].spice == 7
    assert "Harkonnen paid 3" in t.table.last_message.content
    assert t.bot.app.ally_offer(t.game_id, ATREIDES) is None  # used up by the shipment


async def test_the_offer_is_capped_at_the_cost(simcord_env: simcord.Env) -> None:
    t = await _allied_table(simcord_env)
    await t.players[HARKONNEN].slash(t.table, "ally-pay", amount=8)
    preview = await t.players[ATREIDES].slash(t.table, "ship", to="Arrakeen", forces=2)
    assert "Harkonnen pays 2 of it (offered up to 8" in preview.response.content
    assert "Your spice" not in preview.response.content  # Atreides pays nothing
    await t.players[ATREIDES].click(preview.response.message, label="Confirm")
    assert t.state().factions[HARKONNEN].spice == 8
    assert t.state().factions[ATREIDES].spice == 10


async def test_a_shipper_cannot_spend_more_than_offered(simcord_env: simcord.Env) -> None:
    t = await _allied_table(simcord_env)
    atreides = t.players[ATREIDES]
    unasked = await atreides.slash(t.table, "ship", to="Arrakeen", forces=4, ally_pays=2)
    assert unasked.ephemeral and "has not offered to pay" in text_of(unasked)
    await t.players[HARKONNEN].slash(t.table, "ally-pay", amount=1)
    greedy = await atreides.slash(t.table, "ship", to="Arrakeen", forces=4, ally_pays=2)
    assert greedy.ephemeral and "offered 1 spice toward this shipment, not 2" in text_of(greedy)
    own = await atreides.slash(t.table, "ship", to="Arrakeen", forces=4, ally_pays=0)
    assert "Your spice: 10 → 6" in own.response.content and "Ally payment" not in (
        own.response.content
    )
    by_moderator = await t.moderator.slash(
        t.table, "ship", to="Arrakeen", forces=4, ally_pays=4, faction="atreides"
    )
    assert by_moderator.ephemeral and "Harkonnen paid 4" in by_moderator.response.content
    assert len(refusals(simcord_env)) == 2
    assert t.state().factions[HARKONNEN].spice == 10  # nothing was submitted


async def test_withdrawn_offer_and_no_ally(simcord_env: simcord.Env) -> None:
    t = await _allied_table(simcord_env)
    await t.players[HARKONNEN].slash(t.table, "ally-pay", amount=3)
    withdrawn = await t.players[HARKONNEN].slash(t.table, "ally-pay", amount=0)
    assert "no longer pay toward Atreides' shipment" in text_of(withdrawn)
    assert "no longer offers" in t.private(ATREIDES).last_message.content
    assert t.bot.app.ally_offer(t.game_id, ATREIDES) is None
    alone = await t.players[EMPEROR].slash(t.table, "ally-pay", amount=2)
    assert is_ephemeral(alone)
    assert text_of(alone) == (
        "Refused: Emperor has no ally in this game, so there is no one to pay for."
    )
    outsider = await t.outsider.slash(t.table, "ally-pay", amount=2)
    assert is_ephemeral(outsider) and "hold no seat" in text_of(outsider)
    assert all(isinstance(e, SessionError) for e in refusals(simcord_env))


async def test_a_withdrawn_offer_is_not_taken_at_confirm(simcord_env: simcord.Env) -> None:
    t = await _allied_table(simcord_env)
    atreides, harkonnen = t.players[ATREIDES], t.players[HARKONNEN]
    await harkonnen.slash(t.table, "ally-pay", amount=3)
    preview = await atreides.slash(t.table, "ship", to="Arrakeen", forces=2)
    assert "Harkonnen pays 2 of it" in preview.response.content
    await harkonnen.slash(t.table, "ally-pay", amount=0)
    confirmed = await atreides.click(preview.response.message, label="Confirm")
    text = text_of(confirmed)
    assert is_ephemeral(confirmed) and text.startswith("Refused: Harkonnen's offer changed")
    assert "Harkonnen now pays 0 of this shipment, not 2; you would pay 2" in text
    assert t.state().factions[HARKONNEN].spice == 10  # nothing was shipped
    assert t.state().factions[ATREIDES].spice == 10 and t.state().to_act() is ATREIDES
    again = await atreides.slash(t.table, "ship", to="Arrakeen", forces=2)
    assert "Ally payment" not in again.response.content
    await atreides.click(again.response.message, label="Confirm")
    assert t.state().factions[ATREIDES].spice == 8
    assert t.state().factions[HARKONNEN].spice == 10
    assert all(isinstance(e, SessionError) for e in refusals(simcord_env))


async def test_a_named_payment_above_the_new_offer_is_refused_at_confirm(
    simcord_env: simcord.Env,
) -> None:
    t = await _allied_table(simcord_env)
    atreides, harkonnen = t.players[ATREIDES], t.players[HARKONNEN]
    await harkonnen.slash(t.table, "ally-pay", amount=3)
    preview = await atreides.slash(t.table, "ship", to="Arrakeen", forces=4, ally_pays=3)
    await harkonnen.slash(t.table, "ally-pay", amount=1)
    confirmed = await atreides.click(preview.response.message, label="Confirm")
    assert "offered 1 spice toward this shipment, not 3" in text_of(confirmed)
    assert t.state().factions[HARKONNEN].spice == 10


async def test_a_correction_keeps_the_allies_offers(simcord_env: simcord.Env) -> None:
    t = await _allied_table(simcord_env)
    await t.players[HARKONNEN].slash(t.table, "ally-pay", amount=3)
    await t.moderator.slash(t.table, "mod set-storm", sector=7)
    assert t.state().storm_sector == 7
    offer = t.bot.app.ally_offer(t.game_id, ATREIDES)
    assert offer is not None and offer.amount == 3
    preview = await t.players[ATREIDES].slash(t.table, "ship", to="Arrakeen", forces=2)
    assert "Harkonnen pays 2 of it (offered up to 3" in preview.response.content
