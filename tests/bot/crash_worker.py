"""A scripted phase run through a game's ledger, for the crash test (killed at random points).

Usage: ``python -m tests.bot.crash_worker DB STEPS``, STEPS a JSON file written by
:func:`save_steps`. The game (id 1) must exist in DB. Prints ``ready`` once the store is open,
then runs every step from the first: steps already in the log come back as duplicates. After
each accepted step it prints ``ack KEY`` (what a bot would announce), and ``done`` at the end.
It exits with status 3 when the store misbehaves (a duplicate not flagged, a refusal not
raised...).
"""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from bot.ledger import Ledger, SubmitResult
from bot.store import Store
from rules.actions import action_from_dict
from rules.errors import RulesError
from tests.bot.phase_script import random_phase

GAME = 1
PLAYER = 222
MODERATOR = 111
SNAPSHOT_EVERY = 3
NOWHERE = {"faction": "atreides", "action": "ship", "to": "Nowhere", "sector": 1, "forces": 1}


@dataclass(frozen=True, slots=True)
class Step:
    kind: str  # "action", "undo", "redo", or "refused" (an action every position refuses)
    key: str
    action: dict[str, Any] | None = None


def steps(seed: int) -> list[Step]:
    """The phase of ``seed`` with undo/redo, undo/resubmit and duplicate submissions."""
    out: list[Step] = []
    for i, action in enumerate(random_phase(seed)):
        out.append(Step("action", f"a{i}", action))
        if i % 5 == 1:
            out += [Step("undo", f"u{i}"), Step("redo", f"r{i}")]
        if i % 5 == 3:
            out += [Step("undo", f"u{i}"), Step("action", f"a{i}b", action)]
        if i % 4 == 0:
            out.append(Step("action", f"a{i}", action))
    out.insert(len(out) // 2, Step("refused", "bad", NOWHERE))
    return out


def save_steps(path: Path, script: list[Step]) -> None:
    path.write_text(json.dumps([asdict(step) for step in script]), encoding="utf-8")


def load_steps(path: Path) -> list[Step]:
    return [Step(**step) for step in json.loads(path.read_text(encoding="utf-8"))]


async def run_step(ledger: Ledger, step: Step) -> SubmitResult | None:
    """Carry out one step; None for the refused one."""
    if step.kind == "undo":
        return await ledger.undo(MODERATOR, step.key)
    if step.kind == "redo":
        return await ledger.redo(MODERATOR, step.key)
    assert step.action is not None
    try:
        return await ledger.submit(action_from_dict(step.action), actor=PLAYER, key=step.key)
    except RulesError:
        if step.kind == "refused":
            return None
        raise


async def run_steps(store: Store, script: list[Step], announce: bool = False) -> None:
    """Run ``script``, checking that exactly the keys already logged come back as duplicates."""
    seen = {entry.key for entry in await store.log(GAME)}
    ledger = await Ledger.open(store, GAME)
    for step in script:
        result = await run_step(ledger, step)
        if (result is None) != (step.kind == "refused"):
            raise AssertionError(f"step {step} was refused or accepted wrongly")
        if result is not None and result.duplicate != (step.key in seen):
            raise AssertionError(f"step {step}: duplicate={result.duplicate}, log had {seen}")
        if result is not None:
            seen.add(step.key)
            if announce:
                print(f"ack {step.key}", flush=True)


async def main(db: str, steps_path: str) -> int:
    script = load_steps(Path(steps_path))
    async with await Store.open(db, snapshot_every=SNAPSHOT_EVERY) as store:
        print("ready", flush=True)
        try:
            await run_steps(store, script, announce=True)
        except AssertionError as error:
            print(error, file=sys.stderr)
            return 3
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2])))
