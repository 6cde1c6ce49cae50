"""``mentat demo``'s command line: the whole game by default, ``--phase`` for one phase."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from bot.config import NO_ENVIRONMENT_HELP
from bot.demo.game import play_game_demo
from bot.demo.phase import DEFAULT_OUT, PUBLIC_LOG, WEB, DemoFolderError, play_demo


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    about = "play a bundled six-faction advanced game offline (no Discord)"
    parser = commands.add_parser(
        "demo",
        help=about,
        description=f"{about}: a whole game (set-up to its end, scripted players and "
        "moderator) or, with --phase, one Shipment & Movement phase; prints the public log "
        f"and writes the maps, the private logs and {PUBLIC_LOG} into --out.",
        epilog=NO_ENVIRONMENT_HELP,
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_OUT,
        help=(
            f"a new or empty folder for the maps, the private logs and {PUBLIC_LOG} "
            f"(default: ./{DEFAULT_OUT}/, where an earlier demo's files are replaced)"
        ),
    )
    parser.add_argument(
        "--phase",
        action="store_true",
        help="play the one-phase demo (a Shipment & Movement phase) instead of a whole game",
    )
    parser.add_argument("--no-maps", action="store_true", help="draw no maps (faster)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    own = out == DEFAULT_OUT
    try:
        if getattr(args, "phase", False):
            publisher = asyncio.run(play_demo(out, replace_own=own))
        else:
            maps = not getattr(args, "no_maps", False)
            publisher = asyncio.run(play_game_demo(out, replace_own=own, maps=maps))
    except DemoFolderError as error:
        print(f"mentat demo: {error}", file=sys.stderr)
        return 2
    scenes = "".join(f", {n} {name} pictures" for name, n in publisher.scenes.items())
    print(
        f"Wrote {publisher.maps} maps{scenes}, {len(publisher.private_logs)} private logs "
        f"and {PUBLIC_LOG} to {out}/"
    )
    if (out / WEB / "index.html").is_file():
        print(f"The live page, as files: {out / WEB / 'index.html'}")
    return 0
