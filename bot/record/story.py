"""The whole game's public story, for its summary and charts at the end: the log's actions
in effect replayed from the start entry, each with its (public) events and the public view
after it. Undone actions are left out, redone ones counted once; a restarted bot reads the
same story, since it comes from the store.

The position replayed never leaves this module: only :class:`~rules.view.PublicView`\\ s
and events (every event is public) do.
"""

from __future__ import annotations

import asyncio
from typing import Any

from bot.charts import charts
from bot.ledger import logged_action
from bot.record.summary import Step
from bot.render.charts import render_charts
from bot.store import Store
from bot.store.history import History
from rules.game import GameState


async def game_story(store: Store, game_id: int) -> list[Step]:
    """The game's steps in effect, its start first (replayed in a thread)."""
    log = await store.log(game_id)
    history = History.of((e.seq, e.kind, e.target) for e in log)
    if not history.effective:
        return []
    bodies = {e.seq: e.body for e in log}
    start, steps = history.start, history.replay_after(history.start)
    return await asyncio.to_thread(_replay, bodies[start], [bodies[seq] for seq in steps])


def _replay(start: Any, actions: list[Any]) -> list[Step]:
    state = GameState.from_dict(start)
    state.limit_undo(0)
    story = [Step((), state.public_view())]
    for body in actions:
        events = tuple(state.apply(logged_action(body)))
        story.append(Step(events, state.public_view()))
    return story


def charts_picture(story: list[Step]) -> bytes | None:
    """The record's charts of the game (strongholds and cards held, turn by turn) as one
    PNG; None outside a whole game."""
    drawn = charts([step.view for step in story])
    return render_charts(drawn) if drawn else None
