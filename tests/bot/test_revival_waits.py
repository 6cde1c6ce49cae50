"""What the session waits on in the Revival phase the engine runs: the factions with a
choice; once the moderators recorded the last of them, the moderators' "phase done"."""

from __future__ import annotations

from bot.choice_words import describe_game_wait
from bot.waits import CHOICE, MODERATORS, wait_of
from rules.factions import Faction
from tests.rules.game_helpers import game_at
from tests.rules.helpers import act


def test_revival_waits_on_the_factions_with_a_choice_then_the_moderators() -> None:
    state = game_at("revival", factions={"atreides": {"tanks": 5}})
    wait = wait_of(state)
    assert wait is not None and (wait.kind, wait.factions) == (CHOICE, (Faction.ATREIDES,))
    text = describe_game_wait(state.public_view())
    assert text == "Waiting for Atreides (Revival: what to revive beyond their free revival)."
    act(state, "atreides", "record_revival", forces=3)
    wait = wait_of(state)
    assert wait is not None and (wait.kind, wait.factions) == (MODERATORS, ())
