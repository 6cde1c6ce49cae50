""" "Did you mean …?": the one way a misspelt name is answered, wherever it is typed.

Used for a scenario file's keys, an action's keys, a territory of the board and the
``--highlight`` of ``mentat render``.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

CUTOFF = 0.6  # how alike a typed name and a known one must be to suggest it
LONGEST = 40  # a name longer than any known one is cut before it is compared


def closest(typed: str, known: Iterable[str]) -> str | None:
    """The known name ``typed`` most likely means, or None."""
    found = difflib.get_close_matches(typed[:LONGEST], list(known), n=1, cutoff=CUTOFF)
    return found[0] if found else None


def did_you_mean(typed: str, known: Iterable[str]) -> str:
    """``"did you mean 'step'?"``, or the known names when none is close."""
    names = list(known)
    close = closest(typed, names)
    return f"did you mean {close!r}?" if close else f"known: {', '.join(names)}"
