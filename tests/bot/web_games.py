"""Games for the live page's tests: random whole games played into a real SQLite store
through the ledger (the bot's own path to the log), with the secrets seen on the way."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from bot.ledger import Ledger
from bot.store import Store
from rules.battle.traitors import TRAITORS
from rules.factions import Faction
from rules.game import GameState
from rules.model import RuleSet
from tests.rules.random_play import SIX, choose

SEED = 987_654_321


@dataclass
class Played:
    """A game in the store: its id, its live position, the secrets seen as it was played."""

    game_id: int
    ledger: Ledger
    actions: int = 0
    cards: set[str] = field(default_factory=set)  # every card seen in a hand
    shown: set[str] = field(default_factory=set)  # every card that left a hand (played...)
    hands: dict[Faction, set[str]] = field(default_factory=dict)
    traitors: set[str] = field(default_factory=set)  # every traitor kept
    predictions: set[tuple[Faction, int]] = field(default_factory=set)

    @property
    def state(self) -> GameState:
        return self.ledger.state

    def look(self) -> None:
        game = self.state.whole
        for faction, own in self.state.factions.items():
            cards = set(own.cards)
            self.shown |= self.hands.get(faction, set()) - cards
            self.cards |= cards
            self.hands[faction] = cards
        for kept in TRAITORS.of(game).values():
            self.traitors |= set(kept)
        if game.prediction is not None:
            self.predictions.add(game.prediction)


async def play(
    store: Store, *, game: int = 0, limit: int = 5000, advanced: bool = True, finish: bool = True
) -> Played:
    """Game number ``game`` played at random, ``limit`` actions at most (to its end unless
    cut short); marked finished in the store when it ended and ``finish``."""
    state = GameState.new_game(SIX, seed=SEED + game, rules=RuleSet(advanced=advanced))
    game_id = await store.create_game(game, state)
    played = Played(game_id, await Ledger.open(store, game_id))
    rng = random.Random(game)
    played.look()
    for n in range(limit):
        action = choose(played.state, rng)
        if action is None:
            break
        await played.ledger.submit(action, actor=1, key=f"web-{n}")
        played.actions += 1
        played.look()
    else:
        return played
    if finish:
        await played.ledger.finish()
    return played
