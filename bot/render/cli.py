"""``mentat render FILE.json --out map.png``: draw a scenario file's position.

The starting position by default, the end position with ``--after`` (then
the last move's path, the last shipment and the last Karama are marked too);
``--closeup`` draws the close-up of the last shipment's and move's territories
instead of the whole map (with ``--after``).
``--highlight FACTION:TERRITORY`` tints where that faction's forces in that
territory may move.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bot.config import NO_ENVIRONMENT_HELP
from bot.render.closeup import render_closeup
from bot.render.marks import last_karama_of, last_move_of, last_shipment_of, touched_pieces
from bot.render.overlays import LastKarama, LastMove, LastShipment
from bot.render.render import render_map
from bot.scenario_cli import read_json
from rules.board import Piece, standard_board
from rules.errors import RulesError
from rules.events import Event
from rules.factions import Faction
from rules.game import GameState
from rules.scenario import ScenarioError
from rules.scenario_file import load as load_scenario
from rules.scenario_file import run as run_scenario
from rules.suggest import did_you_mean

PROG = "mentat render"
DEFAULT_OUT = Path("map.png")


class RenderUsageError(ValueError):
    """A command-line value the renderer cannot use; the message says which."""


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    about = "draw a dune-scenario/1 or /2 file's position as a PNG map"
    parser = commands.add_parser(
        "render",
        help=about,
        description=f"{about} (the starting position unless --after).",
        epilog=NO_ENVIRONMENT_HELP,
    )
    parser.add_argument("file", type=Path, help="the scenario file (JSON)")
    parser.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_OUT,
        help=f"the PNG to write (default: ./{DEFAULT_OUT} in the current folder)",
    )
    parser.add_argument(
        "--after", action="store_true", help="draw the position after all the file's actions"
    )
    parser.add_argument(
        "--highlight",
        metavar="FACTION:TERRITORY",
        help="tint the legal destinations of that faction's forces in that territory "
        "(default: no tint)",
    )
    parser.add_argument(
        "--closeup",
        action="store_true",
        help="with --after: draw only the territories the last shipment and move touched, "
        "and their neighbours, legible on a phone (default: the whole map)",
    )
    parser.add_argument(
        "--turn", type=int, default=None, help="the game turn for the title (default: none shown)"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        data = read_json(Path(args.file))
        png = _render(data, args)
    except (OSError, ValueError) as error:
        print(f"{PROG}: {args.file}: {_message(error)}", file=sys.stderr)
        return 2
    try:
        Path(args.out).write_bytes(png)
    except OSError as error:
        print(f"{PROG}: cannot write {args.out}: {error.strerror}", file=sys.stderr)
        return 2
    print(f"Wrote the map to {args.out}")
    return 0


def _message(error: Exception) -> str:
    if isinstance(error, OSError):
        return f"cannot read: {error.strerror}"
    return str(error)


def _render(data: object, args: argparse.Namespace) -> bytes:
    """The picture asked for; raises ScenarioError, RulesError or RenderUsageError."""
    last_move: LastMove | None = None
    last_shipment: LastShipment | None = None
    last_karama: LastKarama | None = None
    if args.closeup and not args.after:
        raise RenderUsageError("--closeup needs --after (it shows the last shipment and move)")
    if args.after:
        state, output = run_scenario(data)
        events = _accepted_events(output)
        last_move = last_move_of(events)
        last_shipment = last_shipment_of(events)
        last_karama = last_karama_of(events)
    else:
        state = load_scenario(data)
    highlight = _highlight(state, args.highlight) if args.highlight else ()
    if args.closeup:
        touched = touched_pieces(last_move, last_shipment)
        if not touched:
            raise RenderUsageError("--closeup: the file's actions neither ship nor move")
        return render_closeup(
            state.public_view(),
            touched,
            turn=args.turn,
            highlight=highlight,
            last_move=last_move,
            last_shipment=last_shipment,
            last_karama=last_karama,
        )
    return render_map(
        state.public_view(),
        turn=args.turn,
        highlight=highlight,
        last_move=last_move,
        last_shipment=last_shipment,
        last_karama=last_karama,
    )


def _highlight(state: GameState, spec: str) -> list[Piece]:
    faction_name, sep, territory_name = spec.partition(":")
    if not sep:
        raise RenderUsageError(f"--highlight: expected FACTION:TERRITORY, got {spec!r}")
    faction = Faction.parse(faction_name)
    if faction is None:
        known = did_you_mean(faction_name.strip().lower(), [f.value for f in Faction])
        raise RenderUsageError(f"--highlight: unknown faction {faction_name!r} ({known})")
    board = standard_board()
    territory = board.resolve(territory_name)
    if territory is None:
        close = board.closest(territory_name)
        hint = f" (did you mean {close!r}?)" if close else ""
        raise RenderUsageError(f"--highlight: unknown territory {territory_name!r}{hint}")
    destinations = state.legal_move_destinations(faction, territory.name)
    return [(d.territory, s) for d in destinations for s in d.sectors]


def _accepted_events(output: Mapping[str, Any]) -> list[Event]:
    return [Event.from_dict(e) for r in output["results"] if r["accepted"] for e in r["events"]]


__all__ = ["RenderUsageError", "RulesError", "ScenarioError", "register", "run"]
