"""Issue 24: the generic words and session never name a phase; each phase's words module
registers its words (bot.words.phase_words), found from the engine's registry."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

from bot.words import phase_words
from bot.words.phase_words import PhaseWords, register
from bot.words.turn import describe_turn_event, phase_name, stands_aside
from rules.battle.events import TraitorKept
from rules.events import CardsDealt, Passed
from rules.factions import Faction
from rules.game_model import GamePhase
from rules.phases import REGISTRY
from rules.storm.events import StormDialed, StormOrder
from tools.phase_places import PHASES, code_names

ROOT = Path(__file__).resolve().parents[2]

GENERIC = (
    "bot/words/turn.py",
    "bot/words/choices.py",
    "bot/words/status.py",
    "bot/words/answers.py",
    "bot/words/phase_words.py",
    "bot/seats/briefing.py",
    "bot/session/turns.py",
    "bot/session/passes.py",
    "bot/record/summary.py",
    "bot/record/announce.py",
    "bot/orders.py",
    "bot/phase_parts.py",
    "bot/delivery.py",
    "bot/publisher.py",
    "bot/render/maps.py",
    "bot/web/page.py",
    "bot/web/server.py",
    "bot/web/shields.py",
    "bot/web/sources.py",
    "bot/web/static.py",
    "bot/web/timeline.py",
    "bot/demo/game.py",
    "bot/demo/phase.py",
    "cogs/publisher.py",
    "cogs/turn/turn.py",
    "cogs/turn/choices.py",
    "cogs/moderation/moderation.py",
    "cogs/play/karama.py",
    "rules/bribes.py",
    "rules/game.py",
    "rules/recorded.py",
    "rules/karama_turn.py",
)
"""Generic modules that once named the Bidding or Battle phase (issue 24) and now ask the
phases' registries (their rules, words, orders, scenes) instead."""


@pytest.mark.parametrize("module", GENERIC)
@pytest.mark.parametrize("phase", ["Bidding", "Battle"])
def test_a_generic_module_names_no_phase_in_its_code(module: str, phase: str) -> None:
    named = code_names((ROOT / module).read_text(encoding="utf-8")) & PHASES[phase]
    assert not named, f"{module} names the {phase} phase: {sorted(named)}"


LEFT_BY_REVIVAL_AND_CHARITY = (
    "rules/actions.py",
    "rules/events.py",
    "rules/legal.py",
    "rules/machine.py",
    "rules/components.py",
    "bot/orders.py",
    "bot/words/bidding.py",
    "bot/words/choices.py",
    "bot/words/turn.py",
    "cogs/auction/auction.py",
    "cogs/auction/autocomplete.py",
    "cogs/auction/choices.py",
    "cogs/auction/karama.py",
    "cogs/moderation/moderation.py",
    "cogs/turn/turn.py",
)
"""The modules that named the Revival or CHOAM Charity phase before their places held all
of it (issue 24): the generic ones, and the Bidding phase's own."""


@pytest.mark.parametrize("module", GENERIC + LEFT_BY_REVIVAL_AND_CHARITY)
@pytest.mark.parametrize("phase", ["Revival", "CHOAM Charity"])
def test_revival_and_charity_live_in_their_own_places(module: str, phase: str) -> None:
    named = code_names((ROOT / module).read_text(encoding="utf-8")) & PHASES[phase]
    assert not named, f"{module} names the {phase} phase: {sorted(named)}"


LEFT_BY_THE_STORM = (
    "bot/words/turn.py",
    "bot/words/choices.py",
    "cogs/orders/orders.py",
    "cogs/turn/turn.py",
    "cogs/turn/choices.py",
    "cogs/turn/autocomplete.py",
)
"""The modules that held the Storm phase's words, its commands or its standing order's
command before its places held them (issue 24). The storm as a board piece (its sector, the
storm order of the turns, movement through it, the map's drawing) is no phase's and stays
where it is."""


@pytest.mark.parametrize("module", LEFT_BY_THE_STORM)
def test_the_storm_phase_lives_in_its_own_places(module: str) -> None:
    named = code_names((ROOT / module).read_text(encoding="utf-8")) & PHASES["Storm"]
    assert not named, f"{module} names the Storm phase: {sorted(named)}"


def test_the_storm_phase_s_words_are_its_own() -> None:
    (storm,) = phase_words.of(GamePhase.STORM)
    assert phase_name("storm") == "Storm"
    assert stands_aside("storm", "") == "plays no storm card"
    assert storm.steps["dial"] == "the storm dial, kept secret until every dial is in"
    assert storm.step_passes == {"storm_cards": "pass (play no storm card)"}
    dialed = StormDialed(Faction.ATREIDES)
    assert describe_turn_event(dialed) == "Atreides has dialed for the storm."
    order = StormOrder((Faction.HARKONNEN, Faction.ATREIDES), "1.01.01")
    assert (
        describe_turn_event(order) == "First player: Harkonnen. Storm order: Harkonnen, Atreides."
    )


def test_each_phase_words_module_is_found_from_the_engines_registry() -> None:
    registered = {words.phase for words in phase_words.every()}
    assert {
        GamePhase.STORM,
        GamePhase.CHOAM_CHARITY,
        GamePhase.BIDDING,
        GamePhase.REVIVAL,
        GamePhase.BATTLE,
    } <= registered
    assert GamePhase.SETUP in registered  # the traitor cards, the Battle's, dealt at set-up
    loaded = {phase for phase in REGISTRY if f"bot.words.{phase.value}" in sys.modules}
    assert loaded == {
        GamePhase.STORM,
        GamePhase.CHOAM_CHARITY,
        GamePhase.BIDDING,
        GamePhase.REVIVAL,
        GamePhase.BATTLE,
    }


def test_the_phases_words_come_in_the_order_of_play() -> None:
    order = list(GamePhase)
    phases = [order.index(words.phase) for words in phase_words.every()]
    assert phases == sorted(phases)
    assert [w.phase for w in phase_words.of("revival")] == [GamePhase.REVIVAL]
    assert phase_words.of(GamePhase.SPICE_COLLECTION) == ()  # a phase without words of its own


def test_a_phases_words_registered_twice_are_refused() -> None:
    (battle,) = phase_words.of(GamePhase.BATTLE)
    with pytest.raises(ValueError, match="the battle phase's words are registered twice"):
        register(battle)
    assert phase_words.of(GamePhase.BATTLE) == (battle,)


def test_a_phase_names_itself_and_its_passes() -> None:
    assert phase_name("bidding") == "Bidding"
    assert phase_name("battle") == "Battle"
    assert phase_name("spice_blow") == "Spice Blow"  # the generic table's
    assert stands_aside("battle", "voice") == "does not use the Voice"
    assert stands_aside("battle", "plans") == "passes"  # the phase's own pass
    assert stands_aside("revival", "") == "takes only its free revival"
    assert stands_aside("worm_ride", "") == "does not ride the worm"


def test_the_traitor_cards_words_are_the_battles_for_set_ups_events() -> None:
    dealt = CardsDealt(Faction.HARKONNEN, "traitors", 4, "1.00.03")
    assert describe_turn_event(dealt) == "Harkonnen is dealt 4 traitor cards, face down."
    treachery = CardsDealt(Faction.HARKONNEN, "treachery", 2, "1.00.04")
    assert describe_turn_event(treachery) == "Harkonnen is dealt 2 treachery cards, face down."
    kept = TraitorKept(Faction.ATREIDES, 1, "1.00.03")
    assert describe_turn_event(kept) == "Atreides keeps one traitor, face down."
    passed = Passed(Faction.ATREIDES, "battle", "traitor_calls")
    assert describe_turn_event(passed) == "Atreides calls no traitor."


def test_phase_words_default_to_nothing() -> None:
    words = PhaseWords(GamePhase.STORM)
    assert words.describe is None and words.prompt is None and not words.steps
    assert list(words.seen_by(TraitorKept(Faction.ATREIDES, 1, "1.00.03"))) == []


def test_the_open_shields_rows_keep_their_places_the_phases_among_them() -> None:
    """The traitors after the hand, the battle plan after the dial: each phase's words give
    its rows with their places, the shield's own rows keep theirs."""
    from bot.web.shields import section
    from bot.web.timeline import Shields
    from rules.battle.view import HELD, TraitorSecrets
    from tests.rules.battle_helpers import duel, plan

    state = duel({"cards": ("Crysknife",)})
    plan(state, "harkonnen", "Feyd Rautha", 4, weapon="Crysknife")
    seen = state.view_for(Faction.HARKONNEN)
    own = {**seen.secrets.parts, HELD: TraitorSecrets(traitors=("Duncan Idaho",))}
    view = replace(seen, secrets=replace(seen.secrets, parts=own))
    rows = phase_words.shield_rows(view)
    assert [name for _, name, _ in rows] == ["Traitors", "Battle plan"]
    html = section(Shields((view,), ()), 1)
    names = ["Spice:", "Treachery cards:", "Traitors:", "Battle plan:"]
    found = [html.index(name) for name in names]
    assert found == sorted(found) and "Crysknife" in html and "Feyd Rautha" in html
