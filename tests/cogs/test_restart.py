"""Buttons keep working after a restart; a whole phase played by six users, with a
restart in the middle, and no private data in any public or spectator message."""

from __future__ import annotations

import re

import simcord

from bot.session.windows import is_window
from rules.actions import Decline
from rules.factions import Faction
from tests.cogs.buttons import button_for
from tests.cogs.conftest import Bots, Table, make_table

PRIVATE_MARKS = ("You hold", "You may", "Preview", "Your spice", "Cards:", "Deadline:")


async def restart(t: Table, bots: Bots) -> None:
    """Stop the application and its store, then start a new one on the same file."""
    await t.bot.app.stop()
    await t.bot.app.store.close()
    await t.env.restart_bot(await bots.new())


async def test_prompt_button_after_restart(simcord_env: simcord.Env, bots: Bots) -> None:
    t = await make_table(simcord_env)
    guild = Faction.SPACING_GUILD
    prompt = t.private(guild).last_message
    await restart(t, bots)
    result = await t.players[guild].click(prompt, label="Decline")
    assert (result.followups or [result.response])[-1].content == "Declined."
    assert t.state().public_view().prompts == ()
    assert "Waiting for Bene Gesserit to ship." in t.table.last_message.content
    closed = next(m for m in t.private(guild).history() if m.id == prompt.id)
    assert closed.content.endswith("**Closed: you declined.**") and closed.components == []


async def _answer_prompts(t: Table, bots: Bots) -> None:
    """Every faction asked says no to the open stage; a window then runs its time."""
    wait = t.session.current_wait()
    kinds = {p.kind.value for p in t.state().open_prompts()}
    for faction in wait.factions:
        found = button_for(t, faction, lambda a: isinstance(a, Decline) and a.prompt in kinds)
        if found is not None:
            await t.players[faction].click(found[0], custom_id=found[1])
    await t.session.until_idle()
    if is_window(t.state().open_prompts()):
        left = (t.session.deadline.at - bots.clock.now()).total_seconds()
        await bots.clock.advance(left + 1, settle=t.session.next_idle)
        await t.env.settle()


async def _take_turn(t: Table, faction: Faction) -> None:
    player = t.players[faction]
    if t.state().public_view().step == "ship":
        choices = await player.autocomplete(t.table, "ship", "to", "", forces=1)
        if choices and t.state().factions[faction].reserves:
            to = choices[0]["value"]
            sectors = await player.autocomplete(t.table, "ship", "sector", "", to=to, forces=1)
            options = {"sector": sectors[0]["value"]} if sectors else {}
            preview = await player.slash(t.table, "ship", to=to, forces=1, **options)
            await player.click(preview.response.message, label="Confirm")
        else:
            await player.slash(t.table, "pass")
    else:
        await player.slash(t.table, "pass", step="movement")


async def test_full_phase_with_restart_and_no_leaks(simcord_env: simcord.Env, bots: Bots) -> None:
    t = await make_table(simcord_env, maps="turn")
    await t.moderator.slash(t.table, "mod card", faction="atreides", card="Karama")
    restarted = False
    for _ in range(200):
        view = t.state().public_view()
        if view.phase_complete:
            break
        if view.prompts:
            await _answer_prompts(t, bots)
        else:
            assert view.to_act is not None
            await _take_turn(t, view.to_act)
        if len(view.done) == 3 and not restarted:
            await restart(t, bots)
            restarted = True
    assert restarted and t.state().public_view().phase_complete
    told = [m.content for m in t.table.history()[-2:]]
    assert "The Shipment & Movement phase is over." in told[0]
    assert told[1].startswith("The game is finished.")
    _assert_no_leaks(t)


def _assert_no_leaks(t: Table) -> None:
    public = [*t.table.history(), *t.spectators.history()]
    assert public
    secrets = {
        str(line)
        for f in Faction
        for m in t.private(f).history()
        for line in m.content.splitlines()
        if re.search(r"\d", line) and ("spice" in line or "You" in line)
    }
    for message in public:
        for mark in PRIVATE_MARKS:
            assert mark not in message.content, message.content
        for secret in secrets:
            assert secret not in message.content
        for line in message.content.splitlines():  # Karama is only named by open windows
            assert "Karama" not in re.sub(r"Karama (window|stop)", "", line), line
        for attachment in message.attachments:  # the map, and a turn's close-up for phones
            assert attachment.filename in ("map.png", "closeup.png")
            if attachment.filename == "closeup.png":
                assert attachment.description.startswith("Close-up of ")
    shipments = [m for m in t.table.history() if "ships 1 force" in m.content]
    assert shipments and not any(re.search(r"spice \(\d+ left", m.content) for m in shipments)
    maps = [m for m in t.spectators.history() if m.attachments]
    assert maps
