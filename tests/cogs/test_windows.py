"""Issue 11 through Discord: the prompts a shipment raises, offered in one message per
faction (the demo phase's position: Harkonnen ships to Carthag paying the Guild; Atreides
hold Karama, the Bene Gesserit a worthless card)."""

from __future__ import annotations

import json

import discord
import simcord

from rules.factions import Faction
from tests.cogs.conftest import Bots, Table, is_ephemeral, make_table, text_of
from tests.cogs.test_clicks import demo

ATREIDES, BG, GUILD = Faction.ATREIDES, Faction.BENE_GESSERIT, Faction.SPACING_GUILD
HARKONNEN = Faction.HARKONNEN


def labels(message: discord.Message) -> list[str]:
    return [c["label"] for row in message.components for c in row.to_dict()["components"]]


def latest(t: Table, faction: Faction) -> discord.Message:
    return next(m for m in reversed(t.private(faction).history()) if m.components)


def now(t: Table, faction: Faction, old: discord.Message) -> discord.Message:
    return next(m for m in t.private(faction).history() if m.id == old.id)


async def test_one_message_with_every_choice_answered_in_parallel(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await make_table(simcord_env, start=False)
    position = json.dumps({k: v for k, v in demo().items() if k != "actions"})
    await t.moderator.slash(t.table, "game start", position=("demo.json", position.encode()))
    await t.players[GUILD].click(latest(t, GUILD), label="Decline")
    seen = {f: len(t.private(f).history()) for f in t.state().factions}
    preview = await t.players[HARKONNEN].slash(t.table, "ship", to="Carthag", sector=10, forces=2)
    await t.players[HARKONNEN].click(preview.response.message, label="Confirm")
    new = {f for f in seen if len(t.private(f).history()) > seen[f]}
    assert new == {ATREIDES, BG}  # the Guild, Emperor, Fremen, Harkonnen hold no Karama
    bg = latest(t, BG)
    assert labels(bg) == [
        "Cancel it with Karama",
        "Decline: Karama",
        "Advise to the Polar Sink",
        "Advise to Carthag (sector 10)",
        "Decline: advisor",
    ]
    result = await t.players[BG].click(bg, label="Advise to Carthag (sector 10)")
    assert is_ephemeral(result) and text_of(result).startswith("Noted: ")
    assert labels(now(t, BG, bg)) == ["Cancel it with Karama", "Decline"]
    assert t.state().stack(BG, "Carthag", 10).advisors == 0  # kept: the window runs
    assert t.state().open_prompts()[0].kind.value == "karama"
    left = (t.session.deadline.at - bots.clock.now()).total_seconds()
    await bots.clock.advance(left + 1, settle=t.session.next_idle)
    await t.env.settle()
    assert t.state().stack(BG, "Carthag", 10).advisors == 1  # applied when its stage opened
    assert now(t, BG, bg).components == []  # the message closed, saying how
    assert "**Closed:" in now(t, BG, bg).content
    window = t.state().open_prompts()
    assert window and window[0].ability.value == "spiritual_advisors"
    assert "Cancel it with Karama" in labels(latest(t, ATREIDES))  # asked anew
