"""The whole-game demo's wall time: `mentat demo` (maps on) into a temporary folder.

Prints one JSON object on its last line: demo_s, maps, entries.
Target (issue 13): demo_s < 60 on the project's 2-core machine.
"""

from __future__ import annotations

import asyncio
import io
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.demo.game import play_game_demo


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        publisher = asyncio.run(play_game_demo(Path(tmp) / "out", stream=io.StringIO()))
        seconds = time.perf_counter() - started
    result = {"demo_s": round(seconds, 1), "maps": publisher.maps, "entries": len(publisher.log)}
    print(f"whole-game demo: {result['demo_s']} s (target < 60)")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
