"""The ledger of one game: its live position, kept in step with its log in the store.

A request goes session -> ledger -> engine and store, once: the ledger checks its key against
the keys of the log (kept in memory), lets the session's guard look at the position, applies
the action to the live position (the engine refuses it, changing nothing, or returns its
events), and appends the entry (with a snapshot when one is due) before it returns.

- **Duplicates.** A request whose key is already in the log is not applied again: the stored
  result comes back with ``duplicate=True`` (:class:`KeyReusedError` when the key was used for
  a different request).
- **Going back.** Undo and redo are log entries too (see :mod:`bot.store.history`); after an
  undo the ledger rebuilds the position by replay: the newest sound snapshot in effect, then
  the effective actions after it (at worst from the phase's ``start`` entry). A moderator's
  correction is an action like any other (:mod:`rules.corrections`), so undo steps over it;
  the replayed log is the truth (the engine's own ``GameState.undo`` is not used here).
- **Failures.** A write or engine failure other than a refusal leaves the ledger stale: the
  next request reloads the game from the store first, so memory never runs ahead of disk.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.store import (
    CorruptLogError,
    Entry,
    GameFinishedError,
    GameRecord,
    History,
    KeyReusedError,
    Kind,
    LogEntry,
    NotModeratorError,
    Store,
)
from bot.store.backend import Header
from bot.store.events import Redone, Undone
from bot.store.shield import completes
from bot.store.store import canonical, started
from rules.actions import Action, action_from_dict, action_to_dict
from rules.errors import RulesError
from rules.events import Event
from rules.game import GameState

log = logging.getLogger(__name__)

Guard = Callable[[GameState], None]
"""Looks at the position before a new request is applied; raises to refuse it."""


@dataclass(frozen=True, slots=True)
class SubmitResult:
    """The outcome of an accepted request, committed before it was returned.

    ``state`` is the ledger's live position of the game: read it, never change it.
    ``duplicate`` means the key was already in the log: nothing was applied and ``seq`` and
    ``events`` are those of the earlier request. ``kept`` means the session kept the answer
    privately (a window's decline, an answer to a later stage): nothing applied yet.
    """

    seq: int
    events: tuple[Event, ...]
    state: GameState
    duplicate: bool = False
    kept: bool = False


class Ledger:
    """One game's live position over its log. Requests run one at a time."""

    def __init__(
        self,
        store: Store,
        record: GameRecord,
        state: GameState,
        history: History,
        snapshot_heads: Collection[int],
        keys: Collection[str],
    ) -> None:
        self.store = store
        self.record = record
        """The game as opened (its status is kept current; read settings from the store)."""
        self._state = state
        state.limit_undo(0)  # the ledger goes back by its log, never by the engine's undo
        self._history = history
        self._heads = set(snapshot_heads)
        self._keys = set(keys)  # every idempotency key in the game's log
        self._lock = asyncio.Lock()
        self._stale = False

    # -- opening ---------------------------------------------------------------------

    @classmethod
    async def open(cls, store: Store, game_id: int) -> Ledger:
        """The game's ledger; raises :class:`UnknownGameError` or :class:`CorruptLogError`."""
        ledgers, errors = await cls.open_many(store, [await store.game(game_id)])
        if errors:
            raise errors[game_id]
        return ledgers[0]

    @classmethod
    async def open_many(
        cls, store: Store, records: Sequence[GameRecord]
    ) -> tuple[list[Ledger], dict[int, CorruptLogError]]:
        """The games' ledgers, read with a few queries for all of them; the games that cannot
        be replayed are left out, with their error."""
        ids = [record.id for record in records]
        headers = await store.headers(ids)
        heads = await store.snapshot_heads(ids)
        histories, errors = _histories(ids, headers)
        jobs = [(i, history, heads.get(i, set())) for i, history in histories.items()]
        states, failed = await _rebuild_many(store, jobs)
        ledgers = [
            cls(store, r, states[r.id], histories[r.id], heads.get(r.id, ()), _keys(headers[r.id]))
            for r in records
            if r.id in states
        ]
        return ledgers, errors | failed

    @classmethod
    async def open_active(cls, store: Store) -> list[Ledger]:
        """Every active game's ledger (at start-up), oldest first. A game whose log cannot be
        replayed is left out with an error in the log; the others still open."""
        ledgers, errors = await cls.open_many(store, await store.games())
        for error in errors.values():
            log.error("%s", error)
        return ledgers

    @staticmethod
    async def checkpoint_all(store: Store, ledgers: Iterable[Ledger]) -> int:
        """Snapshot, in one transaction, each ledger's position not snapshotted yet (before a
        clean shutdown: the next start-up then replays nothing); returns how many."""
        due = [(ledger, ledger._history.head) for ledger in ledgers if ledger._snapshot_due()]
        await store.add_snapshots((x.game_id, head, x._state) for x, head in due)
        for ledger, head in due:
            ledger._heads.add(head)
        return len(due)

    # -- the game ------------------------------------------------------------------------

    @property
    def game_id(self) -> int:
        return self.record.id

    @property
    def state(self) -> GameState:
        """The live position: read it, never change it."""
        return self._state

    @property
    def seq(self) -> int:
        """The last entry of the log."""
        return self._history.last_seq

    @property
    def can_undo(self) -> bool:
        return self._history.can_undo

    @property
    def can_redo(self) -> bool:
        return self._history.can_redo

    # -- requests --------------------------------------------------------------------------

    @completes
    async def submit(
        self, action: Action, *, actor: int, key: str, guard: Guard | None = None
    ) -> SubmitResult:
        """Apply ``action`` and commit it to the log; returns once it is on disk.

        ``guard`` sees the position first (not for a duplicate). Raises the engine's
        :class:`RulesError` when the rules refuse it (nothing is written),
        :class:`GameFinishedError`, or :class:`KeyReusedError`.
        """
        body = action_to_dict(action)
        async with self._lock:
            earlier = await self._earlier(key)
            if earlier is not None:
                return self._duplicate(earlier, "action", body)
            self._check_active()
            if guard is not None:
                guard(self._state)
            history = self._history.after("action")
            events = self._apply(action)
            entry = Entry(history.last_seq, "action", actor, key, body, None, events)
            return await self._commit(history, self._state, entry)

    @completes
    async def undo(self, moderator: int, key: str, *, authorised: bool = False) -> SubmitResult:
        """Cancel the last action in effect (moderators only); the log keeps both entries.

        The events are one ``undone`` event (``seq`` and ``action`` of the cancelled entry,
        ``moderator``). Raises :class:`NotModeratorError` (unless ``authorised``: the caller
        checked the moderator itself), :class:`NothingToUndoError`,
        :class:`GameFinishedError` or :class:`KeyReusedError`. An undo in a finished game
        (its phase over) reopens it.
        """
        async with self._lock:
            earlier = await self._earlier(key)
            if earlier is not None:
                return self._duplicate(earlier, "undo", None)
            # A finished game reopens when its last action is taken back.
            reopen = not self.record.is_active and self._history.can_undo
            await self._check_moderator(moderator, "undo", authorised, reopening=reopen)
            target = self._history.undo_target()
            history = self._history.after("undo", target)
            if reopen:
                await self.store.reopen_game(self.game_id)
                self.record = replace(self.record, status="active")
            state = await self._rebuild(history)
            action = await self.store.body(self.game_id, target)
            undone = Undone(seq=target, action=action, moderator=moderator)
            entry = Entry(history.last_seq, "undo", moderator, key, None, target, (undone,))
            return await self._commit(history, state, entry)

    @completes
    async def redo(self, moderator: int, key: str, *, authorised: bool = False) -> SubmitResult:
        """Re-apply the most recently undone action (moderators only).

        The events are a ``redone`` event followed by the action's own events. Raises as
        :meth:`undo`, with :class:`NothingToRedoError` when the redo chain is empty.
        """
        async with self._lock:
            earlier = await self._earlier(key)
            if earlier is not None:
                return self._duplicate(earlier, "redo", None)
            await self._check_moderator(moderator, "redo", authorised)
            target = self._history.redo_target()
            history = self._history.after("redo", target)
            body = await self.store.body(self.game_id, target)
            redone = Redone(seq=target, action=body, moderator=moderator)
            events = (redone, *self._apply(logged_action(body)))
            entry = Entry(history.last_seq, "redo", moderator, key, None, target, events)
            return await self._commit(history, self._state, entry)

    @completes
    async def start_phase(
        self, moderator: int, start: GameState, key: str, *, authorised: bool = False
    ) -> SubmitResult:
        """Begin a new phase at ``start`` (moderators only, or ``authorised`` as for
        :meth:`undo`). Undo stops at a phase start.

        The events are one ``phase_started`` event.
        """
        body = start.to_dict()
        async with self._lock:
            earlier = await self._earlier(key)
            if earlier is not None:
                return self._duplicate(earlier, "start", body)
            await self._check_moderator(moderator, "start a phase", authorised)
            history = self._history.after("start")
            seq = history.last_seq
            entry = Entry(seq, "start", moderator, key, body, None, started(seq))
            return await self._commit(history, GameState.from_dict(body), entry)

    async def finish(self) -> None:
        """Mark the game finished: it takes no more requests and is not opened at start-up."""
        async with self._lock:
            await self.store.finish_game(self.game_id)
            self.record = replace(self.record, status="finished")

    async def checkpoint(self) -> bool:
        """Snapshot the position unless it is snapshotted already; returns whether it did."""
        async with self._lock:
            return await Ledger.checkpoint_all(self.store, [self]) == 1

    # -- internals -------------------------------------------------------------------------

    async def _earlier(self, key: str) -> LogEntry | None:
        """The log entry already holding ``key``, if any (after a failure: reload first)."""
        if self._stale:
            await self._reload()
        if key not in self._keys:
            return None
        return await self.store.entry_with_key(self.game_id, key)

    def _duplicate(self, earlier: LogEntry, kind: Kind, body: Any) -> SubmitResult:
        """The stored result of a request already in the log, if it is the same request."""
        same_body = body is None or canonical(earlier.body) == canonical(body)
        if earlier.kind != kind or not same_body:
            raise KeyReusedError(
                f"idempotency key {earlier.key!r} of game #{self.game_id} was already used"
                f" for entry #{earlier.seq} ({earlier.kind}), a different request"
            )
        return SubmitResult(earlier.seq, earlier.events, self._state, duplicate=True)

    def _check_active(self) -> None:
        if not self.record.is_active:
            raise GameFinishedError(f"game #{self.game_id} is finished")

    async def _check_moderator(
        self, user_id: int, what: str, authorised: bool, *, reopening: bool = False
    ) -> None:
        """A listed moderator, or ``authorised``: the application checked the user itself
        (a holder of the game's moderator role, who is never listed). Only an undo may
        reach a finished game (``reopening``): it takes the last action back and reopens it."""
        if not reopening:
            self._check_active()
        if not authorised and not await self.store.is_moderator(self.game_id, user_id):
            raise NotModeratorError(
                f"only a moderator of game #{self.game_id} may {what}; user {user_id} is not one"
            )

    def _apply(self, action: Action) -> tuple[Event, ...]:
        """Apply to the live position; an engine failure other than a refusal makes the
        ledger stale (the position may be half changed)."""
        try:
            return tuple(self._state.apply(action))
        except RulesError:
            raise
        except BaseException:
            self._stale = True
            raise

    async def _commit(self, history: History, state: GameState, entry: Entry) -> SubmitResult:
        """Append ``entry`` (and a snapshot when due), then make ``history``/``state`` live."""
        due = entry.kind == "start" or history.since(self._heads) >= self.store.snapshot_every
        snapshot = (history.head, state) if due else None
        try:
            await self.store.append(self.game_id, entry, snapshot)
        except BaseException:
            self._stale = True
            raise
        state.limit_undo(0)
        self._history, self._state = history, state
        self._keys.add(entry.key)
        if snapshot is not None:
            self._heads.add(history.head)
        return SubmitResult(entry.seq, entry.events, state)

    def _snapshot_due(self) -> bool:
        return not self._stale and self._history.since(self._heads) > 0

    async def _rebuild(self, history: History) -> GameState:
        states, errors = await _rebuild_many(self.store, [(self.game_id, history, self._heads)])
        if errors:
            raise errors[self.game_id]
        return states[self.game_id]

    async def _reload(self) -> None:
        fresh = await Ledger.open(self.store, self.game_id)
        self.record, self._state, self._history = fresh.record, fresh._state, fresh._history
        self._heads, self._keys, self._stale = fresh._heads, fresh._keys, False


def logged_action(body: Any) -> Action:
    """A logged action; a ``pass`` with a ``prompt`` (how declines were logged before
    the ``decline`` action existed) is read as that decline."""
    if isinstance(body, dict) and body.get("action") == "pass" and body.get("prompt"):
        body = {"action": "decline", "faction": body.get("faction"), "prompt": body["prompt"]}
    return action_from_dict(body)


# -- replay ---------------------------------------------------------------------------------

_Job = tuple[int, History, Collection[int]]  # a game to rebuild: id, history, snapshot heads


def _keys(headers: Iterable[Header]) -> set[str]:
    return {key for _, _, _, key in headers}


def _histories(
    ids: Sequence[int], headers: Mapping[int, list[Header]]
) -> tuple[dict[int, History], dict[int, CorruptLogError]]:
    histories: dict[int, History] = {}
    errors: dict[int, CorruptLogError] = {}
    for game_id in ids:
        try:
            history = History.of(row[:3] for row in headers.get(game_id, ()))
            if not history.effective:
                raise CorruptLogError("the log has no start entry")
        except CorruptLogError as error:
            errors[game_id] = CorruptLogError(f"game #{game_id}: {error}")
        else:
            histories[game_id] = history
    return histories, errors


async def _rebuild_many(
    store: Store, jobs: Sequence[_Job]
) -> tuple[dict[int, GameState], dict[int, CorruptLogError]]:
    """Each game's position: its newest sound snapshot, then the effective actions after it."""
    bases, errors = await _base_states(store, jobs)
    bodies = await store.action_bodies_after(
        {game_id: base for game_id, (base, _) in bases.items()}
    )
    states: dict[int, GameState] = {}
    for game_id, history, _ in jobs:
        if game_id in errors:
            continue
        base, state = bases[game_id]
        state.limit_undo(0)  # replayed by the log: no engine undo to keep
        try:
            for seq in history.replay_after(base):
                _replay(game_id, state, seq, bodies.get(game_id, {}).get(seq))
        except CorruptLogError as error:
            errors[game_id] = error
            continue
        states[game_id] = state
    return states, errors


async def _base_states(
    store: Store, jobs: Sequence[_Job]
) -> tuple[dict[int, tuple[int, GameState]], dict[int, CorruptLogError]]:
    """Each game's newest snapshot in effect (read together); per game when it is unsound."""
    newest = {game_id: history.newest_in_effect(heads) for game_id, history, heads in jobs}
    sound = await store.snapshots([(i, head) for i, head in newest.items() if head is not None])
    found = {game_id: (head, state) for (game_id, head), state in sound.items()}
    errors: dict[int, CorruptLogError] = {}
    for game_id, history, heads in jobs:
        if game_id not in found:
            older = [head for head in heads if head != newest[game_id]]
            try:
                found[game_id] = await _base_state(store, game_id, history, older)
            except CorruptLogError as error:
                errors[game_id] = error
    return found, errors


async def _base_state(
    store: Store, game_id: int, history: History, heads: Collection[int]
) -> tuple[int, GameState]:
    """The newest snapshot in effect whose hash matches, or the phase's start entry."""
    in_effect = set(history.effective)
    for head in sorted((h for h in heads if h in in_effect), reverse=True):
        state = (await store.snapshots([(game_id, head)])).get((game_id, head))
        if state is not None:
            return head, state
    body = await store.body(game_id, history.start)
    try:
        return history.start, GameState.from_dict(body)
    except (ValueError, KeyError, TypeError) as error:
        raise CorruptLogError(
            f"game #{game_id}: start entry #{history.start} is unreadable: {error}"
        ) from error


def _replay(game_id: int, state: GameState, seq: int, body: str | None) -> None:
    if body is None:
        raise CorruptLogError(f"game #{game_id}: action entry #{seq} is missing")
    try:
        action = logged_action(json.loads(body))
    except (ValueError, KeyError, TypeError) as error:
        raise CorruptLogError(
            f"game #{game_id}: action entry #{seq} is unreadable: {error}"
        ) from error
    try:
        state.apply(action)
    except RulesError as error:
        raise CorruptLogError(
            f"game #{game_id}: action entry #{seq} is refused on replay: {error}"
        ) from error
