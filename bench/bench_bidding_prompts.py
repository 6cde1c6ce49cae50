"""Prompts of a six-player Bidding phase of six cards, with and without standing orders.

Prints one JSON object on its last line: the prompts (each pings its player once) and the
orders given, for nobody ordering, the two factions that want no card ordering "pass on
everything", and every faction ordering (tests/bot/prompt_count.py says how). The issue
asks for the figure; there is no target.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the counter lives in tests/

from tests.bot.prompt_count import figures


def main() -> None:
    found = asyncio.run(figures())
    out = {f"{c.orders}_prompts": c.prompts for c in found}
    out |= {f"{c.orders}_orders_given": c.orders_given for c in found}
    out["cards"] = found[0].cards
    out["turns_to_bid"] = found[0].answers
    print(json.dumps(out))


if __name__ == "__main__":
    main()
