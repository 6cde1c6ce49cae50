"""How many prompts the six-player whole demo game (``mentat demo``) asks, and how many of
them have a pass as their only answer: the cost of asking everyone alike (issue 23,
docs/secrets-and-waits.md) and what ``/orders only-pass`` spares of it.

The demo plays the bundled game through the real session; each prompt posted is counted
as the publisher receives it, and each faction's first prompt of a wait is classed by
:func:`bot.orders.only_a_pass` at the moment it is asked.

``python -m tests.bot.demo_prompt_count`` prints the figures as one JSON object.
"""

from __future__ import annotations

import asyncio
import io
import json
import tempfile
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.demo.game import GamePublisher, play_game_demo
from bot.orders import only_a_pass
from bot.publisher import PrivateNotice
from bot.session.questions import Questions
from bot.waits import Wait
from rules.factions import Faction


@dataclass(frozen=True, slots=True)
class DemoPrompts:
    prompts: int  # prompt messages posted
    only_pass: int  # of which a pass was the only answer (the only-pass order's)
    only_pass_by_phase: dict[str, int]

    @property
    def with_only_pass_orders(self) -> int:
        return self.prompts - self.only_pass


async def count(monkeypatch: pytest.MonkeyPatch) -> DemoPrompts:
    posted = 0
    classed: dict[tuple[str, Faction], tuple[str, bool]] = {}
    ask = GamePublisher.ask
    prompt = Questions.prompt

    async def counted(self: GamePublisher, game_id: int, notice: PrivateNotice) -> Any:
        nonlocal posted
        posted += 1
        return await ask(self, game_id, notice)

    def noted(self: Questions, faction: Faction, wait: Wait) -> PrivateNotice:
        state = self.state()
        if (wait.key, faction) not in classed:
            phase = state.game_phase.value
            classed[(wait.key, faction)] = (phase, only_a_pass(state, faction))
        return prompt(self, faction, wait)

    monkeypatch.setattr(GamePublisher, "ask", counted)
    monkeypatch.setattr(Questions, "prompt", noted)
    with tempfile.TemporaryDirectory() as tmp:
        await play_game_demo(Path(tmp) / "demo", stream=io.StringIO(), maps=False)
    spared = Counter(phase for phase, only in classed.values() if only)
    return DemoPrompts(posted, sum(spared.values()), dict(spared))


if __name__ == "__main__":
    with pytest.MonkeyPatch.context() as patch:
        found = asyncio.run(count(patch))
    print(json.dumps({**asdict(found), "with_only_pass_orders": found.with_only_pass_orders}))
