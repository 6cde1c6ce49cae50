"""Drawing from the decks: chance decides, the seed in the position makes it repeatable.

A deck that runs out is made again from its discard pile, shuffled by the
game's :class:`~rules.game_model.Chance` (1.04.04, 1.02 "spice deck exhausted").
"""

from __future__ import annotations

from rules.components import SHAI_HULUD
from rules.events import DeckShuffled, Event
from rules.position import Position


def draw_treachery(state: Position) -> tuple[str | None, list[Event]]:
    """The top treachery card (None if deck and discards are both empty)."""
    game = state.whole
    events: list[Event] = []
    if not game.treachery_deck and game.treachery_discard:
        deck, chance = game.chance.shuffle(game.treachery_discard)
        state.set_game(treachery_deck=deck, treachery_discard=(), chance=chance)
        events.append(DeckShuffled("treachery", len(deck)))
    deck = state.whole.treachery_deck
    if not deck:
        return None, events
    state.set_game(treachery_deck=deck[1:])
    return deck[0], events


def draw_spice(state: Position) -> tuple[str | None, list[Event]]:
    """The top spice card. An empty deck is made again from the discards: basic, all
    of them; advanced, all but pile A's top territory card, which stays as the
    reference for the next worm (1.13.03)."""
    game = state.whole
    events: list[Event] = []
    if not game.spice_deck:
        keep_a = _reference(game.spice_discard) if state.rules.advanced else None
        pool = [*game.spice_discard, *game.spice_discard_b]
        if keep_a is not None:
            pool.remove(keep_a)
        deck, chance = game.chance.shuffle(pool)
        state.set_game(
            spice_deck=deck,
            spice_discard=(keep_a,) if keep_a else (),
            spice_discard_b=(),
            chance=chance,
        )
        events.append(DeckShuffled("spice", len(deck)))
    deck = state.whole.spice_deck
    if not deck:
        return None, events
    state.set_game(spice_deck=deck[1:])
    return deck[0], events


def _reference(pile: tuple[str, ...]) -> str | None:
    return next((c for c in pile if c != SHAI_HULUD), None)


def top_territory(pile: tuple[str, ...]) -> str | None:
    """The territory card a Shai-Hulud refers to: the topmost territory card of the pile."""
    return _reference(pile)
