"""Issue 25, autopilot: after N deadlines missed in a row a faction plays its defaults at
once, the table is told once and the moderators asked to find a substitute; `/back`, an
action of its player or a new player takes it off; a game in which every faction is on
autopilot pauses and is reported stalled instead of playing itself."""

from __future__ import annotations

import simcord

from rules.factions import Faction
from tests.cogs.conftest import Bots, Table, refusals, text_of
from tests.cogs.faults import STEP, advance, texts
from tests.cogs.turn_helpers import done, set_up_by_commands, whole_table

ON = "missed a deadline: from now on the game answers for them at once"


def said(channel: simcord.ChannelHandle, part: str) -> list[str]:
    return [m for m in texts(channel) if part in m]


async def dials_in_but(t: Table) -> Faction:
    """Set-up done, the storm's first dial in: the faction whose dial the game awaits."""
    await set_up_by_commands(t)
    first, second = t.state().waiting_on()
    await done(t, first, "dial", value=3)
    return second


async def test_a_faction_that_misses_a_deadline_is_answered_for_at_once(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await whole_table(simcord_env, autopilot_after=1)
    late = await dials_in_but(t)
    await advance(t, bots, STEP + 1)  # its dial runs out: the default, and autopilot
    assert t.state().game_phase.value != "storm"
    assert len(said(t.table, f"{late.label} {ON}")) == 1
    mods = t.channel("dune-moderators")
    assert said(mods, f"Find them a substitute: `/substitute open faction:{late.value}`.")
    assert t.session.autopilot.on(late)
    before = t.bot.app.clock.now()
    waits = 0
    while late not in t.state().waiting_on() and waits < 6 and t.state().waiting_on():
        # the others answer; the late faction is never waited on
        for faction in t.state().waiting_on():
            await t.session.submit(
                faction,
                next(iter(t.state().legal_actions(faction))),
                actor=t.players[faction].id,
                key=f"test-{waits}-{faction.value}",
            )
        waits += 1
    assert late not in t.state().waiting_on()
    assert t.bot.app.clock.now() == before  # no deadline ran for it
    assert len(said(t.table, ON)) == 1  # told once


async def test_back_takes_a_faction_off_autopilot(simcord_env: simcord.Env, bots: Bots) -> None:
    t = await whole_table(simcord_env, autopilot_after=1)
    late = await dials_in_but(t)
    player = t.players[late]
    not_on = await t.players[next(f for f in t.state().factions if f is not late)].slash(
        t.table, "back"
    )
    assert text_of(not_on).startswith("Refused: ") and "is not on autopilot" in text_of(not_on)
    await advance(t, bots, STEP + 1)
    outsider = await t.outsider.slash(t.table, "back")
    assert text_of(outsider) == f"Refused: you hold no seat in game #{t.game_id}."
    back = await player.slash(t.table, "back")
    assert text_of(back) == f"Welcome back: the game waits for {late.label} again."
    assert not t.session.autopilot.on(late)
    assert said(t.table, f"{late.label} is off autopilot: the game waits for their player again.")
    again = await player.slash(t.table, "back")  # twice: refused, nothing said twice
    assert "is not on autopilot" in text_of(again)
    assert len(said(t.table, "is off autopilot")) == 1
    assert len(refusals(simcord_env)) == 3


async def test_autopilot_outlives_a_restart(simcord_env: simcord.Env, bots: Bots) -> None:
    t = await whole_table(simcord_env, autopilot_after=1)
    late = await dials_in_but(t)
    await advance(t, bots, STEP + 1)
    settings = await t.bot.app.store.settings(t.game_id)
    assert settings.timers.missed == {late: 1} and settings.seating.autopilot_after == 1


async def test_a_game_where_everyone_is_on_autopilot_pauses_as_stalled(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await whole_table(simcord_env, autopilot_after=1)
    await advance(t, bots, STEP + 1)  # the set-up runs out: all but the Harkonnen miss it
    assert t.session.deadline.paused_left is None
    left = [f for f in t.state().factions if not t.session.autopilot.on(f)]
    assert left == [Faction.HARKONNEN] and t.state().waiting_on() == (Faction.HARKONNEN,)
    waiting = t.state().waiting_on()
    await advance(t, bots, STEP + 1)  # the last one misses too: paused, not played out
    assert t.session.deadline.paused_left is not None
    stalled = f"Game #{t.game_id} is stalled: every faction is on autopilot, so it is paused."
    assert said(t.channel("dune-moderators"), stalled)
    assert t.state().waiting_on() == waiting  # nothing answered by itself
    await advance(t, bots, 5 * STEP)
    assert t.state().waiting_on() == waiting


async def test_without_the_setting_nobody_goes_on_autopilot(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await whole_table(simcord_env)
    late = await dials_in_but(t)
    await advance(t, bots, STEP + 1)
    assert not t.session.autopilot.on(late) and not said(t.table, ON)
