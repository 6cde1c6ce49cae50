"""The scenario contract's texts are fixed outside the project; docs/ holds byte-equal
copies (issue 23 §5). Their checksums are recorded here, so that an edit of a copy (a
reading of ours written into the contract) fails: our readings go to
docs/whole-turn-readings.md. A new version of the contract is copied whole, with its new
checksum."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
CONTRACT = {
    "SCENARIO-FORMAT.md": "c1a4911dcfb252e36dc3e417d863f035696c591d879d3ccd0658df10658e4ff0",
    "SCENARIO-FORMAT-2.md": "9d5399591783f3de242bfe2418d7e56d5d0589c79ad858f477f912222f7aca74",
}


@pytest.mark.parametrize(("name", "digest"), sorted(CONTRACT.items()))
def test_the_contract_copies_are_the_contract(name: str, digest: str) -> None:
    assert hashlib.sha256((DOCS / name).read_bytes()).hexdigest() == digest
