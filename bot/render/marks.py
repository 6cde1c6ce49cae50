"""The last move and the last shipment, read from public events, to mark on the map."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from bot.narrate import ABILITY_NAMES
from bot.render.overlays import LastKarama, LastMove, LastShipment
from rules.board import Piece
from rules.factions import Faction

SHIPMENTS = ("shipment", "send", "cross_ship", "spiritual_advisor")


def last_move_of(events: Iterable[Mapping[str, Any]]) -> LastMove | None:
    """The path of the last ``move`` event, ending in its destination sector."""
    moves = [e for e in events if e.get("type") == "move"]
    if not moves:
        return None
    move = moves[-1]
    path: list[Piece] = [(str(t), None) for t in move.get("path") or [move["from_territory"]]]
    path[-1] = (str(move["to"]), move.get("sector"))
    return LastMove(Faction(move["faction"]), tuple(path))


def last_shipment_of(events: Iterable[Mapping[str, Any]]) -> LastShipment | None:
    """Where the last shipment (or send, cross-ship, advisor) landed."""
    shipments = [e for e in events if e.get("type") in SHIPMENTS and "to" in e]
    if not shipments:
        return None
    last = shipments[-1]
    forces = int(last.get("forces", 1)) + int(last.get("special", 0))
    return LastShipment(Faction(last["faction"]), str(last["to"]), last.get("sector"), forces)


def last_karama_of(events: Iterable[Mapping[str, Any]]) -> LastKarama | None:
    """The last Karama card played to cancel or prevent an ability."""
    plays = [e for e in events if e.get("type") in ("karama_cancel", "karama_prevent")]
    if not plays:
        return None
    last = plays[-1]
    ability = str(last["ability"])
    what = ABILITY_NAMES.get(ability, ability.replace("_", " "))
    return LastKarama(Faction(last["faction"]), what, last["type"] == "karama_prevent")


def touched_pieces(
    last_move: LastMove | None, last_shipment: LastShipment | None
) -> tuple[Piece, ...]:
    """The pieces the last move's path and the last shipment touched (for a close-up)."""
    pieces: list[Piece] = list(last_move.path) if last_move is not None else []
    if last_shipment is not None:
        pieces.append((last_shipment.territory, last_shipment.sector))
    return tuple(dict.fromkeys(pieces))
