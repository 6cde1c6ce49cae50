"""``/status``: a faction's private view as its player reads it (only they see it)."""

from __future__ import annotations

from rules.view import PrivateView


def status_text(view: PrivateView) -> str:
    """The faction's spice, cards, reserves, tanks and the kinds of action it may take now."""
    own = view.public.faction(view.faction)
    cards = ", ".join(view.cards) or "none"
    actions = ", ".join(dict.fromkeys(view.legal_actions)) or "nothing right now"
    return (
        f"**{view.faction.label}** (only you see this)\n"
        f"Spice: {view.spice}. Cards: {cards}.\n"
        f"Reserves: {own.reserves} forces, {own.special_reserves} starred. "
        f"Tanks: {own.tanks} + {own.special_tanks} starred.\n"
        f"You may: {actions}."
    )
