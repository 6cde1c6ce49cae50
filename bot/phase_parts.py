"""The parts each phase declares in its own place, found by the phase's name.

A generic bot module that needs what each phase declares (its standing order, its words...)
asks here instead of importing the phase by name: for each phase of the engine's registry
(:data:`rules.phases.REGISTRY`), in the order of play, the module ``rules.<phase>.<part>``
(:func:`phase_modules`), ``bot.words.<phase>`` (:func:`words_modules`) or
``bot.render.<phase>.<part>`` (:func:`picture_modules`) where the phase has one. The one place
of ``bot/`` that imports by a string (tests/test_boundaries.py holds it to these patterns).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from rules.phases import REGISTRY


def module_name(phase: str, part: str) -> str:
    """The module where ``phase`` declares its ``part`` of the engine ("rules.<phase>.orders")."""
    return f"rules.{phase}.{part}"


def words_name(phase: str) -> str:
    """The module of ``phase``'s words ("bot.words.<phase>")."""
    return f"bot.words.{phase}"


def picture_name(phase: str, part: str) -> str:
    """The module of ``phase``'s picture that holds its ``part`` ("bot.render.<phase>.scene")."""
    return f"bot.render.{phase}.{part}"


def phase_modules(part: str) -> list[ModuleType]:
    """Each registered phase's ``part`` module of the engine, in the order of play; a phase
    without one (a phase in a single module, or a package without that part) is skipped."""
    return _each([module_name(phase.value, part) for phase in REGISTRY])


def words_modules() -> list[ModuleType]:
    """Each registered phase's words module, in the order of play (a phase without one has
    only the generic words)."""
    return _each([words_name(phase.value) for phase in REGISTRY])


def picture_modules(part: str) -> list[ModuleType]:
    """Each registered phase's ``part`` module of its picture, in the order of play (a phase
    without a picture of its own is drawn on the map alone)."""
    return _each([picture_name(phase.value, part) for phase in REGISTRY])


def _each(names: list[str]) -> list[ModuleType]:
    found: list[ModuleType] = []
    for name in names:
        try:
            found.append(importlib.import_module(name))
        except ModuleNotFoundError as missing:
            if not (missing.name and name.startswith(missing.name)):
                raise  # the module exists but imports something missing: a real fault
    return found
