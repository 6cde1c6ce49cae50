"""The effective history: which log entries are in effect, from the log's headers alone.

Pure bookkeeping (no database, no engine). Every change to a game is an entry of its log:
``start`` begins a phase, ``action`` pushes itself and clears the redo chain, ``undo`` moves
the top action to the redo chain and ``redo`` moves it back. The position is the phase's
start position with the effective actions replayed in order.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Literal

from bot.store.errors import CorruptLogError, NothingToRedoError, NothingToUndoError

Kind = Literal["start", "action", "undo", "redo"]


@dataclass(slots=True)
class History:
    """Which log entries are in effect, computed from the log's (seq, kind, target) headers.

    ``effective[0]`` is the seq of the current phase's ``start`` entry and the rest are the
    seqs of the action entries in effect, oldest first; ``undone`` is the redo chain, the next
    entry to redo last. The list ``effective + undone[::-1]`` only grows by new actions, so
    the entries below any effective entry never change: a snapshot taken when entry ``h`` was
    on top is the position now exactly when ``h`` is still in ``effective``.
    """

    effective: list[int] = field(default_factory=list)
    undone: list[int] = field(default_factory=list)
    last_seq: int = 0

    @classmethod
    def of(cls, headers: Iterable[tuple[int, str, int | None]]) -> History:
        """Raises :class:`CorruptLogError` when the headers are not a valid log."""
        history = cls()
        for seq, kind, target in headers:
            history.record(seq, kind, target)
        return history

    def record(self, seq: int, kind: str, target: int | None = None) -> None:
        if seq != self.last_seq + 1:
            raise CorruptLogError(f"log entry #{seq} follows #{self.last_seq}")
        if kind == "start":
            self.effective, self.undone = [seq], []
        elif not self.effective:
            raise CorruptLogError(f"log entry #{seq} ({kind}) comes before any start entry")
        elif kind == "action":
            self.effective.append(seq)
            self.undone.clear()
        elif kind == "undo":
            _move_top(self.effective[1:], self.effective, self.undone, target, seq)
        elif kind == "redo":
            _move_top(self.undone, self.undone, self.effective, target, seq)
        else:
            raise CorruptLogError(f"log entry #{seq} has unknown kind {kind!r}")
        self.last_seq = seq

    def after(self, kind: Kind, target: int | None = None) -> History:
        """A copy with one more entry recorded."""
        new = History(list(self.effective), list(self.undone), self.last_seq)
        new.record(self.last_seq + 1, kind, target)
        return new

    @property
    def start(self) -> int:
        return self.effective[0]

    @property
    def head(self) -> int:
        return self.effective[-1]

    @property
    def can_undo(self) -> bool:
        return len(self.effective) > 1

    @property
    def can_redo(self) -> bool:
        return bool(self.undone)

    def undo_target(self) -> int:
        """The action entry an undo would cancel; raises :class:`NothingToUndoError`."""
        if not self.can_undo:
            raise NothingToUndoError("there is no action to undo in this phase")
        return self.effective[-1]

    def redo_target(self) -> int:
        """The action entry a redo would restore; raises :class:`NothingToRedoError`."""
        if not self.undone:
            raise NothingToRedoError("there is no undone action to redo")
        return self.undone[-1]

    def since(self, heads: Collection[int]) -> int:
        """How many effective entries lie above the newest one in ``heads``."""
        for depth, seq in enumerate(reversed(self.effective)):
            if seq in heads:
                return depth
        return len(self.effective)

    def newest_in_effect(self, heads: Collection[int]) -> int | None:
        """The newest of ``heads`` (snapshot heads) still in effect, if any."""
        in_effect = set(self.effective)
        return max((head for head in heads if head in in_effect), default=None)

    def replay_after(self, base: int) -> list[int]:
        """The effective entries above ``base`` (an effective entry), oldest first."""
        return self.effective[self.effective.index(base) + 1 :]


def _move_top(
    allowed: list[int], source: list[int], dest: list[int], target: int | None, seq: int
) -> None:
    if not allowed or source[-1] != target:
        raise CorruptLogError(f"log entry #{seq} targets #{target}, which it cannot")
    dest.append(source.pop())
