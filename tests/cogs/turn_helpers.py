"""Whole games for the tests of the whole turn's commands (cogs.turn), through simcord."""

from __future__ import annotations

import re
from typing import Any

import simcord

from rules.battle.view import TraitorSecrets, traitor_secrets
from rules.factions import Faction
from rules.game import GameState
from tests.cogs.conftest import Table, is_ephemeral, make_table, text_of

F = Faction
WORM = "Shai-Hulud"
MENTION = re.compile(r"<[^>]*>")  # mentions, channels and timestamps carry ids: not words


async def whole_table(env: simcord.Env, **options: Any) -> Table:
    """A whole game at its set-up, every faction seated, running."""
    return await make_table(env, kind="whole_game", maps="never", **options)


async def start_at(t: Table, state: GameState) -> None:
    """The moderator restarts the game at ``state`` (as ``/game start position:`` does)."""
    await t.bot.app.begin_phase(
        t.game_id, t.moderator.id, state, key=f"test:{id(state)}", note="Test position."
    )


async def done(t: Table, faction: Faction, command: str, **options: Any) -> str:
    """``faction``'s player runs ``command``; it must be accepted, privately."""
    result = await t.players[faction].slash(t.table, command, **options)
    text = text_of(result)
    assert is_ephemeral(result) and text.startswith("Done"), (command, text)
    return text


def secrets_of(t: Table, faction: Faction) -> Any:
    found = t.state().view_for(faction).secrets
    assert found is not None
    return found


def traitors_of(t: Table, faction: Faction) -> TraitorSecrets:
    """The traitors ``faction`` holds and was offered, from its own view."""
    return traitor_secrets(t.state().view_for(faction).secrets)


async def set_up_by_commands(t: Table) -> None:
    """Every set-up choice through the commands: traitors, the prediction, the Fremen's and
    the Bene Gesserit's placements. The game is then in its first storm."""
    for faction in t.state().waiting_on():
        offered = traitors_of(t, faction).traitors_offered
        if offered:
            await done(t, faction, "traitor keep", leader=offered[0])
    if "predict" in t.state().legal_actions(F.BENE_GESSERIT).kinds():
        await done(t, F.BENE_GESSERIT, "predict", winner="atreides", turn=5)
    if "place_fremen" in t.state().legal_actions(F.FREMEN).kinds():
        counts = {"sietch_tabr": 4, "false_wall_south": 3, "false_wall_west": 3}
        await done(t, F.FREMEN, "fremen place", **counts)
    if "place_advisor" in t.state().legal_actions(F.BENE_GESSERIT).kinds():
        await done(t, F.BENE_GESSERIT, "place-advisor", to="Arrakeen")
    assert t.state().game_phase.value == "storm", t.state().game_phase


def public_messages(t: Table) -> dict[int, str]:
    """What the table and the spectators were shown (never an ephemeral answer), by
    message id, with mentions and timestamps left out (their ids are not words)."""
    out = {}
    for channel in (t.table, t.spectators):
        for message in channel.history():
            if not message.flags.ephemeral:
                out[message.id] = MENTION.sub("", message.content or "")
    return out


def public_since(t: Table, before: dict[int, str]) -> str:
    """The public messages posted since ``before``, one text."""
    return "\n".join(text for i, text in public_messages(t).items() if i not in before)


def private_words(t: Table, faction: Faction) -> str:
    """Everything in ``faction``'s private channel (mentions and timestamps left out)."""
    messages = t.private(faction).history()
    return "\n".join(MENTION.sub("", m.content or "") for m in messages)
