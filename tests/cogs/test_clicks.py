"""Issue 11: the bundled demo phase (``bot/data/demo-phase.json``) played by six people
through simcord, counting the prompt clicks of players who had nothing to decide.

Each faction acts through Discord as a person would: its turn with the slash commands
(previewed, then Confirmed) and the buttons of its own prompt messages; a prompt the
script does not answer is declined by whoever still has an open message with a
"Decline" button for it; when nobody has, the table waits for the deadline (a Karama
window runs its time). A click counts as "nothing to decide" when the clicking faction
had no answer but "Decline" to any prompt waiting on it."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import simcord

from rules.actions import Advise, Decline, FactionAction, action_from_dict
from rules.board import POLAR_SINK
from rules.factions import Faction
from tests.cogs.buttons import actions_asked, button_for, named
from tests.cogs.conftest import Bots, Table, make_table

LIMIT = 6  # issue 11: clicks of players with nothing to decide in the whole phase


def demo() -> dict[str, Any]:
    text = resources.files("bot").joinpath("data/demo-phase.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@dataclass
class Clicks:
    idle: int = 0  # clicks of a faction with nothing to decide
    decided: int = 0  # prompt clicks of a faction that had a real choice
    idle_by: dict[str, int] = field(default_factory=dict)
    waited: float = 0.0  # game seconds the table waited for deadlines

    def count(self, faction: Faction, nothing: bool) -> None:
        if nothing:
            self.idle += 1
            self.idle_by[faction.value] = self.idle_by.get(faction.value, 0) + 1
        else:
            self.decided += 1


def nothing_to_decide(t: Table, faction: Faction) -> bool:
    """No prompt waiting on ``faction`` (in any stage) has an answer but its decline."""
    state = t.state()
    return not any(
        not isinstance(a, Decline)
        for stage in state.phase.stages
        for p in stage
        if faction in p.waiting_on()
        for a in state.answers(p, faction)
    )


async def click(
    t: Table, faction: Faction, wanted: Callable[[FactionAction], bool], clicks: Clicks
) -> bool:
    found = button_for(t, faction, wanted)
    if found is None:
        return False
    message, custom_id = found
    nothing = is_decline(t, faction, custom_id) and nothing_to_decide(t, faction)
    await t.players[faction].click(message, custom_id=custom_id)
    clicks.count(faction, nothing)
    return True


async def settle(t: Table) -> None:
    await t.session.until_idle()
    await t.env.settle()


async def dismiss(t: Table, bots: Bots, action: FactionAction | None, clicks: Clicks) -> None:
    """Everyone says no to the open prompts ``action`` does not answer, then waits out
    what still runs (a window)."""
    for _ in range(50):
        await settle(t)
        state = t.state()
        if not state.open_prompts():
            return
        if action is not None and state.answers_open_prompt(action):
            return
        clicked = False
        for prompt in state.open_prompts():
            for faction in prompt.waiting_on():
                clicked |= await click(t, faction, named("decline", prompt.kind.value), clicks)
        if not clicked:
            left = (t.session.deadline.at - bots.clock.now()).total_seconds() + 1
            clicks.waited += left
            await bots.clock.advance(left, settle=t.session.next_idle)
    raise AssertionError("the prompts never closed")


SLASH = {"ship": "ship", "send": "send", "move": "move", "cross_ship": "cross-ship"}
BUTTON = {"advise", "karama_cancel", "guild_delay", "hajr", "pass"}


def clicked_for(name: str) -> Callable[[FactionAction], bool]:
    """The button of the demo's action ``name`` (an advisor: to the shipment's territory)."""

    def wanted(action: FactionAction) -> bool:
        here = not isinstance(action, Advise) or action.to != POLAR_SINK
        return action.name == name and here

    return wanted


def is_decline(t: Table, faction: Faction, custom_id: str) -> bool:
    return isinstance(actions_asked(t, faction).get(custom_id.split(":")[3]), Decline)


async def perform(t: Table, raw: dict[str, Any], clicks: Clicks) -> None:
    faction = Faction(raw["faction"])
    player = t.players[faction]
    name = raw["action"]
    if name in SLASH:
        options = {k: v for k, v in raw.items() if k not in ("faction", "action")}
        preview = await player.slash(t.table, SLASH[name], **options)
        assert preview.response is not None, preview
        await player.click(preview.response.message, label="Confirm")
    else:
        assert name in BUTTON, name
        assert await click(t, faction, clicked_for(name), clicks), f"{faction.label}: no {name}"
    await settle(t)


async def play_demo(env: simcord.Env, bots: Bots) -> tuple[Table, Clicks]:
    data = demo()
    t = await make_table(env, start=False)
    position = {k: v for k, v in data.items() if k != "actions"}
    file = ("demo.json", json.dumps(position).encode())
    await t.moderator.slash(t.table, "game start", position=file)
    clicks = Clicks()
    for raw in data["actions"]:
        action = action_from_dict(raw)
        assert isinstance(action, FactionAction)
        await dismiss(t, bots, action, clicks)
        await perform(t, raw, clicks)
    await dismiss(t, bots, None, clicks)
    return t, clicks


async def test_the_demo_phase_asks_little_of_players_with_nothing_to_decide(
    simcord_env: simcord.Env, bots: Bots
) -> None:
    t, clicks = await play_demo(simcord_env, bots)
    assert t.state().is_complete
    played = [e.body.get("action") for e in (await t.bot.app.store.log(t.game_id))[1:]]
    assert played.count("karama_cancel") == 1 and played.count("advise") == 1
    print(
        f"clicks with nothing to decide: {clicks.idle} {clicks.idle_by}; "
        f"with a choice: {clicks.decided}; waited for deadlines: {clicks.waited / 60:.0f} min"
    )
    assert clicks.idle <= LIMIT
