"""The Bidding phase's choices in words: what one faction may choose now.

Every list is the engine's: a hand to take only when ``state.is_legal`` takes it; cards to
give back come from the faction's own hand.
Each entry is a ``(label, value)`` pair, as :mod:`cogs.turn.choices` gives them; the
faction is always the caller's own (or a current moderator's named one), so nobody is
offered another faction's tanks, hand or spice.
"""

from __future__ import annotations

from cogs.turn.choices import Choice, same
from rules.bidding.actions import KaramaTakeHand
from rules.factions import Faction
from rules.game import GameState


def take_hand_targets(state: GameState, faction: Faction) -> list[Choice[str]]:
    """Whose hand the Harkonnen may take now (1.14.04), with its size (public)."""
    out: list[Choice[str]] = []
    for other in state.factions:
        if other is faction or not state.is_legal(KaramaTakeHand(faction, other.value)):
            continue
        held = len(state.factions[other].cards)
        out.append((f"{other.label} ({held} cards)", other.value))
    return out


def give_back(state: GameState, faction: Faction, typed: str) -> list[Choice[str]]:
    """The cards to give back, as a list being typed: what was typed (known cards of the
    hand) followed by each card of the hand not listed yet."""
    if "give_back_cards" not in state.legal_actions(faction).kinds():
        return []
    hand = list(state.factions[faction].cards)
    given = [c.strip() for c in typed.split(",")[:-1] if c.strip()]
    chosen: list[str] = []
    for name in given:
        found = next((c for c in hand if same(c, name) and c not in chosen), None)
        if found is None:
            return []
        chosen.append(found)
    rest = list(hand)
    for card in chosen:
        rest.remove(card)
    out: list[Choice[str]] = []
    for card in dict.fromkeys(rest):
        value = ", ".join([*chosen, card])
        out.append((value, value))
    return out
