"""The README's example scenario and Python snippet, taken from README.md, run as written."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from rules import scenario_file

ROOT = Path(__file__).resolve().parents[1]


def readme_block(language: str) -> str:
    """The README's only code block in ``language``."""
    blocks = re.findall(
        rf"^```{language}\n(.*?)^```$", (ROOT / "README.md").read_text(), re.M | re.S
    )
    assert len(blocks) == 1, f"README.md has {len(blocks)} {language} blocks"
    return str(blocks[0])


def test_the_readme_scenario_accepts_each_of_its_actions() -> None:
    data = json.loads(readme_block("json"))
    _, output = scenario_file.run(data)
    assert output["results"], "the example has actions"
    refused = [r for r in output["results"] if not r["accepted"]]
    assert refused == []


def test_the_readme_python_snippet_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the snippet reads an example as from a fresh clone
    names: dict[str, Any] = {}
    exec(compile(readme_block("python"), "README.md", "exec"), names)
    assert names["events"], "the snippet's shipment was accepted"
