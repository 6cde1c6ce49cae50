"""Secret windows and prompts offered together (issue 11, docs/windows.md): a real store,
the session and a fake clock. The example phase: the Guild may act first; Harkonnen ships
to Carthag paying the Guild, which opens a Karama window on that payment, the Guild's
stop and, after them, the Bene Gesserit's advisor."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.orders import StandingOrders
from bot.publisher import PrivateNotice
from bot.words.refusals import PromptClosedError, SessionError
from rules.actions import Advise, Decline, KaramaCancel, action_from_dict
from rules.board import POLAR_SINK
from rules.errors import RulesError
from rules.factions import Faction
from rules.model import Ability
from tests.bot.test_session import TIMING, Table, scenario

ATREIDES, BG, FREMEN = Faction.ATREIDES, Faction.BENE_GESSERIT, Faction.FREMEN
GUILD, HARKONNEN = Faction.SPACING_GUILD, Faction.HARKONNEN
WINDOW = 5 * 60  # the default window time, in seconds
SHIP = scenario()["actions"][0]  # Harkonnen ships 2 to Carthag, paying the Guild


def names(notice: PrivateNotice) -> set[str]:
    """The kinds of the concrete actions a prompt's buttons submit."""
    return {a.action.name for a in notice.answers}


def declined(notice: PrivateNotice) -> set[str]:
    """The prompts a message's decline buttons answer (one per prompt it asks)."""
    return {a.action.prompt for a in notice.answers if isinstance(a.action, Decline)}


def with_cards(**cards: list[str]) -> dict[str, Any]:
    data = scenario()
    for faction, held in cards.items():
        data["factions"][faction]["cards"] = held
    return data


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    t = Table(tmp_path / "mentat.db")
    try:
        yield t
    finally:
        await t.close()


async def ship(table: Table) -> None:
    """The Guild says no to acting first (if still asked); Harkonnen ships: the window
    opens."""
    assert table.session is not None and table.session.state is not None
    if table.session.state.open_prompts():
        await table.submit(Decline(GUILD, "guild_timing"))
    await table.submit(action_from_dict(SHIP))


def prompts_to(table: Table, faction: Faction) -> list[Any]:
    return [n for n in table.publisher.private_for(faction) if n.token is not None]


def kinds_open(table: Table) -> list[str]:
    assert table.session is not None and table.session.state is not None
    return [p.kind.value for p in table.session.state.open_prompts()]


def polar_sink(table: Table) -> int:
    assert table.session is not None and table.session.state is not None
    return table.session.state.stack(BG, POLAR_SINK, None).forces


async def test_only_who_can_act_is_asked(table: Table) -> None:
    await table.open(with_cards(bene_gesserit=[]))
    await table.submit(Decline(GUILD, "guild_timing"))
    before = {f: len(prompts_to(table, f)) for f in Faction}
    await ship(table)
    asked = {f for f in Faction if len(prompts_to(table, f)) > before[f]}
    assert asked == {ATREIDES, BG}  # Atreides' Karama card; the Bene Gesserit's advisor
    atreides = prompts_to(table, ATREIDES)[-1]
    assert names(atreides) == {"karama_cancel", "decline"}
    bg = prompts_to(table, BG)[-1]
    assert declined(bg) == {"advise"}  # no card: not asked about the window
    assert table.session is not None
    wait = table.session.current_wait()
    assert wait is not None and set(wait.factions) == {ATREIDES, BG}


async def test_a_window_nobody_can_act_in_runs_exactly_its_time(table: Table) -> None:
    session = await table.open(with_cards(atreides=["Hajr"], bene_gesserit=[]))
    await session.set_orders(BG, StandingOrders(advise="never"))
    await table.submit(Decline(GUILD, "guild_timing"))
    before = {f: len(prompts_to(table, f)) for f in Faction}
    await ship(table)
    assert {f for f in Faction if len(prompts_to(table, f)) > before[f]} == set()
    assert kinds_open(table)[0] == "karama"
    await table.advance(WINDOW - 1)
    assert kinds_open(table)[0] == "karama"
    await table.advance(2)
    assert kinds_open(table) == []
    assert "The window for the others' answers closes." in table.public_text()
    assert "Time ran out" not in table.public_text()  # a window's normal end, not a default


async def test_a_holders_decline_does_not_shorten_the_window(table: Table) -> None:
    session = await table.open(with_cards(bene_gesserit=[]))
    await session.set_orders(BG, StandingOrders(advise="never"))
    await ship(table)
    logged = session._seq
    result = await table.submit(Decline(ATREIDES, "karama"))
    assert result.events == () and session._seq == logged  # kept privately, never logged
    with pytest.raises(SessionError, match="already answered") as twice:
        await table.submit(Decline(ATREIDES, "karama"))  # twice
    assert not isinstance(twice.value, PromptClosedError)  # its other choices stay open
    wait = session.current_wait()
    assert wait is not None and ATREIDES not in wait.factions
    await table.advance(WINDOW - 1)
    assert kinds_open(table)[0] == "karama"
    await table.advance(2)
    assert kinds_open(table) == []


async def test_a_karama_played_closes_the_window_at_once(table: Table) -> None:
    await table.open(with_cards(bene_gesserit=[]))
    await ship(table)
    await table.submit(KaramaCancel(ATREIDES, Ability.GUILD_PAYMENT))
    assert "karama" not in kinds_open(table)
    assert "Atreides plays Karama" in table.public_text()


async def test_the_bene_gesserit_get_one_message_and_an_early_advisor_waits_for_its_stage(
    table: Table,
) -> None:
    await table.open(with_cards(bene_gesserit=["Kulon"]))  # worthless: a Karama for them
    before = len(prompts_to(table, BG))
    await ship(table)
    (message,) = prompts_to(table, BG)[before:]
    assert {"karama", "advise"} <= declined(message)
    assert {"karama_cancel", "advise"} <= names(message)
    sink = polar_sink(table)
    result = await table.submit(Advise(BG, POLAR_SINK))  # ahead of its stage
    assert result.events == () and polar_sink(table) == sink
    assert kinds_open(table)[0] == "karama"  # the window still runs
    assert len(prompts_to(table, BG)) == before + 1  # no second message
    await table.advance(WINDOW + 1)
    assert polar_sink(table) == sink + 1  # applied when its stage opened
    assert "karama" in kinds_open(table)  # a new window: the advisor's ✷ ability


async def test_an_early_answer_survives_a_restart(table: Table) -> None:
    await table.open(with_cards(bene_gesserit=["Kulon"]))
    await ship(table)
    sink = polar_sink(table)
    await table.submit(Advise(BG, POLAR_SINK))
    await table.advance(60)
    await table.close()
    await table.open()
    await table.advance(WINDOW - 60 + 1)
    assert polar_sink(table) == sink + 1


async def test_a_standing_never_spares_a_holder_the_question(table: Table) -> None:
    session = await table.open(with_cards(bene_gesserit=[]))
    await session.set_orders(ATREIDES, StandingOrders(karama="never"))
    before = len(prompts_to(table, ATREIDES))
    await ship(table)
    assert len(prompts_to(table, ATREIDES)) == before
    await table.advance(WINDOW - 1)
    assert kinds_open(table)[0] == "karama"  # the window runs its time all the same


async def play_and_tell(table: Table, cards: dict[str, list[str]]) -> str:
    """The same phase start with different hands: every holder says no, time runs."""
    await table.open(with_cards(**cards))
    await ship(table)
    for faction in (ATREIDES, BG):
        for kind in ("karama", "guild_stop"):
            try:
                await table.submit(Decline(faction, kind))
            except (RulesError, SessionError):  # nothing of that kind waits on it
                continue
    await table.advance(WINDOW + 1)
    await table.submit(Decline(BG, "advise"))
    await table.advance(WINDOW + 1)
    return table.public_text().replace(str(table.game_id), "#")


async def test_the_public_text_and_times_never_tell_who_may_answer(tmp_path: Path) -> None:
    told = []
    for i, cards in enumerate(
        [
            {"atreides": ["Karama", "Hajr"], "bene_gesserit": ["Kulon"]},
            {"atreides": ["Lasgun", "Hajr"], "bene_gesserit": ["Lasgun"]},
        ]
    ):
        table = Table(tmp_path / f"game-{i}.db")
        try:
            told.append(await play_and_tell(table, cards))
        finally:
            await table.close()
    assert told[0] == told[1]
    assert "The window closes <t:" in told[0]
    for words in ("Atreides may", "Fremen may", "Guild may stop", "any other faction"):
        assert words not in told[0]


def test_the_window_time_is_a_setting() -> None:
    assert TIMING.window.total_seconds() == WINDOW


async def test_one_factions_time_in_a_window_is_refused_and_changes_nothing(table: Table) -> None:
    """A stage of prompts asking several factions is a secret window here: it is timed as
    one, and naming one faction's time would tell the table who may act in it."""
    await table.open(with_cards(bene_gesserit=[]))
    await table.submit(Decline(GUILD, "guild_timing"))
    await ship(table)
    assert table.session is not None
    wait = table.session.current_wait()
    assert wait is not None and set(wait.factions) == {ATREIDES, BG}
    at, told = table.session.deadline.at, len(table.publisher.public_notices)
    with pytest.raises(SessionError, match="the open prompts are timed together"):
        await table.session.extend(1, timedelta(minutes=30), ATREIDES)
    assert table.session.deadline.at == at
    assert len(table.publisher.public_notices) == told
    assert table.session.settings.timers.extended == {}
