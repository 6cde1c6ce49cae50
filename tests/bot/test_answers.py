"""Actions are the currency: every button of every prompt is a concrete action the engine
takes now (the one exception: the traitor call, asked alike of both sides, 1.07.06.06),
each button once, and a click finds its action again by its key."""

from __future__ import annotations

import random

import pytest

from bot.publisher import Answer, PrivateNotice
from bot.session.prompts import chosen, prompt_for
from bot.waits import CHOICE, wait_of
from bot.words.choices import choice_prompt
from bot.words.refusals import SessionError
from rules.actions import Pass
from rules.battle.actions import CallTraitor
from rules.bidding.actions import Bid
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import GamePhase
from tests.rules.random_play import choose, random_seats

SEEDS = range(6)


def prompts_now(state: GameState) -> list[PrivateNotice]:
    """What each faction the game waits on is asked now (its prompt's buttons)."""
    wait = wait_of(state)
    if wait is None:
        return []
    ask = choice_prompt if wait.kind == CHOICE else prompt_for
    return [ask(state, f, wait, "1", "soon") for f in wait.factions if state.in_game(f)]


def check(state: GameState, notice: PrivateNotice) -> None:
    keys = [a.key for a in notice.answers]
    assert len(keys) == len(set(keys)), notice.answers
    for answer in notice.answers:
        assert answer.action.faction is notice.faction
        assert answer.label and len(answer.label) <= 80 and answer.done
        if not isinstance(answer.action, CallTraitor):  # asked alike: the engine decides
            assert state.is_legal(answer.action), (answer, state.whole.step)
        again = chosen(notice, state, notice.faction, answer.key, answer.label)
        assert again == answer


@pytest.mark.parametrize("seed", SEEDS)
def test_every_button_of_a_random_game_is_an_action_the_engine_takes(seed: int) -> None:
    rng = random.Random(seed)
    state = GameState.new_game(random_seats(rng), seed=seed)
    seen: set[str] = set()
    for _ in range(1500):
        for notice in prompts_now(state):
            check(state, notice)
            seen.update(a.action.name for a in notice.answers)
        action = choose(state, rng)
        if action is None:
            break
        state.apply(action)
    assert "pass" in seen  # the buttons were exercised, not skipped


def test_the_bidders_raises_are_the_engines_own_bids() -> None:
    rng = random.Random(3)
    state = GameState.new_game(random_seats(rng), seed=3)
    while state.game_phase is not GamePhase.BIDDING:
        action = choose(state, rng)
        assert action is not None
        state.apply(action)
    wait = wait_of(state)
    assert wait is not None
    bidder = wait.factions[0]
    notice = choice_prompt(state, bidder, wait, "1", "soon")
    bids = [a.action for a in notice.answers if isinstance(a.action, Bid)]
    listed = [a for a in state.legal_actions(bidder) if isinstance(a, Bid)]
    assert bids == listed and bids  # no raise of the words' own
    assert isinstance(notice.answers[-1].action, Pass)  # the grey button last


def test_a_key_no_prompt_offers_is_refused() -> None:
    rng = random.Random(1)
    state = GameState.new_game(random_seats(rng), seed=1)
    notice = prompts_now(state)[0]
    faction = notice.faction
    with pytest.raises(SessionError, match="no longer open"):
        chosen(notice, state, faction, "0" * 12, "Pass")
    with pytest.raises(SessionError):
        chosen(None, state, Faction.ATREIDES, "zz" * 6, "Pass")


def test_a_key_is_the_whole_action() -> None:
    one, two = (
        Answer(Bid(Faction.FREMEN, 3), "Bid 3", "x"),
        Answer(Bid(Faction.FREMEN, 4), "Bid 3", "x"),
    )
    assert one.key != two.key and len(one.key) == 12
    assert one.key == Answer(Bid(Faction.FREMEN, 3), "other words", "y").key
