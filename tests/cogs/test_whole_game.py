"""/game new makes a whole game by default; /mod record records the phases the moderators
run, previewed and confirmed, by the game's moderators only."""

from __future__ import annotations

import re
from typing import Any

import simcord

from bot.session.session import SessionError
from rules.actions import FactionAction, Pass
from rules.battle.actions import KeepTraitor
from rules.choam_charity.actions import ClaimCharity
from rules.errors import NotYourTurnError, RulesError
from rules.factions import Faction
from rules.game_model import GamePhase
from rules.storm.actions import Dial
from tests.cogs.conftest import Bots, Table, is_ephemeral, make_table, refusals, text_of

ATREIDES, HARKONNEN = Faction.ATREIDES, Faction.HARKONNEN
SEATS = "atreides,harkonnen,fremen"


def everything(t: Table) -> list[str]:
    """Every message of every channel of the guild, as it reads now."""
    return [m.content for channel in t.guild.channels.values() for m in channel.history()]


async def to_bidding(t: Table) -> None:
    """The players answer every choice (a traitor, a placement, dials) until bidding."""
    for n in range(60):
        state = t.state()
        if state.game_phase is GamePhase.BIDDING:
            return
        faction = state.waiting_on()[0]
        legal = list(state.legal_actions(faction))
        action: FactionAction = next(
            (a for a in legal if isinstance(a, KeepTraitor | Dial | ClaimCharity | Pass)), legal[0]
        )
        await t.session.submit(faction, action, actor=1, key=f"to-bidding-{n}")
    raise AssertionError("bidding never came")


async def test_game_new_makes_a_whole_game_by_default(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env, kind="whole_game", seats=SEATS)
    state = t.state()
    assert state.game_phase is GamePhase.SETUP
    assert "A new game of Dune begins" in "\n".join(m.content for m in t.table.history())
    prompt = t.private(ATREIDES).last_message.content
    assert "keep one traitor" in prompt and "keep_traitor" not in prompt
    seed = str(state.whole.chance.seed)
    assert not [text for text in everything(t) if seed in text]
    assert not any(re.search(r"\bseed\b", text, re.I) for text in everything(t))


async def test_game_start_says_the_game_is_running(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env, kind="whole_game", seats=SEATS, start=False)
    result = await t.moderator.slash(t.table, "game start")
    assert text_of(result) == "The game is running."


async def test_a_record_is_previewed_confirmed_and_announced(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env, kind="whole_game", seats=SEATS)
    await to_bidding(t)
    spice = t.state().factions[ATREIDES].spice
    preview = await t.moderator.slash(t.table, "mod record card", faction="atreides", price=2)
    assert preview.ephemeral and preview.response.content.startswith("**Preview**")
    assert len(t.state().factions[ATREIDES].cards) == 1  # nothing recorded yet
    confirmed = await t.moderator.click(preview.response.message, label="Confirm")
    assert text_of(confirmed) == "Done: recorded and announced."
    assert len(t.state().factions[ATREIDES].cards) == 2
    assert t.state().factions[ATREIDES].spice == spice - 2
    assert "Recorded by" in t.table.last_message.content
    cancel = await t.moderator.slash(t.table, "mod record done")
    assert "The Bidding phase is over." in cancel.response.content  # the preview says so
    dropped = await t.moderator.click(cancel.response.message, label="Cancel")
    assert "Cancelled" in text_of(dropped)
    assert t.state().game_phase is GamePhase.BIDDING
    done = await t.moderator.slash(t.table, "mod record done")
    await t.moderator.click(done.response.message, label="Confirm")
    # the engine runs the Revival phase: it waits only for factions with something to decide
    assert t.state().game_phase in (GamePhase.REVIVAL, GamePhase.SHIPMENT_MOVEMENT)
    assert "Turn 1: the Revival phase begins." in "\n".join(m.content for m in t.table.history())


async def test_records_refused_to_players_outsiders_and_ex_moderators(
    simcord_env: simcord.Env,
) -> None:
    t = await make_table(simcord_env, kind="whole_game", seats=SEATS)
    await to_bidding(t)
    before = t.state().to_dict()
    for who in (t.players[ATREIDES], t.outsider):
        result = await who.slash(t.table, "mod record card", faction="atreides", price=1)
        assert is_ephemeral(result) and "moderators" in text_of(result)
    preview = await t.moderator.slash(t.table, "mod record card", faction="atreides", price=1)
    await t.bot.app.store.remove_moderator(t.game_id, t.moderator.id)
    late = await t.moderator.click(preview.response.message, label="Confirm")
    assert "moderators" in text_of(late)
    assert t.state().to_dict() == before
    assert all(isinstance(e, SessionError) for e in refusals(simcord_env))


async def test_a_record_confirmed_twice_is_recorded_once(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env, kind="whole_game", seats=SEATS)
    await to_bidding(t)
    preview = await t.moderator.slash(t.table, "mod record card", faction="harkonnen", price=1)
    cards = len(t.state().factions[HARKONNEN].cards)
    simcord_env.inject_error("PATCH", "/webhooks/*/messages/@original", status=503, times=1)
    await t.moderator.click(preview.response.message, label="Confirm")
    once = t.state().to_dict()
    assert len(t.state().factions[HARKONNEN].cards) == cards + 2  # and the Harkonnen's free one
    again = await t.moderator.click(preview.response.message, label="Confirm")
    assert "This preview has closed" in text_of(again)
    assert t.state().to_dict() == once


async def test_wrong_phase_and_junk_records_are_refused(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env, kind="whole_game", seats=SEATS)
    early = await t.moderator.slash(t.table, "mod record card", faction="atreides", price=1)
    assert is_ephemeral(early) and "(rule 0.00)" in text_of(early)  # set-up takes no record
    await to_bidding(t)
    before = t.state().to_dict()
    junk: list[tuple[str, dict[str, Any]]] = [
        ("mod record losses", {"faction": "atreides", "territory": "N" * 1900, "forces": 1}),
        ("mod record leader", {"faction": "atreides", "leader": "Nobody" * 300}),
        ("mod record card", {"faction": "atreides", "price": 200}),  # more than it holds
        ("mod record revival", {"faction": "atreides", "forces": 3}),  # not the revival phase
    ]
    for command, options in junk:
        result = await t.moderator.slash(t.table, command, **options)
        text = text_of(result)
        assert is_ephemeral(result) and text.startswith("Refused"), text
        assert len(text) <= 2000 and "N" * 100 not in text and "Nobody" * 20 not in text
    assert t.state().to_dict() == before
    errors = refusals(simcord_env)
    assert errors and all(isinstance(e, RulesError) for e in errors)
    assert any(isinstance(e, NotYourTurnError) for e in errors)


async def test_a_record_preview_from_before_a_restart_is_stale(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await make_table(simcord_env, kind="whole_game", seats=SEATS)
    await to_bidding(t)
    preview = await t.moderator.slash(t.table, "mod record card", faction="fremen", price=0)
    await t.bot.app.stop()
    await t.bot.app.store.close()
    await t.env.restart_bot(await bots.new())
    before = t.state().to_dict()  # the game, replayed from its log
    assert t.state().game_phase is GamePhase.BIDDING
    late = await t.moderator.click(preview.response.message, label="Confirm")
    assert "This preview has closed" in text_of(late) and late.ephemeral
    assert t.state().to_dict() == before


async def test_a_choice_prompt_s_pass_button_answers_it(simcord_env: simcord.Env) -> None:
    t = await make_table(simcord_env, kind="whole_game", seats=SEATS)
    await t.moderator.slash(t.table, "mod spice", faction="atreides", amount=0)
    for n in range(40):
        state = t.state()
        if state.game_phase is GamePhase.CHOAM_CHARITY:
            break
        faction = state.waiting_on()[0]
        legal = list(state.legal_actions(faction))
        action = next((a for a in legal if isinstance(a, KeepTraitor | Dial)), legal[0])
        await t.session.submit(faction, action, actor=1, key=f"to-charity-{n}")
    assert ATREIDES in t.state().waiting_on()  # with everyone: spice is secret
    prompt = t.private(ATREIDES).last_message
    assert "claim CHOAM Charity, up to 2 spice (`/charity`)" in prompt.content
    clicked = await t.players[ATREIDES].click(prompt, label="Pass")
    assert text_of(clicked) == "Passed."
    assert ATREIDES not in t.state().waiting_on()
    for faction in t.state().waiting_on():
        await t.session.submit(faction, Pass(faction), actor=1, key=f"decline-{faction.value}")
    assert t.state().game_phase is GamePhase.BIDDING
    assert t.state().factions[ATREIDES].spice == 0  # no charity claimed
    closed = [m for m in t.private(ATREIDES).history() if m.id == prompt.id]
    assert closed and "Closed: you passed." in closed[0].content and not closed[0].components
