"""``python -m mentat``: the same as the ``mentat`` command."""

from __future__ import annotations

import sys

from mentat.cli import main

if __name__ == "__main__":
    sys.exit(main())
