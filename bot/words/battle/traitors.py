"""The traitor cards' words (1.07.06.06: the Battle's cards, dealt and kept at set-up).

Registered for the set-up's events (:mod:`bot.words.phase_words`): the public sentences of
the cards dealt and kept (counts, face down), each faction's own side (the traitors offered
to it, the one it kept), its answer and its choice in words, and a newcomer's briefing.
Who holds which traitor is secret: the names reach only the faction's own views.
"""

from __future__ import annotations

from bot.words.common import and_list
from bot.words.phase_words import CARDS_ROW, PhaseWords, ShieldRow, register
from rules.actions import Action
from rules.battle.actions import KeepTraitor
from rules.battle.events import TraitorKept
from rules.battle.view import traitor_secrets
from rules.events import CardsDealt, Event
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from rules.view import PrivateView


def _cards(n: int) -> str:
    return f"{n} traitor card{'s' * (n != 1)}"


def describe(event: Event) -> str | None:
    """The public sentence of the traitor cards dealt or kept (None for any other event)."""
    match event:
        case CardsDealt(faction=faction, deck="traitors", cards=cards):
            return f"{faction.label} is dealt {_cards(cards)}, face down."
        case TraitorKept(faction=faction, kept=1):
            return f"{faction.label} keeps one traitor, face down."
        case TraitorKept(faction=faction, kept=kept):
            return f"{faction.label} keeps all {kept} traitors, face down."
    return None


def own_line(event: Event, view: PrivateView) -> str | None:
    """A faction's own side of its traitor cards: those offered to it, those it kept."""
    secrets = traitor_secrets(view.secrets)
    match event:
        case CardsDealt(deck="traitors") if secrets.traitors_offered:
            offered = and_list(list(secrets.traitors_offered))
            return f"Traitors offered to you: {offered}. Keep one of them."
        case TraitorKept() if secrets.traitors:
            kept = and_list(list(secrets.traitors))
            noun = "traitor is" if len(secrets.traitors) == 1 else "traitors are"
            return f"Your {noun} {kept}."
    return None


def answer(action: Action) -> str | None:
    """The traitor kept, in the words of the faction that kept it."""
    if isinstance(action, KeepTraitor):
        return f"you keep {action.leader} as your traitor"
    return None


def options(state: GameState, faction: Faction) -> list[str]:
    """The traitors ``faction`` may keep now, in words (none: not asked)."""
    traitors = [a.leader for a in state.legal_actions(faction) if isinstance(a, KeepTraitor)]
    return [f"keep one traitor: {', '.join(traitors)} (`/traitor keep`)"] if traitors else []


def briefing(view: PrivateView) -> list[str]:
    """A newcomer's traitors: those the faction kept, else those it was offered."""
    secrets = traitor_secrets(view.secrets)
    if secrets.traitors:
        return [f"Your traitors: {', '.join(secrets.traitors)}."]
    if secrets.traitors_offered:
        return [f"Traitors offered to you: {', '.join(secrets.traitors_offered)}."]
    return []


def shield(view: PrivateView) -> list[ShieldRow]:
    """The traitors behind a faction's shield: those it kept, else those it was offered."""
    secrets = traitor_secrets(view.secrets)
    if secrets.traitors:
        return [(CARDS_ROW + 5, "Traitors", ", ".join(secrets.traitors))]
    if secrets.traitors_offered:
        return [(CARDS_ROW + 5, "Traitors offered", ", ".join(secrets.traitors_offered))]
    return []


WORDS = register(
    PhaseWords(
        GamePhase.SETUP,
        describe=describe,
        own_line=own_line,
        answer=answer,
        options=options,
        briefing=briefing,
        shield=shield,
    )
)
"""The traitor cards' words, registered for the set-up's events."""
