"""``/status``: a faction's private view as its player reads it (only they see it)."""

from __future__ import annotations

from bot.orders import StandingOrders
from bot.words import phase_words
from bot.words.common import STARRED, may_do
from bot.words.truthtrance import status_line
from rules.factions import Faction
from rules.view import PrivateView


def status_text(view: PrivateView, orders: StandingOrders | None = None) -> str:
    """The faction's spice, cards, reserves, tanks, leaders, what it may do now and its own
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
        *leader_lines(view),
        may_do(dict.fromkeys(view.legal_actions)),
    ]
    for words in phase_words.every():  # a phase's own: the plan an Atreides' Karama shows
        line = words.status(view) if words.status is not None else None
        if line is not None:
            lines.append(line)
    asked = status_line(view)  # the last Truthtrance question, the asker's and the target's
    if asked is not None:
        lines.append(asked)
    given = orders.lines() if orders is not None else []
    if given:
        lines += ["Your standing orders:", *(f"- {line}" for line in given)]
    else:
        lines.append("Standing orders: none (you are asked every time).")
    return "\n".join(lines)


def leader_lines(view: PrivateView) -> list[str]:
    """Where the faction's leaders are (its pool, the tanks, the Harkonnen's pool) and the
    other leaders the Harkonnen hold: all public, the captives face up (2.05.10). The
    leader the Harkonnen drew is named nowhere here until they capture it."""
    game = view.public.game
    owners = {name: pool.faction for pool in game.leaders for name in pool.captured}
    mine = next((pool for pool in game.leaders if pool.faction == view.faction), None)
    if mine is None:
        return []
    hark = Faction.HARKONNEN.label
    alive = [
        f"{name} (captured from the {owners[name].label})" if name in owners else name
        for name in mine.alive
    ]
    line = f"Your leaders: {', '.join(alive) or 'none'}"
    line += f"; in the Tleilaxu Tanks: {', '.join(mine.tanks) or 'none'}"
    line += "".join(f"; {name}, held by the {hark}" for name in mine.captured)
    lines = [line + "."]
    others = [
        f"{name} ({owner.label})"
        for name, owner in owners.items()
        if owner is not view.faction and view.faction is not Faction.HARKONNEN
    ]
    if others:
        lines.append(f"Held by the {hark}: {', '.join(others)}.")
    return lines
