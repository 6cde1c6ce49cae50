"""A deadline extended per faction (issue 25): in a choice every awaited faction answers,
the moderator gives one faction more time; the others get their defaults at the wait's
deadline, the extended one at its own; kept over a restart; a new wait clears it."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.session.session import SessionError
from bot.waits import CHOICE
from rules.factions import Faction
from rules.game_model import GamePhase
from tests.bot.test_session_whole_game import (
    MODERATOR,
    WholeTable,
    in_step,
    system_entries,
    table,
    until,
)

__all__ = ["table"]


async def at_the_dials(table: WholeTable) -> tuple[Faction, Faction]:
    await table.create()
    await until(table, in_step(table, "dial"))
    wait = table.session.current_wait()
    assert wait is not None and wait.kind == CHOICE and len(wait.factions) == 2
    first, second = wait.factions
    return first, second


def stamp_of(text: str) -> int:
    """The first Discord timestamp of ``text``."""
    start = text.index("<t:") + 3
    return int(text[start : text.index(":", start)])


async def dials(table: WholeTable, earlier: int) -> list[str]:
    return [
        str(d["faction"]) for d in (await system_entries(table))[earlier:] if d["action"] == "dial"
    ]


async def test_the_extended_faction_alone_is_waited_for_until_its_own_deadline(
    table: WholeTable,
) -> None:
    first, second = await at_the_dials(table)
    deadline = table.session.deadline.at
    assert deadline is not None
    earlier = len(await system_entries(table))
    await table.session.extend(MODERATOR, timedelta(minutes=30), first)
    own = int((deadline + timedelta(minutes=30)).timestamp())
    timers = table.session.settings.timers  # what /my-turns and the pings read
    assert timers.deadline_of(first) == deadline + timedelta(minutes=30)
    assert timers.deadline_of(second) == deadline
    said = table.public_text().splitlines()[-1]
    assert f"extended {first.label}'s time by 30 minutes" in said
    assert stamp_of(said) == own
    assert stamp_of(table.publisher.open_prompts_for(first)[-1].text.split("Deadline")[-1]) == own
    others = table.publisher.open_prompts_for(second)[-1].text.split("Deadline")[-1]
    assert stamp_of(others) == int(deadline.timestamp())
    await table.advance(61 * 60)  # the wait's deadline: the other dial only
    assert await dials(table, earlier) == [second.value]
    assert table.state.game_phase is GamePhase.STORM
    assert table.session.current_wait() is not None
    assert table.session.autopilot.missed == {second: 1}
    assert table.session.deadline.at == deadline + timedelta(minutes=30)
    reminders = [n.text for n in table.publisher.private_for(first) if "Reminder" in n.text]
    assert reminders and stamp_of(reminders[-1]) == own
    await table.advance(30 * 60)  # its own deadline
    assert await dials(table, earlier) == [second.value, first.value]
    assert table.state.game_phase is not GamePhase.STORM
    assert table.session.autopilot.missed.get(first) == 1
    assert table.session.extensions.now() == {}


async def test_an_extension_is_kept_over_a_restart_and_cleared_by_a_new_wait(
    table: WholeTable,
) -> None:
    first, second = await at_the_dials(table)
    earlier = len(await system_entries(table))
    await table.session.extend(MODERATOR, timedelta(minutes=45), second)
    await table.advance(30 * 60)
    await table.reopen()
    assert table.session.extensions.now() == {second: timedelta(minutes=45)}
    await table.advance(31 * 60)
    assert await dials(table, earlier) == [first.value]
    await table.reopen()  # past the wait's deadline: the extended one's own is kept
    await table.advance(40 * 60)
    assert await dials(table, earlier) == [first.value]
    await table.advance(6 * 60)
    assert await dials(table, earlier) == [first.value, second.value]
    assert table.session.settings.timers.extended == {}


async def test_an_extension_moves_with_a_pause_and_the_whole_wait(table: WholeTable) -> None:
    first, second = await at_the_dials(table)
    earlier = len(await system_entries(table))
    await table.session.extend(MODERATOR, timedelta(minutes=20), first)
    await table.session.pause(MODERATOR)
    await table.advance(3 * 60 * 60)
    assert await dials(table, earlier) == []
    await table.session.resume(MODERATOR)
    await table.session.extend(MODERATOR, timedelta(minutes=10))  # everyone's
    await table.advance(71 * 60)
    assert await dials(table, earlier) == [second.value]
    await table.advance(20 * 60)
    assert await dials(table, earlier) == [second.value, first.value]


async def test_bad_extensions_are_refused_and_change_nothing(table: WholeTable) -> None:
    first, second = await at_the_dials(table)
    others = [f for f in table.state.factions if f not in (first, second)]
    before = (table.session.deadline.at, table.session.settings.timers)
    told = len(table.publisher.public_notices)
    with pytest.raises(SessionError, match=f"does not wait on {others[0].label} now"):
        await table.session.extend(MODERATOR, timedelta(minutes=30), others[0])
    with pytest.raises(SessionError, match="from 1 minute to 7 days"):
        await table.session.extend(MODERATOR, timedelta(minutes=-5), first)
    with pytest.raises(SessionError, match="from 1 minute to 7 days"):
        await table.session.extend(MODERATOR, timedelta(days=8), first)
    assert (table.session.deadline.at, table.session.settings.timers) == before
    assert len(table.publisher.public_notices) == told
    assert table.session.extensions.now() == {}


async def test_a_wait_on_one_faction_extended_by_name_is_the_whole_wait(
    table: WholeTable,
) -> None:
    await table.create()
    await until(table, lambda: len(table.state.waiting_on()) == 1)
    wait = table.session.current_wait()
    assert wait is not None
    at = table.session.deadline.at
    assert at is not None
    await table.session.extend(MODERATOR, timedelta(minutes=15), wait.factions[0])
    assert table.session.deadline.at == at + timedelta(minutes=15)
    assert table.session.extensions.now() == {}
