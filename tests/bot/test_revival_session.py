"""The Revival phase the engine runs, in the session: what it waits on (the factions with a
choice; once the moderators recorded the last of them, their "phase done") and its words."""

from __future__ import annotations

from bot.waits import CHOICE, MODERATORS, wait_of
from bot.words.choices import describe_game_wait
from bot.words.narrate import describe
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


def test_the_emperors_karama_revival_reads_as_a_revival() -> None:
    state = game_at(
        "revival",
        advanced=True,
        factions={"emperor": {"tanks": 4, "cards": ("Karama",)}},
    )
    events = act(state, "emperor", "karama_revive", forces=3)
    lines = [describe(e) for e in events]
    assert lines[0] is not None and "free revival" in lines[0] and "worm" not in lines[0]
    assert lines[1] is not None and "revives 3 forces for free" in lines[1]
