"""How long ``mentat --help`` takes: the commands' modules (the renderer, the demo,
discord.py) are imported only by the command that needs them.

Prints progress lines, then one JSON object on the last line: ``help_ms_median``, the wall
time of ``python -m mentat --help`` in a new process (median of RUNS), and
``help_imports``, how many of the renderer's, the demo's and discord.py's modules it imported
(0). Target: help_ms_median <= 300 (it was about 800 ms here, 1.8 s on a busy machine, when
``mentat --help`` imported every command).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNS = 9
HEAVY = ("discord", "PIL", "bot.render", "bot.demo.phase", "mentat.run")
COUNT_HEAVY = f"""
import sys
from mentat.cli import main
try:
    main(["--help"])
except SystemExit:
    pass
print(sum(1 for m in sys.modules if m.startswith({HEAVY!r})), file=sys.stderr)
"""


def help_ms() -> float:
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "mentat", "--help"], cwd=ROOT, capture_output=True, check=True
    )
    return (time.perf_counter() - started) * 1000


def heavy_imports() -> int:
    done = subprocess.run(
        [sys.executable, "-c", COUNT_HEAVY], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return int(done.stderr.strip())


def main() -> None:
    times = [help_ms() for _ in range(RUNS)]
    result = {
        "help_ms_median": round(statistics.median(times), 1),
        "help_imports": heavy_imports(),
    }
    print(f"mentat --help: {result['help_ms_median']} ms (target <= 300)")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
