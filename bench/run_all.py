"""Run every bench/bench_*.py script and print each one's JSON result line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    results = {}
    for script in sorted(HERE.glob("bench_*.py")):
        print(f"== {script.name}", flush=True)
        done = subprocess.run(
            [sys.executable, str(script)], capture_output=True, text=True, check=False
        )
        print(done.stdout, end="")
        if done.returncode != 0:
            print(done.stderr, file=sys.stderr)
            return done.returncode
        results[script.stem] = json.loads(done.stdout.strip().splitlines()[-1])
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
