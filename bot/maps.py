"""Maps for the session: rendered off the event loop, from the public view only."""

from __future__ import annotations

import asyncio

from bot.render import render_map
from bot.render.marks import last_move_of, last_shipment_of
from rules.events import Event
from rules.view import PublicView

MAP_POLICIES = ("action", "turn", "never")


class MapMaker:
    """Renders a map after every action, or after every completed turn."""

    def __init__(self, policy: str = "action", *, turn: int | None = None) -> None:
        if policy not in MAP_POLICIES:
            raise ValueError(f"maps: {policy!r} is not one of {', '.join(MAP_POLICIES)}")
        self.policy = policy
        self.turn = turn

    def wanted(self, events: list[Event]) -> bool:
        if self.policy == "never":
            return False
        if self.policy == "turn":
            return any(e.kind in ("turn_ended", "phase_complete") for e in events)
        return any(e.kind not in ("prompts_closed", "prompt_declined") for e in events)

    async def __call__(self, view: PublicView, events: list[Event]) -> bytes | None:
        if not self.wanted(events):
            return None
        dicts = [e.to_dict() for e in events]
        return await asyncio.to_thread(
            render_map,
            view,
            turn=self.turn,
            last_move=last_move_of(dicts),
            last_shipment=last_shipment_of(dicts),
        )
