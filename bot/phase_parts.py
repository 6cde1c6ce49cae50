"""The parts a phase declares in its own rules package, found by the phase's name.

A generic bot module that needs what each phase declares (its standing order, ...) asks
here instead of importing the phase by name: for each phase of the engine's registry
(:data:`rules.phases.REGISTRY`), the module ``rules.<phase>.<part>`` where the phase has
one. The one place of ``bot/`` that imports by a string; it imports only the engine's
modules (tests/test_boundaries.py holds it to that).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from rules.phases import REGISTRY

ENGINE = "rules"
"""The only package these imports reach: the engine (which imports nothing of the bot)."""


def module_name(phase: str, part: str) -> str:
    """The module where ``phase`` declares its ``part`` ("rules.<phase>.orders")."""
    return f"{ENGINE}.{phase}.{part}"


def phase_modules(part: str) -> list[ModuleType]:
    """Each registered phase's ``part`` module, in the order of play; a phase without one
    (a phase in a single module, or a package without that part) is skipped."""
    found: list[ModuleType] = []
    for phase in REGISTRY:
        name = module_name(phase.value, part)
        try:
            found.append(importlib.import_module(name))
        except ModuleNotFoundError as missing:
            if missing.name not in (name, f"{ENGINE}.{phase.value}"):
                raise  # the part exists but imports something missing: a real fault
    return found
