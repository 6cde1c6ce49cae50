"""The last move and the last shipment, read from public events, to mark on the map."""

from __future__ import annotations

from collections.abc import Iterable

from bot.render.overlays import LastKarama, LastMove, LastShipment
from bot.render.turn_marks import StormPath, WormSign
from bot.words.common import ABILITY_NAMES
from rules.board import Piece
from rules.events import (
    Event,
    ForcesDestroyed,
    KaramaCancelled,
    KaramaPrevented,
    Landing,
    Moved,
    ShaiHulud,
    SpiceDestroyed,
    SpiritualAdvisor,
)
from rules.storm.events import StormMoved


def last_move_of(events: Iterable[Event]) -> LastMove | None:
    """The path of the last move, ending in its destination sector."""
    moves = [e for e in events if isinstance(e, Moved)]
    if not moves:
        return None
    move = moves[-1]
    path: list[Piece] = [(t, None) for t in move.path or (move.from_territory,)]
    path[-1] = (move.to, move.sector)
    return LastMove(move.faction, tuple(path))


def last_shipment_of(events: Iterable[Event]) -> LastShipment | None:
    """Where the last shipment (or send, cross-ship, advisor) landed."""
    landed = [e for e in events if isinstance(e, Landing | SpiritualAdvisor)]
    if not landed:
        return None
    last = landed[-1]
    forces = last.forces + last.special if isinstance(last, Landing) else 1
    return LastShipment(last.faction, last.to, last.sector, forces)


def last_karama_of(events: Iterable[Event]) -> LastKarama | None:
    """The last Karama card played to cancel or prevent an ability."""
    plays = [e for e in events if isinstance(e, KaramaCancelled | KaramaPrevented)]
    if not plays:
        return None
    last = plays[-1]
    what = ABILITY_NAMES.get(last.ability.value, last.ability.value.replace("_", " "))
    return LastKarama(last.faction, what, isinstance(last, KaramaPrevented))


def touched_pieces(
    last_move: LastMove | None, last_shipment: LastShipment | None
) -> tuple[Piece, ...]:
    """The pieces the last move's path and the last shipment touched (for a close-up)."""
    pieces: list[Piece] = list(last_move.path) if last_move is not None else []
    if last_shipment is not None:
        pieces.append((last_shipment.territory, last_shipment.sector))
    return tuple(dict.fromkeys(pieces))


def storm_path_of(events: Iterable[Event]) -> StormPath | None:
    """The storm's move in ``events``, from where it stood to where it stopped."""
    moves = [e for e in events if isinstance(e, StormMoved)]
    if not moves:
        return None
    sectors = sum(m.sectors for m in moves)
    return StormPath(moves[0].from_sector, moves[-1].to_sector, sectors)


def worms_of(events: Iterable[Event]) -> tuple[WormSign, ...]:
    """Each territory a worm struck in ``events``, with the forces and spice it took."""
    found: dict[str, list[int]] = {}
    for event in events:
        match event:
            case ShaiHulud(territory=str(territory)):
                found.setdefault(territory, [0, 0])
            case ForcesDestroyed(cause="worm", territory=territory) if territory in found:
                found[territory][0] += event.forces + event.special + event.advisors
            case SpiceDestroyed(cause="worm", territory=territory) if territory in found:
                found[territory][1] += event.amount
    return tuple(WormSign(t, forces, spice) for t, (forces, spice) in found.items())
