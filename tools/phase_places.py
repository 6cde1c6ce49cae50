"""Count the places of rules/, bot/ and cogs/ whose code names a phase (issue 24).

A place is a module, or a folder named after the phase (counted once, whatever it holds).
Code means identifiers: comments and docstrings aside, and string literals too (a phase's
name in a message is words, not code). An identifier names a phase when one of its words
(split at underscores and capitals) is one of the phase's words: for Bidding "bid",
"bidding", "auction"...; for Battle "battle", "traitor", "voice", "prescience"...

    python tools/phase_places.py [--list]
"""

from __future__ import annotations

import io
import re
import sys
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rules", "bot", "cogs")
PHASES: dict[str, frozenset[str]] = {
    "Bidding": frozenset({"bid", "bids", "bidding", "bidder", "bidders", "auction", "auctions"}),
    "Battle": frozenset(
        {"battle", "battles", "traitor", "traitors", "voice", "prescience", "battlefield"}
    ),
    "Revival": frozenset({"revival", "revivals", "revive", "revives", "revived"}),
    "Storm": frozenset({"storm"}),
    "CHOAM Charity": frozenset({"charity", "choam"}),
}
_PARTS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def words(identifier: str) -> set[str]:
    return {p.lower() for chunk in identifier.split("_") for p in _PARTS.findall(chunk)}


def code_names(source: str) -> set[str]:
    """The identifiers of ``source``'s code (comments, docstrings and strings aside)."""
    names: set[str] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.NAME:
            names |= words(token.string)
    return names


def place(path: Path, phase_words: frozenset[str]) -> str:
    """The place ``path`` counts as: its first folder named after the phase, or itself."""
    parts = path.relative_to(ROOT).parts
    for i, part in enumerate(parts[:-1]):
        if words(part) & phase_words:
            return "/".join(parts[: i + 1]) + "/"
    return "/".join(parts)


def places(phase_words: frozenset[str]) -> list[str]:
    found: set[str] = set()
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if code_names(path.read_text(encoding="utf-8")) & phase_words:
                found.add(place(path, phase_words))
    return sorted(found)


def main(argv: list[str]) -> int:
    for phase, phase_words in PHASES.items():
        found = places(phase_words)
        print(f"{phase}: {len(found)} places")
        if "--list" in argv:
            for where in found:
                print(f"    {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
