"""Package boundaries: rules/ is standard library only; bot/ never imports discord."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def imported_modules(package: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module.split(".")[0])
        found[str(path.relative_to(ROOT))] = names
    return found


def test_rules_imports_only_the_standard_library_and_itself() -> None:
    allowed = set(sys.stdlib_module_names) | {"rules", "__future__"}
    for path, names in imported_modules("rules").items():
        assert names <= allowed, f"{path} imports {sorted(names - allowed)}"


def test_bot_never_imports_discord_or_cogs() -> None:
    for path, names in imported_modules("bot").items():
        assert not names & {"discord", "cogs"}, (
            f"{path} imports {sorted(names & {'discord', 'cogs'})}"
        )


def test_rules_never_imports_the_application() -> None:
    for path, names in imported_modules("rules").items():
        assert not names & {"bot", "cogs"}, path


def runtime_rules_imports(path: Path) -> set[str]:
    """The rules modules ``path`` imports when it runs (``if TYPE_CHECKING:`` blocks aside)."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("rules."))
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if node.module == "rules":
                found.update(f"rules.{a.name}" for a in node.names)
            elif node.module.startswith("rules."):
                found.add(node.module)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def rules_import_graph() -> dict[str, set[str]]:
    return {
        f"rules.{path.stem}": runtime_rules_imports(path)
        for path in sorted((ROOT / "rules").glob("*.py"))
        if path.stem != "__init__"
    }


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` as a path (first module repeated last), or None."""
    done: set[str] = set()

    def walk(module: str, path: list[str]) -> list[str] | None:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return None
        for target in sorted(graph.get(module, ())):
            cycle = walk(target, [*path, module])
            if cycle:
                return cycle
        done.add(module)
        return None

    for module in sorted(graph):
        cycle = walk(module, [])
        if cycle:
            return cycle
    return None


def test_the_rules_modules_import_one_another_without_a_cycle() -> None:
    cycle = find_cycle(rules_import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or ())


def test_the_position_imports_no_rule_module() -> None:
    rule_modules = {"rules.bene_gesserit", "rules.guild", "rules.karama", "rules.machine"}
    rule_modules |= {"rules.movement", "rules.shipment", "rules.turn_flow", "rules.game"}
    assert not runtime_rules_imports(ROOT / "rules" / "position.py") & rule_modules


def test_the_cycle_finder_finds_a_cycle_and_ignores_type_only_imports(tmp_path: Path) -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None
    module = tmp_path / "m.py"
    module.write_text(
        "from typing import TYPE_CHECKING\nfrom rules import game\n"
        "if TYPE_CHECKING:\n    from rules.position import Position\n"
        "def f():\n    from rules.machine import HANDLERS\n",
        encoding="utf-8",
    )
    assert runtime_rules_imports(module) == {"rules.game", "rules.machine"}


def test_the_rules_modules_import_at_the_top_only() -> None:
    """No import inside a function (the way an import cycle hides)."""
    for path in sorted((ROOT / "rules").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                inner = [n for n in ast.walk(node) if isinstance(n, ast.Import | ast.ImportFrom)]
                assert not inner, f"{path.name}: {node.name} imports inside the function"


OUTSIDE_PATH = re.compile(r"/work/|(?<![\w.-])shared/|^/(home|Users|tmp)/")
PROJECT_TEXTS = ("Makefile", "pyproject.toml", "README.md", ".env.example")


def string_literals(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]


def test_code_tests_and_bench_read_only_the_repositorys_own_files() -> None:
    sources = [
        p
        for d in ("rules", "bot", "cogs", "tests", "bench", "docs")
        for p in (ROOT / d).rglob("*.py")
    ]
    for path in sources:
        if path == Path(__file__).resolve():
            continue  # the pattern itself
        for text in string_literals(path):
            assert not OUTSIDE_PATH.search(text), f"{path.relative_to(ROOT)} names {text!r}"
    for name in PROJECT_TEXTS:
        text = (ROOT / name).read_text(encoding="utf-8")
        assert not OUTSIDE_PATH.search(text), f"{name} names a path outside the repository"


def test_make_test_type_checks_every_package_strictly() -> None:
    """`make test` runs mypy --strict over rules, bot and cogs (issue 10, point 21)."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    line = next(x for x in makefile.splitlines() if "mypy" in x and "--strict" in x)
    assert set(line.split()) >= {"--strict", "rules", "bot", "cogs"}
