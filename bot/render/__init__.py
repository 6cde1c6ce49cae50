"""The map picture: a pure function from a public view to PNG bytes.

Only a :class:`rules.view.PublicView` can be drawn, so every picture may be
posted in a public channel. Nothing here imports discord.
"""

from __future__ import annotations

from bot.render.closeup import closeup_box, closeup_boxes, render_closeup
from bot.render.layout import Leader, MapLayout, layout_map
from bot.render.overlays import LastKarama, LastMove, LastShipment
from bot.render.panel import Heading
from bot.render.render import draw_map, draw_map_and_layout, render_map
from bot.render.tokens import (
    Callout,
    PlacedToken,
    Placement,
    Token,
    TokenKind,
    TokenLayout,
    layout_tokens,
)
from bot.render.turn_marks import StormPath, WormSign

__all__ = [
    "Callout",
    "Heading",
    "LastKarama",
    "LastMove",
    "LastShipment",
    "Leader",
    "MapLayout",
    "PlacedToken",
    "Placement",
    "StormPath",
    "Token",
    "TokenKind",
    "TokenLayout",
    "WormSign",
    "closeup_box",
    "closeup_boxes",
    "draw_map",
    "draw_map_and_layout",
    "layout_map",
    "layout_tokens",
    "render_closeup",
    "render_map",
]
