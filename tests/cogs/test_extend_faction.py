"""Issue 25: `/mod extend faction:` gives one awaited faction more time in a wait on
several (the storm dials): the other is defaulted at the wait's deadline, the extended one
at its own, which its prompt shows; a restart keeps it; junk and hostile use refused. And a
game without progress for its `stall_after_hours` is told to its moderators once a stall."""

from __future__ import annotations

import re

import pytest
import simcord
from simcord.backend.errors import OptionError

from rules.battle.view import traitor_secrets
from rules.factions import Faction
from tests.cogs.conftest import Bots, Table, is_ephemeral, refusals, text_of
from tests.cogs.faults import STEP, advance, texts
from tests.cogs.test_restart import restart
from tests.cogs.turn_helpers import done, set_up_by_commands, whole_table


def stamps(text: str) -> set[int]:
    return {int(s) for s in re.findall(r"<t:(\d+):[fR]>", text)}


def prompt_of(t: Table, faction: Faction) -> str:
    """The faction's last prompt message (its deadline), as it reads now."""
    return next(
        m.content for m in reversed(t.private(faction).history()) if "Deadline" in m.content
    )


async def at_the_dials(t: Table) -> tuple[Faction, Faction]:
    await set_up_by_commands(t)
    first, second = t.state().waiting_on()
    return first, second


async def test_one_faction_extended_in_the_dials_is_defaulted_at_its_own_deadline(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await whole_table(simcord_env)
    first, second = await at_the_dials(t)
    deadline = t.session.deadline.at
    own = int(deadline.timestamp()) + 2 * 3600
    result = await t.moderator.slash(t.table, "mod extend", minutes=120, faction=first.value)
    assert text_of(result) == f"Done: extended by 120 minutes for {first.label}."
    told = [m for m in texts(t.table) if f"extended {first.label}'s time by 2 hours" in m]
    assert len(told) == 1 and stamps(told[0]) == {own}
    assert "others' deadline stays as it was" in told[0]
    assert stamps(prompt_of(t, first).split("Deadline")[-1]) == {own}
    assert stamps(prompt_of(t, second).split("Deadline")[-1]) == {int(deadline.timestamp())}
    await advance(t, bots, STEP + 1)  # the wait's deadline: the other dial defaults
    assert t.state().game_phase.value == "storm"
    assert t.state().waiting_on() == (first,)
    assert any("Time ran out" in m for m in texts(t.private(second)))
    assert not any("Time ran out" in m for m in texts(t.private(first)))
    await restart(t, bots)
    assert t.state().waiting_on() == (first,)
    await advance(t, bots, 2 * 3600 - 120)
    assert t.state().waiting_on() == (first,)  # the restart kept its own deadline
    await advance(t, bots, 200)
    assert t.state().game_phase.value != "storm"
    assert any("Time ran out" in m for m in texts(t.private(first)))
    assert t.session.autopilot.missed == {first: 1, second: 1}


async def test_bad_and_hostile_extensions_are_refused_and_change_nothing(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await whole_table(simcord_env)
    first, second = await at_the_dials(t)
    other = next(f for f in t.state().factions if f not in (first, second))
    before = (t.session.deadline.at, len(texts(t.table)))
    not_awaited = await t.moderator.slash(t.table, "mod extend", minutes=30, faction=other.value)
    assert text_of(not_awaited).startswith(
        f"Refused: the game does not wait on {other.label} now (it waits on "
    )
    player = await t.players[first].slash(t.table, "mod extend", minutes=30, faction=first.value)
    assert is_ephemeral(player) and text_of(player).startswith("Refused:")
    await t.bot.app.store.remove_moderator(t.game_id, t.moderator.id)  # an ex-moderator
    ex = await t.moderator.slash(t.table, "mod extend", minutes=30, faction=first.value)
    assert text_of(ex).startswith("Refused:")
    await t.bot.app.store.add_moderator(t.game_id, t.moderator.id)
    for minutes in (-5, 0, 10081):  # Discord itself refuses them (the option's range)
        with pytest.raises(OptionError):
            await t.moderator.slash(t.table, "mod extend", minutes=minutes, faction=first.value)
    assert (t.session.deadline.at, len(texts(t.table))) == before
    assert t.session.extensions.now() == {}
    assert len(refusals(simcord_env)) == 3


async def test_a_faction_not_in_the_game_is_refused(simcord_env: simcord.Env) -> None:
    t = await whole_table(simcord_env, seats="atreides,-,emperor,fremen,harkonnen,-")
    assert len(t.state().waiting_on()) > 1
    result = await t.moderator.slash(
        t.table, "mod extend", minutes=30, faction=Faction.SPACING_GUILD.value
    )
    assert text_of(result) == "Refused: Spacing Guild does not play in this game."
    assert t.session.extensions.now() == {}
    assert len(refusals(simcord_env)) == 1


async def test_a_stalled_game_is_told_once_then_again_after_progress(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t = await whole_table(simcord_env, stall_after_hours=4)
    mods = t.channel("dune-moderators")
    pinger = t.bot.app.pinger
    await pinger.tick()  # the first look
    await t.moderator.slash(t.table, "mod pause")
    await advance(t, bots, 4 * 3600)
    await pinger.tick()
    stalled = [m for m in texts(mods) if "has made no progress for 4 hours" in m]
    assert len(stalled) == 1
    assert stalled[0].startswith(f"Game #{t.game_id} has made no progress for 4 hours: it waits on")
    assert "paused by a moderator since <t:" in stalled[0]
    await advance(t, bots, 3600)
    await pinger.tick()
    assert len([m for m in texts(mods) if "made no progress" in m]) == 1  # once
    await t.moderator.slash(t.table, "mod resume")
    await done(t, Faction.ATREIDES, "traitor keep", leader=_offered(t, Faction.ATREIDES))
    await pinger.tick()  # progress seen
    await advance(t, bots, 3 * 3600)
    await pinger.tick()
    assert len([m for m in texts(mods) if "made no progress" in m]) == 1
    await advance(t, bots, 3600)
    await pinger.tick()
    assert len([m for m in texts(mods) if "made no progress" in m]) == 2  # a new stall


def _offered(t: Table, faction: Faction) -> str:
    return traitor_secrets(t.state().view_for(faction).secrets).traitors_offered[0]
