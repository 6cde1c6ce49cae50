"""Package boundaries: rules/ is standard library only; bot/ never imports discord."""

from __future__ import annotations

import ast
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
