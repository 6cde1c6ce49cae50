"""The Dune board: territories, sectors, adjacency and player seats.

Built once from the cross-checked board facts in ``rules/data/board.json``.
Sectors are always the numbers printed on the board rim, 1..18 (18 is the
storm-start sector). The Polar Sink has no sector (``None``).
"""

from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources

from rules import suggest

SECTOR_COUNT = 18
POLAR_SINK = "Polar Sink"
THE_GREAT_FLAT = "The Great Flat"
ORNITHOPTER_CITIES = ("Arrakeen", "Carthag")
SEAT_COUNT = 6

Piece = tuple[str, int | None]
"""One territory-sector piece of the board: (territory name, printed sector)."""


@dataclass(frozen=True, slots=True)
class Territory:
    """A territory as printed on the board."""

    name: str
    kind: str  # "stronghold", "sand", "rock" or "polar_sink"
    sectors: tuple[int, ...]  # printed sector numbers, in storm order
    adjacent: frozenset[str]
    protected_from_storm: bool

    @property
    def is_stronghold(self) -> bool:
        return self.kind == "stronghold"

    @property
    def is_polar_sink(self) -> bool:
        return self.kind == "polar_sink"

    def pieces(self) -> tuple[Piece, ...]:
        if not self.sectors:
            return ((self.name, None),)
        return tuple((self.name, s) for s in self.sectors)


def printed_sector(primary: int) -> int:
    """Convert the 0..17 numbering of the board facts to the printed 1..18."""
    return primary if primary else SECTOR_COUNT


def primary_sector(printed: int) -> int:
    """Convert a printed sector 1..18 to 0..17 (18, the storm start, is 0)."""
    return printed % SECTOR_COUNT


def _normalise(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


class Board:
    """Territories and their adjacency at territory and at sector level."""

    def __init__(self, facts: dict[str, object]) -> None:
        self.territories: dict[str, Territory] = {}
        for raw in _as_list(facts["territories"]):
            t = _territory_from_facts(raw)
            self.territories[t.name] = t
        self._by_key = {_normalise(n): n for n in self.territories}
        self._by_name = {n: self.territories[n] for n in self._by_key.values()}  # as printed
        self._piece_links: dict[Piece, list[tuple[Piece, bool]]] = {}
        for t in self.territories.values():
            for p in t.pieces():
                self._piece_links[p] = []
        adjacency = facts["sector_adjacency"]
        assert isinstance(adjacency, dict)
        for edge in _as_list(adjacency["edges"]):
            a, b = _piece_from_id(str(edge["a"])), _piece_from_id(str(edge["b"]))
            intra = edge["kind"] == "intra"
            self._piece_links[a].append((b, intra))
            self._piece_links[b].append((a, intra))
        self._distances: dict[str, dict[str, int]] = {}

    # -- names -------------------------------------------------------------

    def resolve(self, name: str) -> Territory | None:
        """The territory called ``name`` (case and punctuation ignored), or None."""
        printed = self._by_name.get(name)
        if printed is not None:
            return printed
        typed = _normalise(name)
        key = self._by_key.get(typed) or self._by_key.get(typed.removeprefix("the"))
        return self.territories[key] if key else None  # "the Polar Sink", as the bot writes it

    def closest(self, name: str) -> str | None:
        """The territory a misspelt ``name`` most likely means, or None."""
        found = suggest.closest(_normalise(name), self._by_key)
        return self._by_key[found] if found else None

    def __iter__(self) -> Iterator[Territory]:
        return iter(self.territories.values())

    def __getitem__(self, name: str) -> Territory:
        return self.territories[name]

    # -- adjacency ---------------------------------------------------------

    def piece_links(self, piece: Piece) -> list[tuple[Piece, bool]]:
        """Neighbouring pieces of ``piece``; the flag is True inside one territory."""
        return self._piece_links[piece]

    def territory_distance(self, a: str, b: str) -> int:
        """Number of territory borders between ``a`` and ``b``, storm ignored."""
        if a not in self._distances:
            self._distances[a] = self._bfs(a)
        return self._distances[a].get(b, 10**6)

    def _bfs(self, start: str) -> dict[str, int]:
        dist = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for nxt in sorted(self.territories[here].adjacent):
                if nxt not in dist:
                    dist[nxt] = dist[here] + 1
                    queue.append(nxt)
        return dist

    def within(self, centre: str, steps: int) -> list[str]:
        """Territories at most ``steps`` borders from ``centre`` (storm ignored)."""
        return sorted(n for n in self.territories if self.territory_distance(centre, n) <= steps)

    def storm_free_parts(self, territory: str, storm: int) -> list[tuple[int | None, ...]]:
        """The runs of sectors of ``territory`` that the storm does not split.

        A territory partly in storm falls into the chains of clear sectors on
        either side of the storm sector; sectors in storm belong to no part.
        """
        parts: list[tuple[int | None, ...]] = []
        current: list[int | None] = []
        for _, sector in self[territory].pieces():
            if sector is not None and sector == storm:
                if current:
                    parts.append(tuple(current))
                current = []
            else:
                current.append(sector)
        if current:
            parts.append(tuple(current))
        return parts


def _as_list(value: object) -> list[dict[str, object]]:
    assert isinstance(value, list)
    return value


def _piece_from_id(piece_id: str) -> Piece:
    if "@" not in piece_id:
        return (piece_id, None)
    name, sector = piece_id.rsplit("@", 1)
    return (name, printed_sector(int(sector)))


def _territory_from_facts(raw: dict[str, object]) -> Territory:
    sectors = raw["sectors"]
    adjacent = raw["adjacent"]
    assert isinstance(sectors, list) and isinstance(adjacent, list)
    return Territory(
        name=str(raw["name"]),
        kind=str(raw["kind"]),
        sectors=tuple(printed_sector(int(s)) for s in sectors),
        adjacent=frozenset(str(a) for a in adjacent),
        protected_from_storm=bool(raw["protected_from_storm"]),
    )


@cache
def board_facts() -> dict[str, object]:
    """The raw board facts (also used by the renderer for its layout)."""
    text = resources.files("rules").joinpath("data/board.json").read_text(encoding="utf-8")
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


@cache
def standard_board() -> Board:
    """The one Dune board, built once per process."""
    return Board(board_facts())


def seat_sector(seat: int) -> int:
    """The printed sector of player circle ``seat`` (0..5): 1, 4, 7, 10, 13, 16."""
    return 3 * seat + 1


def first_seat(storm_sector: int) -> int:
    """The seat whose circle the storm next approaches counterclockwise.

    A storm sitting in a seat's own sector has already reached it, so that seat
    goes last: first seat = ceil(storm / 3) mod 6 in 0..17 numbering.
    """
    primary = primary_sector(storm_sector)
    return -(-primary // 3) % SEAT_COUNT


def storm_order_seats(storm_sector: int) -> list[int]:
    """All six seat indexes in storm order, first player first."""
    first = first_seat(storm_sector)
    return [(first + i) % SEAT_COUNT for i in range(SEAT_COUNT)]


def pieces_of(territories: Iterable[Territory]) -> list[Piece]:
    return [p for t in territories for p in t.pieces()]
