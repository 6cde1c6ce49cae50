"""Issue 25, reliability through Discord: ``/profile`` tells a player's record in words,
from the game's own log (a deadline missed, a seat abandoned), and a game that requires a
level refuses a seat below it, naming the level."""

from __future__ import annotations

import simcord

from bot.seats.reliability import ReliabilityError
from rules.factions import Faction
from tests.cogs.conftest import Bots, is_ephemeral, make_table, refusals, text_of
from tests.cogs.faults import STEP, advance, step

BG = Faction.BENE_GESSERIT


async def test_a_missed_deadline_and_an_abandoned_seat_show_in_the_profile(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await make_table(simcord_env)
    await t.players[Faction.SPACING_GUILD].click(
        t.private(Faction.SPACING_GUILD).last_message, label="Decline"
    )
    await advance(t, bots, STEP + 1)  # Bene Gesserit's shipment: time ran out
    assert step(t) == ("bene_gesserit", "move")
    player = t.players[BG]
    result = await t.outsider.slash(t.lobby, "profile", player=player)
    assert is_ephemeral(result)
    text = text_of(result)
    assert text.startswith(f"<@{player.id}> is **New** in this server.")
    assert "- Games: 1 played, 0 finished." in text
    assert "- Deadlines: 1 missed of 1 (answered in time 0)." in text
    assert "- Seats abandoned: 0." in text
    assert "Unreliable when more than 1 in 4 of the deadlines were missed" in text
    await t.moderator.slash(t.table, "game seat", player=t.outsider, faction="bene_gesserit")
    mine = text_of(await player.slash(t.lobby, "profile"))  # their own, by default
    assert "- Seats abandoned: 1." in mine
    guild = text_of(
        await t.outsider.slash(t.lobby, "profile", player=t.players[Faction.SPACING_GUILD])
    )
    assert "- Deadlines: 0 missed of 1 (answered in time 1)." in guild
    assert "- Median time to answer: less than a minute." in guild


async def test_a_game_requiring_reliable_players_refuses_a_new_one_by_name(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env, required_level="reliable")
    assert not (await t.bot.app.seats(t.game_id))  # every player is New: nobody seated
    refused = await t.moderator.slash(
        t.table, "game seat", player=t.players[BG], faction="bene_gesserit"
    )
    assert text_of(refused) == (
        f"Refused: game #{t.game_id} seats only Reliable players, and "
        f"<@{t.players[BG].id}> is New in this server (0 games played, 0 finished; 0 of 0 "
        "deadlines missed; 0 seats abandoned; `/profile` shows it)."
    )
    assert all(isinstance(e, ReliabilityError) for e in refusals(simcord_env))
    lenient = await make_table(simcord_env, required_level="not_unreliable")
    assert len(await lenient.bot.app.seats(lenient.game_id)) == 6  # New players may sit
