"""The effective history, from log headers alone: no database, no engine."""

from __future__ import annotations

import pytest

from bot.store import CorruptLogError, History, NothingToRedoError, NothingToUndoError


def test_history_follows_undo_and_redo() -> None:
    history = History.of([(1, "start", None), (2, "action", None), (3, "action", None)])
    history = history.after("undo", 3).after("undo", 2)
    assert (history.effective, history.undone) == ([1], [3, 2])
    history = history.after("redo", 2)
    assert (history.effective, history.undone, history.last_seq) == ([1, 2], [3], 6)
    assert history.after("action").undone == []


def test_after_leaves_the_original_alone() -> None:
    history = History.of([(1, "start", None), (2, "action", None)])
    later = history.after("undo", 2)
    assert (history.effective, history.undone, history.last_seq) == ([1, 2], [], 2)
    assert (later.effective, later.undone, later.last_seq) == ([1], [2], 3)


def test_a_new_phase_clears_undo_and_redo() -> None:
    history = History.of([(1, "start", None), (2, "action", None), (3, "undo", 2)])
    history = history.after("start")
    assert (history.effective, history.undone, history.start, history.head) == ([4], [], 4, 4)
    assert not history.can_undo and not history.can_redo
    with pytest.raises(NothingToUndoError, match="no action to undo"):
        history.undo_target()
    with pytest.raises(NothingToRedoError, match="no undone action"):
        history.redo_target()


def test_targets_are_the_top_entries() -> None:
    history = History.of([(1, "start", None), (2, "action", None), (3, "action", None)])
    assert history.undo_target() == 3
    assert history.after("undo", 3).redo_target() == 3


@pytest.mark.parametrize(
    ("headers", "message"),
    [
        ([(1, "start", None), (3, "action", None)], "#3 follows #1"),
        ([(1, "action", None)], "before any start entry"),
        ([(1, "start", None), (2, "undo", 1)], "#2 targets #1"),
        ([(1, "start", None), (2, "action", None), (3, "undo", 1)], "#3 targets #1"),
        ([(1, "start", None), (2, "redo", 1)], "#2 targets #1"),
        ([(1, "start", None), (2, "bogus", None)], "unknown kind 'bogus'"),
    ],
)
def test_a_log_that_cannot_be_is_corrupt(
    headers: list[tuple[int, str, int | None]], message: str
) -> None:
    with pytest.raises(CorruptLogError, match=message):
        History.of(headers)


def test_snapshot_bookkeeping() -> None:
    history = History.of([(1, "start", None), *((n, "action", None) for n in range(2, 7))])
    assert history.since({1, 4}) == 2  # entries 5 and 6 lie above snapshot 4
    assert history.since(set()) == 6
    undone = history.after("undo", 6).after("undo", 5).after("undo", 4)
    assert undone.newest_in_effect({1, 4, 6}) == 1  # 4 and 6 are no longer in effect
    assert history.newest_in_effect({1, 4}) == 4
    assert history.replay_after(4) == [5, 6]
