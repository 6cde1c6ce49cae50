"""``mentat`` / ``python -m bot``: the command-line entry point."""

from __future__ import annotations

import sys

from bot.cli import main

if __name__ == "__main__":
    sys.exit(main())
