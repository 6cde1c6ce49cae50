"""The map picture: a pure function from a public view to PNG bytes.

Only a :class:`rules.view.PublicView` can be drawn, so every picture may be
posted in a public channel. Nothing here imports discord.
"""

from __future__ import annotations

from bot.render.overlays import LastMove, LastShipment
from bot.render.render import draw_map, render_map
from bot.render.tokens import (
    Callout,
    PlacedToken,
    Placement,
    Token,
    TokenKind,
    TokenLayout,
    layout_tokens,
)

__all__ = [
    "Callout",
    "LastMove",
    "LastShipment",
    "PlacedToken",
    "Placement",
    "Token",
    "TokenKind",
    "TokenLayout",
    "draw_map",
    "layout_tokens",
    "render_map",
]
