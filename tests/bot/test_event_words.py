"""Issue 23 §4: every kind of event has words, and an event without them is never posted as
an engine record (the old fallback printed every field of any event it had no words for)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import pytest

from bot.render.examples import public_view
from bot.store.events import LOG_EVENTS, PhaseStarted, Redone, Undone
from bot.words.ceremony import public_notice
from bot.words.narrate import correction_note, describe
from rules.events import EVENT_TYPES, Event, KaramaPower
from rules.factions import Faction
from tests.bot.test_turn_words import INTERNAL, SNAKE_CASE

RULES = Path(__file__).resolve().parents[2] / "rules"


def event_classes(root: type[Event] = Event) -> Iterator[type[Event]]:
    for cls in root.__subclasses__():
        yield cls
        yield from event_classes(cls)


def test_every_event_class_is_a_stored_kind() -> None:
    """So the sample of each stored kind (tests/bot/test_turn_words.py) covers them all.
    (A slotted dataclass leaves its first class behind among the subclasses: compared by
    name.)"""
    for cls in event_classes():
        if cls.kind and not cls.__module__.startswith("tests."):  # Corrected: a base
            stored = EVENT_TYPES.get(cls.kind, LOG_EVENTS.get(cls.kind))
            assert stored is not None, cls
            assert (stored.__module__, stored.__qualname__) == (cls.__module__, cls.__qualname__)


def karama_powers() -> set[str]:
    """Every ``power`` the engine gives a KaramaPower event, read from rules/ itself."""
    found: set[str] = set()
    for path in RULES.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "KaramaPower":
                power = node.args[2] if len(node.args) > 2 else None
                assert isinstance(power, ast.Constant), (path.name, ast.dump(node))
                found.add(str(power.value))
    return found


def test_the_engine_has_karama_powers_to_word() -> None:
    assert {"worm", "take_hand", "revive", "plan"} <= karama_powers()


@pytest.mark.parametrize("power", sorted(karama_powers()))
def test_every_karama_power_has_words(power: str) -> None:
    line = describe(KaramaPower(Faction.ATREIDES, "Karama", power, None, "1.14"))
    assert line and "Karama" in line
    assert not SNAKE_CASE.search(line) and not INTERNAL.search(line), line


def test_the_atreides_karama_plan_reads_as_words() -> None:
    line = describe(KaramaPower(Faction.ATREIDES, "Karama", "plan", None, "1.14.01"))
    assert line == (
        "Atreides plays Karama to see their opponent's whole battle plan (once a game)."
    )


@dataclass(frozen=True, slots=True)
class Unworded(Event):
    """A kind nobody gave words to (as the Atreides' Karama plan once was)."""

    kind: ClassVar[str] = "unworded"
    faction: Faction
    secret: str


def test_an_event_without_words_is_never_dumped() -> None:
    event = Unworded(Faction.ATREIDES, "Lasgun behind the shield")
    assert describe(event) is None
    text = public_notice([event], public_view(())).text
    assert "Lasgun" not in text and "unworded" not in text and "{" not in text


def test_the_log_events_have_their_words() -> None:
    """An undo and a redo are told by the correction's note; a phase start is bookkeeping."""
    body = {"action": "move", "faction": "atreides", "from": "Arrakeen", "to": "Carthag"}
    undone = correction_note(7, "undone", [Undone(3, body, 7)])
    redone = correction_note(7, "redone", [Redone(3, body, 7)])
    assert "taken back" in undone and "made again" in redone
    assert describe(PhaseStarted(3)) is None
