"""A whole game's wait keys, pinned: the session builds its deadlines' log keys on them, so
the phase registry (rules.phases) must name each wait exactly as before."""

from __future__ import annotations

from bot.waits import CHOICE, Wait, wait_of
from rules.bidding.actions import Bid
from rules.factions import Faction
from rules.game import GameState
from tests.rules.battle_helpers import duel
from tests.rules.game_helpers import DECK, game_at

THREE = ["harkonnen", "atreides", "emperor"]


def waiting(state: GameState) -> Wait:
    wait = wait_of(state)
    assert wait is not None and wait.kind == CHOICE
    return wait


def test_each_turn_to_bid_is_a_wait_named_by_the_card_the_high_bid_and_the_bidder() -> None:
    state = game_at("bidding", seats=THREE, treachery_deck=DECK)
    first = waiting(state)
    assert first.key == "game:2:bidding:auction:0:card1:0:harkonnen"
    assert first.questions == ("bid,karama_take_hand,pass",)
    state.apply(Bid(Faction.HARKONNEN, 2))
    assert waiting(state).key == "game:2:bidding:auction:0:card1:2:atreides"


def test_each_battle_is_a_wait_named_by_its_territory_part_and_sides() -> None:
    wait = waiting(duel())
    assert wait.key == "game:2:battle:plans:Carthag/(10,)/harkonnen/emperor:0"
    assert wait.factions == (Faction.HARKONNEN, Faction.EMPEROR)
    assert wait.questions == ("battle_plan", "battle_plan")


def test_a_choice_asked_of_everyone_alike_is_one_wait_with_each_ones_question() -> None:
    charity = waiting(game_at("choam_charity", seats=THREE))
    assert charity.key == "game:2:choam_charity:claims:0"
    assert charity.questions == ("claim_charity,pass",) * 3
    revival = waiting(game_at("revival", seats=THREE, factions={"atreides": {"tanks": 5}}))
    assert (revival.key, revival.factions) == ("game:2:revival:revive:0", (Faction.ATREIDES,))
