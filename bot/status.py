"""``/status``: a faction's private view as its player reads it (only they see it)."""

from __future__ import annotations

from bot.orders import StandingOrders
from bot.truthtrance_words import status_line
from bot.words import STARRED, may_do
from rules.view import PrivateView


def status_text(view: PrivateView, orders: StandingOrders | None = None) -> str:
    """The faction's spice, cards, reserves, tanks, what it may do now and its own
    standing orders (``orders``: the faction's, never another's)."""
    own = view.public.faction(view.faction)
    cards = ", ".join(view.cards) or "none"
    starred = STARRED.get(view.faction)
    reserves, tanks = f"{own.reserves} forces", f"{own.tanks} forces"
    if starred is not None:
        reserves += f", {own.special_reserves} {starred}"
        tanks += f", {own.special_tanks} {starred}"
    lines = [
        f"**{view.faction.label}** (only you see this)",
        f"Spice: {view.spice}. Cards: {cards}.",
        f"Reserves: {reserves}. Tanks: {tanks}.",
        may_do(dict.fromkeys(view.legal_actions)),
    ]
    asked = status_line(view)  # the last Truthtrance question, the asker's and the target's
    if asked is not None:
        lines.append(asked)
    given = orders.lines() if orders is not None else []
    if given:
        lines += ["Your standing orders:", *(f"- {line}" for line in given)]
    else:
        lines.append("Standing orders: none (you are asked every time).")
    return "\n".join(lines)
