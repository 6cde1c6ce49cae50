"""`mentat scenario FILE.json`: one JSON object on stdout; malformed files exit non-zero."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "advanced-phase.json"


def mentat(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mentat", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=60,
    )


def test_a_valid_file_prints_one_json_object_and_exits_0() -> None:
    done = mentat("scenario", str(EXAMPLE))
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)
    assert set(output) == {"results", "state"}
    assert any(not r["accepted"] for r in output["results"])  # refusals still exit 0


def test_a_malformed_file_names_the_field_and_exits_non_zero(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    data = json.loads(EXAMPLE.read_text())
    data["board"][2]["territory"] = "Giedi Prime"
    bad.write_text(json.dumps(data))
    done = mentat("scenario", str(bad))
    assert done.returncode != 0
    assert done.stdout == ""
    assert "board[2].territory" in done.stderr and "Giedi Prime" in done.stderr


def test_a_misspelled_key_exits_2_naming_it(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    data = json.loads(EXAMPLE.read_text())
    data["board"][0]["forcse"] = data["board"][0].pop("forces")
    bad.write_text(json.dumps(data))
    done = mentat("scenario", str(bad))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert "board[0].forcse: unknown key (did you mean 'forces'?)" in done.stderr


def test_not_json_exits_non_zero(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json")
    done = mentat("scenario", str(bad))
    assert done.returncode != 0
    assert "not JSON" in done.stderr


def test_missing_file_exits_non_zero(tmp_path: Path) -> None:
    done = mentat("scenario", str(tmp_path / "missing.json"))
    assert done.returncode != 0
    assert "cannot read" in done.stderr


def test_a_whole_turn_file_runs_through_the_phases(tmp_path: Path) -> None:
    worked = json.loads((ROOT / "examples" / "scenario-2" / "blow_worm_nexus.json").read_text())
    path = tmp_path / "nexus.json"
    path.write_text(json.dumps(worked["scenario"]))
    done = mentat("scenario", str(path))
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)
    assert output["state"]["alliances"] == [["emperor", "spacing_guild"]]
    assert output["state"]["phase"] == "choam_charity"


WORKED = sorted((ROOT / "examples" / "scenario-2").glob("*.json"))


@pytest.mark.parametrize("path", WORKED, ids=[p.stem for p in WORKED])
def test_every_worked_example_runs_as_given(path: Path) -> None:
    done = mentat("scenario", str(path.relative_to(ROOT)))
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)
    expected = json.loads(path.read_text())["output"]
    assert set(output) == {"results", "state"}
    assert output["state"]["turn"] == expected["state"]["turn"]
    assert output["state"]["phase"] == expected["state"]["phase"]


def test_an_unknown_format_names_both_versions(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"seats": ["atreides"], "storm_sector": 1}))
    done = mentat("scenario", str(bad))
    assert done.returncode == 2
    assert "expected 'dune-scenario/1' or 'dune-scenario/2', got None" in done.stderr


def test_a_file_not_in_utf8_is_one_line_and_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "latin1.json"
    bad.write_bytes('{"format": "dune-scenario/1", "about": "Tabr à l\'ouest"}'.encode("latin-1"))
    done = mentat("scenario", str(bad))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1, done.stderr
    assert "not UTF-8 text" in done.stderr and "Traceback" not in done.stderr
