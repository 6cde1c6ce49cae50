"""Build whole-game positions for tests: any phase of any turn, decks in a known order."""

from __future__ import annotations

from typing import Any

from rules.components import leaders
from rules.events import Event
from rules.factions import Faction
from rules.game import GameState
from rules.game_model import STATE_PARTS, Chance, GamePhase, TurnState, evolve
from rules.model import FactionState, Phase, RuleSet, Stack, StackKey
from rules.position import storm_order

SEATS = ["harkonnen", "spacing_guild", "atreides", "fremen", "emperor", "bene_gesserit"]
BANK = 500
DECK = ("Lasgun", "Shield", "Snooper", "Chaumas", "Kulon", "Baliset", "Crysknife", "Hajr")
"""A treachery deck for positions that reach the Bidding phase: it lays out cards and waits."""


def game_at(
    phase: str,
    *,
    turn: int = 2,
    storm: int = 18,
    seats: list[str | None] | None = None,
    factions: dict[str, dict[str, Any]] | None = None,
    board: list[tuple[str, str, int | None, int]] | None = None,
    special: list[tuple[str, str, int | None, int]] | None = None,
    advisors: list[tuple[str, int | None, int]] | None = None,
    spice: dict[tuple[str, int | None], int] | None = None,
    alliances: list[list[str]] | None = None,
    advanced: bool = False,
    variants: dict[str, Any] | None = None,
    seed: int = 0,
    **game: Any,
) -> GameState:
    """A game at the start of ``phase`` of ``turn``; each faction 10 spice unless said.

    ``board`` rows are (faction, territory, sector, forces); ``special`` the same for
    starred forces; ``advisors`` (territory, sector, n) Bene Gesserit advisors;
    ``game`` sets any other :class:`TurnState` field (decks, dialers...) or a phase's
    part of its state by the part's name (``traitors``, ``battle``...).
    """
    seats = seats if seats is not None else SEATS
    playing = [Faction(f) for f in seats if f]
    holdings = {f: FactionState(spice=10, reserves=10) for f in playing}
    for name, fields in (factions or {}).items():
        holdings[Faction(name)] = FactionState(**{"spice": 10, "reserves": 10, **fields})
    stacks: dict[StackKey, Stack] = {}
    for rows, starred in ((board or [], False), (special or [], True)):
        for f, territory, sector, n in rows:
            key = (Faction(f), territory, sector)
            stacks[key] = stacks.get(key, Stack()) + (Stack(0, n) if starred else Stack(n))
    for territory, sector, n in advisors or []:
        stacks[(Faction.BENE_GESSERIT, territory, sector)] = Stack(0, 0, n)
    parts = {name: game.pop(name) for name in list(game) if name in STATE_PARTS}
    seat_tuple = tuple(Faction(f) if f else None for f in seats)
    state_fields: dict[str, Any] = {
        "chance": Chance(seed),
        "turn": turn,
        "phase": GamePhase(phase),
        "order": storm_order(seat_tuple, storm),
        "leaders": {f: tuple(leaders(f)) for f in playing},
        "leaders_tanks": dict.fromkeys(playing, ()),
        **game,
    }
    return GameState(
        storm_sector=storm,
        seats=seat_tuple,
        factions=holdings,
        stacks=stacks,
        alliances=[[Faction(f) for f in pair] for pair in alliances or []],
        rules=RuleSet(advanced=advanced, **(variants or {})),
        spice_bank=BANK,
        phase=Phase(order=(), started=True, complete=True),
        board_spice=dict(spice or {}),
        game=evolve(TurnState(**state_fields), {"parts": {**_empty(), **parts}}),
    )


def _empty() -> dict[str, object]:
    return {name: part.empty for name, part in STATE_PARTS.items()}


def spice_total(state: GameState) -> int:
    return (
        state.spice_bank
        + sum(s.spice for s in state.factions.values())
        + sum(state.board_spice.values())
        + sum(state.whole.bribes.values())
    )


def types(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def of_kind(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [e.to_dict() for e in events if e.kind == kind]
