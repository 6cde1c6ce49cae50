"""No phase's step is compared as a string: each step is a member of its phase module's
StrEnum (``BattleStep.PLANS``), or asked through its predicate (``bidding.giving_back``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("rules", "bot", "cogs", "mentat")


def _is_step(node: ast.expr) -> bool:
    """``x.step``, ``step`` or ``x.step.value``: where a game (or a turn) is."""
    if isinstance(node, ast.Attribute) and node.attr == "value":
        node = node.value
    if isinstance(node, ast.Attribute):
        return node.attr == "step"
    return isinstance(node, ast.Name) and node.id == "step"


def _is_text(node: ast.expr) -> bool:
    """A string literal, or a tuple, list or set of them."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_is_text(e) for e in node.elts)
    return False


def string_steps(source: str) -> list[int]:
    """The lines of ``source`` that compare a step with a string literal, or test its
    beginning (``step.startswith("nexus")``)."""
    return [node.lineno for node in ast.walk(ast.parse(source)) if _compares_text(node)]


def _compares_text(node: ast.AST) -> bool:
    if isinstance(node, ast.Compare):
        sides = [node.left, *node.comparators]
        return any(_is_step(s) for s in sides) and any(_is_text(s) for s in sides)
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("startswith", "endswith")
        and _is_step(node.func.value)
    )


def test_the_finder_sees_each_way_of_comparing_a_step_as_text() -> None:
    source = (
        'if game.step == "dial": pass\n'
        'if "plans" != state.whole.step: pass\n'
        'if step in ("voice", "prescience"): pass\n'
        'if turn.step.value == "move": pass\n'
        'if step.startswith("nexus"): pass\n'
        "if game.step == BattleStep.PLANS: pass\n"
        "if game.step in NEXT_STEP: pass\n"
        'if game.phase == "storm": pass\n'
    )
    assert string_steps(source) == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("package", PACKAGES)
def test_no_step_is_compared_as_a_string(package: str) -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for line in string_steps(path.read_text(encoding="utf-8"))
    ]
    assert not offenders, "steps compared as strings: " + ", ".join(offenders)
