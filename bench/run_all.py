"""Run every bench/bench_*.py script and print each one's JSON result line.

It lists the scripts first, then each one's output and wall time, and at the end one JSON
object: each script's result under its name, and ``total_s``, the whole run's wall time.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    scripts = sorted(HERE.glob("bench_*.py"))
    print(f"{len(scripts)} benchmarks: {', '.join(s.name for s in scripts)}", flush=True)
    results: dict[str, object] = {}
    started = time.perf_counter()
    for script in scripts:
        print(f"== {script.name}", flush=True)
        began = time.perf_counter()
        done = subprocess.run(
            [sys.executable, str(script)], capture_output=True, text=True, check=False
        )
        print(done.stdout, end="")
        print(f"({script.name}: {time.perf_counter() - began:.1f} s)", flush=True)
        if done.returncode != 0:
            print(done.stderr, file=sys.stderr)
            return done.returncode
        results[script.stem] = json.loads(done.stdout.strip().splitlines()[-1])
    total = time.perf_counter() - started
    print(f"all {len(scripts)} benchmarks: {total:.1f} s")
    print(json.dumps({**results, "total_s": round(total, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
