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
