"""Positions at the Bidding and Revival phases, reached by the engine's own defaults, and a
bidders' policy (each faction's limit per card) that tests and the prompt count share."""

from __future__ import annotations

from rules.actions import FactionAction, Pass
from rules.bidding.actions import Bid
from rules.bidding.view import auction_of
from rules.defaults import default_action
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from rules.model import RuleSet

SIX = (
    Faction.HARKONNEN,
    Faction.SPACING_GUILD,
    Faction.ATREIDES,
    Faction.FREMEN,
    Faction.EMPEROR,
    Faction.BENE_GESSERIT,
)
SEED = 8_675_309_123


def new_game(seed: int = SEED, *, advanced: bool = False) -> GameState:
    return GameState.new_game(SIX, seed=seed, rules=RuleSet(advanced=advanced))


def to_phase(state: GameState, phase: GamePhase, turn: int = 1) -> GameState:
    """``state`` played on by the defaults (and "phase done" for a recorded phase) until
    ``phase`` of ``turn`` waits for someone."""
    for _ in range(2000):
        game = state.whole
        if game.phase is phase and game.turn == turn and game.waiting:
            return state
        if game.phase is GamePhase.SHIPMENT_MOVEMENT:
            raise AssertionError("the defaults do not play Shipment & Movement")
        assert game.waiting, (game.phase, game.step)
        action = default_action(state, game.waiting[0])
        assert action is not None, (game.phase, game.step, game.waiting)
        state.apply(action)
    raise AssertionError(f"{phase} of turn {turn} never came")


def limit(faction: Faction, card: int) -> int:
    """How much ``faction`` would pay for card ``card`` (the same for a player answering
    prompts and for one who gave standing orders): the Bene Gesserit and the Guild want
    nothing; the others want some cards, up to a few spice."""
    if faction in (Faction.BENE_GESSERIT, Faction.SPACING_GUILD):
        return 0
    return (sorted(Faction).index(faction) + card) % 4


def bidder_answer(state: GameState, faction: Faction) -> FactionAction:
    """The policy's answer when ``faction`` is asked: raise by 1 up to its limit, else pass."""
    auction = auction_of(state.public_view().game)
    assert auction is not None
    wanted = auction.high_bid + 1
    if wanted <= limit(faction, auction.number) and state.is_legal(Bid(faction, wanted)):
        return Bid(faction, wanted)
    return Pass(faction)
