"""The spectators' record and the phase's opening, through the session (issue 11): a
message per turn, a summary read from the log's actions in effect (an undone action is not
counted, a Karama's retake counts once), a restart loses nothing of a turn under way; a
whole game's Shipment & Movement phase opens with its seats, storm and deadline."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.delivery import Job
from bot.publisher import PublicNotice, fill_players, player
from rules.errors import IllegalActionError
from rules.factions import Faction
from rules.game_model import GamePhase
from tests.bot.test_session import TIMING, Table, scenario
from tests.bot.test_session_whole_game import WholeTable, answer_set_up, until

HARKONNEN, FREMEN = Faction.HARKONNEN, Faction.FREMEN


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    t = Table(tmp_path / "mentat.db")
    try:
        yield t
    finally:
        await t.close()


@pytest.fixture
async def whole(tmp_path: Path) -> AsyncIterator[WholeTable]:
    t = WholeTable(tmp_path / "whole.db")
    try:
        yield t
    finally:
        await t.close()


def spectated(table: Table | WholeTable) -> list[str]:
    return [n.text for _, n in table.publisher.spectator_notices]


async def play_all(table: Table, skip: int = 0) -> None:
    for raw in scenario()["actions"][skip:]:
        try:
            await table.play(raw)
        except IllegalActionError as error:
            assert error.rule == "1.06.01"  # the example's one refused action


async def test_the_summary_counts_a_retaken_action_once_and_names_the_karama(
    table: Table,
) -> None:
    await table.open(scenario())
    await play_all(table)
    summary = next(t for t in spectated(table) if "phase in short" in t)
    fremen = next(line for line in summary.splitlines() if line.startswith("- Fremen: "))
    assert fremen.count("moved") == 1 and "to Bight Of The Cliff" in fremen  # as retaken
    assert "Funeral Plain" not in fremen  # the move the Karama cancelled
    assert "Karama played: Atreides plays Karama to cancel the Fremen move" in summary
    assert "- Harkonnen: shipped 2 forces to Carthag (sector 10); moved" in summary
    assert "paid 2 spice." in summary
    assert "Spice paid for shipments: 9 in all (8 to the Spacing Guild, 1 to the Spice Bank)." in (
        summary
    )


async def test_an_undone_shipment_leaves_the_turn_and_the_summary(table: Table) -> None:
    session = await table.open(scenario())
    await table.play(scenario()["actions"][0])  # Harkonnen ships 2 forces to Carthag
    assert spectated(table) == []  # a turn goes on: the spectators wait for its end
    await session.undo(99, "undo-ship")
    assert session.state is not None and session.state.factions[HARKONNEN].reserves == 10
    await play_all(table)  # the phase from there: Harkonnen ships again
    texts = spectated(table)
    turn = texts[0]
    assert turn.startswith("**Harkonnen's turn**\n")
    assert "was taken back" in turn  # the correction, in the turn's own message
    summary = next(t for t in texts if "phase in short" in t)
    harkonnen = next(line for line in summary.splitlines() if line.startswith("- Harkonnen"))
    assert harkonnen.count("shipped 2 forces to Carthag") == 1  # shipped again, once


async def test_a_restart_in_the_middle_of_a_turn_keeps_its_record(table: Table) -> None:
    await table.open(scenario())
    await table.play(scenario()["actions"][0])  # Harkonnen ships, then a restart
    await table.close()
    await table.open()
    await play_all(table, skip=1)
    first = spectated(table)[0]
    assert first.startswith("**Harkonnen's turn**\nHarkonnen ships 2 forces to Carthag")
    assert "Harkonnen moves 4 forces from Carthag" in first


async def test_no_waiting_lines_and_every_turn_its_own_message(table: Table) -> None:
    await table.open(scenario())
    await play_all(table)
    texts = spectated(table)
    assert not any("Waiting for" in t or "is up" in t for t in texts)
    heads = [t.splitlines()[0] for t in texts]
    assert heads[:7] == [
        "**Harkonnen's turn**",
        "**Fremen's turn**",
        "**Fremen's turn**, continued",
        "The Spacing Guild delays its turn (it may take it before any later faction's).",
        "**Bene Gesserit's turn**",
        "**Atreides' turn**",
        "**Spacing Guild's turn**",  # once: its delay was no turn (issue 26)
    ]
    assert heads[-2] == "The Shipment & Movement phase is over."  # then the summary
    assert "**The Shipment & Movement phase in short**" in texts[-2]
    assert texts[-1].startswith("The game is finished.")
    table_text = table.public_text()
    assert "Waiting for Harkonnen to move." in table_text  # the table keeps them


async def test_a_whole_games_phase_opens_with_seats_storm_and_its_deadline(
    whole: WholeTable,
) -> None:
    session = await whole.create()
    await answer_set_up(whole)
    await until(whole, lambda: whole.state.game_phase is GamePhase.SHIPMENT_MOVEMENT)
    opening = next(n for _, n in whole.publisher.public_notices if "Seats: " in n.text)
    view = whole.state.public_view()
    first = view.storm_order[0]
    assert "the Shipment & Movement phase begins.**" in opening.text
    assert f"Storm order: {', '.join(f.label for f in view.storm_order)}." in opening.text
    assert f"First: **{first.label}** {player(first)}." in opening.text
    assert opening.mention is first  # the first player is pinged, at the table
    deadline = int((whole.clock.now() + TIMING.step).timestamp())
    prompt = int((whole.clock.now() + TIMING.prompt).timestamp())
    assert f"<t:{deadline}:f>" in opening.text or f"<t:{prompt}:f>" in opening.text
    watched = next(n for _, n in whole.publisher.spectator_notices if "Seats: " in n.text)
    assert "Waiting for" not in watched.text and watched.mention is None
    assert session.game_id == whole.game_id


def test_players_are_marks_the_publisher_fills() -> None:
    text = f"**Fremen** is up: {player(FREMEN)}. Seats: {player(HARKONNEN)}."
    filled = fill_players(text, lambda f: f"@{f.label}")
    assert filled == "**Fremen** is up: @Fremen. Seats: @Harkonnen."
    assert PublicNotice(text).mention is None  # a notice pings nobody unless told


def test_a_kept_table_message_keeps_whom_it_pings() -> None:
    """A message kept undelivered over a restart still pings its player, and only it."""
    notice = PublicNotice(f"**Fremen** is up: {player(FREMEN)}.", game_id=3, mention=FREMEN)
    payload = Job(1, "public", "table", notice).to_payload(0)
    assert payload is not None
    again = Job.from_payload(2, payload).notice
    assert isinstance(again, PublicNotice) and again.mention is FREMEN and again.game_id == 3
    quiet = Job(1, "spectators", "spectators", PublicNotice("x", game_id=3)).to_payload(0)
    assert quiet is not None and "mention" not in quiet


def test_a_kept_summary_keeps_its_charts_and_a_close_up_its_caption() -> None:
    """The game's summary with its charts, a map with its described close-up: kept over a
    restart as they were, or said to have lost their pictures when they do not fit."""
    summary = PublicNotice("**Each faction's path**", game_id=3, charts=b"charts")
    mapped = PublicNotice("turn", game_id=3, picture=b"map", closeup=b"c", caption="Close-up of X")
    for notice in (summary, mapped):
        payload = Job(1, "spectators", "spectators", notice).to_payload(1 << 20)
        assert payload is not None
        assert Job.from_payload(2, payload).notice == notice
    lost = Job(1, "spectators", "spectators", summary).to_payload(0)
    assert lost is not None and lost["text"].endswith("(The pictures could not be attached here.)")
