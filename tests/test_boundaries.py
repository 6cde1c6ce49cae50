"""Package boundaries: rules/ is standard library only; bot/ never imports discord or cogs,
not even through importlib; only the composition root (mentat/) imports every package."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

DYNAMIC_IMPORTERS = {"import_module", "__import__"}
"""The calls that import a module named by a string (``importlib.import_module``, ...)."""


def dynamic_imports(tree: ast.AST) -> list[tuple[int, str | None]]:
    """Each call that imports a module by name: its line and the name (None if not a literal)."""
    found: list[tuple[int, str | None]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if called not in DYNAMIC_IMPORTERS:
            continue
        first = node.args[0] if node.args else None
        named = first.value if isinstance(first, ast.Constant) else None
        found.append((node.lineno, named if isinstance(named, str) else None))
    return found


def module_names(tree: ast.AST) -> set[str]:
    """The top-level packages ``tree`` imports, statically or by a string literal."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    names |= {name.split(".")[0] for _, name in dynamic_imports(tree) if name}
    return names


def parsed(package: str) -> dict[str, ast.AST]:
    return {
        str(path.relative_to(ROOT)): ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def imported_modules(package: str) -> dict[str, set[str]]:
    return {path: module_names(tree) for path, tree in parsed(package).items()}


def test_rules_imports_only_the_standard_library_and_itself() -> None:
    allowed = set(sys.stdlib_module_names) | {"rules", "__future__"}
    for path, names in imported_modules("rules").items():
        assert names <= allowed, f"{path} imports {sorted(names - allowed)}"


def test_bot_never_imports_discord_cogs_or_the_composition_root() -> None:
    banned = {"discord", "cogs", "mentat"}
    for path, names in imported_modules("bot").items():
        assert not names & banned, f"{path} imports {sorted(names & banned)}"


def test_rules_never_imports_the_application() -> None:
    for path, names in imported_modules("rules").items():
        assert not names & {"bot", "cogs", "mentat"}, path


def test_the_discord_layer_never_imports_the_composition_root() -> None:
    for path, names in imported_modules("cogs").items():
        assert "mentat" not in names, path


PHASE_PARTS = ("bot/phase_parts.py", ("rules.", "bot.words.", "bot.render."))
"""The one module that imports by a string: each registered phase's part of the engine
(``rules.<phase>.<part>``), its words (``bot.words.<phase>``) or its picture's part
(``bot.render.<phase>.<part>``), found by convention from
the engine's registry so that no generic module of the bot names a phase."""


@pytest.mark.parametrize("package", ["rules", "bot"])
def test_no_module_is_imported_by_a_string(package: str) -> None:
    """A string-named import hides a dependency from the checks above (and from mypy);
    only :mod:`bot.phase_parts` imports so: the phases' parts of the engine, their words and
    their pictures."""
    loader, allowed = PHASE_PARTS
    for path, tree in parsed(package).items():
        if path == loader:
            assert len(dynamic_imports(tree)) == 1 and templates(tree)
            assert all(t.startswith(allowed) for t in templates(tree)), templates(tree)
            continue
        assert not dynamic_imports(tree), f"{path} imports by name at {dynamic_imports(tree)}"


def templates(tree: ast.AST) -> list[str]:
    """The literal start of each f-string of ``tree`` (the names its imports are built from)."""
    return [
        head.value
        for node in ast.walk(tree)
        if isinstance(node, ast.JoinedStr) and node.values
        for head in node.values[:1]
        if isinstance(head, ast.Constant) and isinstance(head.value, str)
    ]


def test_the_phases_parts_are_the_engines_or_their_words() -> None:
    """bot.phase_parts's one import by a string reaches the phases' parts of the engine and
    the phases' words, nothing else."""
    from bot import phase_parts

    assert len(dynamic_imports(parsed("bot")[PHASE_PARTS[0]])) == 1
    assert phase_parts.module_name("bidding", "orders") == "rules.bidding.orders"
    modules = phase_parts.phase_modules("orders")
    assert modules, "the Bidding phase declares its standing order in rules/bidding/orders.py"
    assert all(m.__name__.startswith("rules.") for m in modules)
    assert phase_parts.phase_modules("no_such_part") == []
    words = [m.__name__ for m in phase_parts.words_modules()]
    assert words == [
        "bot.words.storm",
        "bot.words.choam_charity",
        "bot.words.bidding",
        "bot.words.revival",
        "bot.words.battle",
    ]
    pictures = [m.__name__ for m in phase_parts.picture_modules("scene")]
    assert pictures == ["bot.render.battle.scene"]


def test_an_import_by_a_string_is_seen() -> None:
    tree = ast.parse(
        "import importlib\nfrom importlib import import_module\n"
        "importlib.import_module('cogs.runner')\nimport_module('discord.ext')\n"
        "__import__('cogs')\nimportlib.import_module(name)\n"
    )
    assert dynamic_imports(tree) == [(3, "cogs.runner"), (4, "discord.ext"), (5, "cogs"), (6, None)]
    assert module_names(tree) >= {"cogs", "discord", "importlib"}


LINE_LIMIT = 600
"""No module of the application or the Discord layer is longer (one job a module)."""


def python_modules(*packages: str) -> list[str]:
    return [
        str(path.relative_to(ROOT)) for p in packages for path in sorted((ROOT / p).rglob("*.py"))
    ]


@pytest.mark.parametrize("module", python_modules("bot", "cogs", "mentat"))
def test_no_module_is_longer_than_the_limit(module: str) -> None:
    lines = len((ROOT / module).read_text(encoding="utf-8").splitlines())
    assert lines <= LINE_LIMIT, f"{module} has {lines} lines; split it (at most {LINE_LIMIT})"


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
        elif isinstance(node, ast.ImportFrom) and _from_rules(node):
            module = str(node.module)
            found.update(_imported_module(module, a.name) for a in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _from_rules(node: ast.ImportFrom) -> bool:
    return not node.level and (node.module or "").split(".")[0] == "rules"


def _imported_module(module: str, name: str) -> str:
    """What ``from module import name`` imports: the submodule ``name`` if there is one."""
    folder = ROOT.joinpath(*module.split("."))
    if (folder / f"{name}.py").exists() or (folder / name / "__init__.py").exists():
        return f"{module}.{name}"
    return module


def rules_module_name(path: Path) -> str:
    """``rules/bidding/spec.py`` -> ``rules.bidding.spec``; a package's ``__init__`` is the
    package."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def rules_modules() -> list[Path]:
    """Every module of the engine but ``rules/__init__.py`` (which imports the registry, so
    that every phase's actions and events are known whatever is imported first)."""
    return [p for p in sorted((ROOT / "rules").rglob("*.py")) if p != ROOT / "rules/__init__.py"]


def rules_import_graph() -> dict[str, set[str]]:
    return {rules_module_name(path): runtime_rules_imports(path) for path in rules_modules()}


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
    for path in rules_modules():
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
        for d in ("rules", "bot", "cogs", "mentat", "tests", "bench", "docs")
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
    """`make test` runs mypy --strict over every package (issue 10, point 21; issue 12)."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    line = next(x for x in makefile.splitlines() if "mypy" in x and "--strict" in x)
    assert set(line.split()) >= {"--strict", "rules", "bot", "cogs", "mentat"}
