"""The ``mentat`` command and its sub-commands; each feature module registers its own."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from importlib import metadata

from bot import demo, scenario_cli
from bot.render import cli as render_cli
from mentat import run

SIGPIPE_EXIT = 141  # 128 + SIGPIPE: what a shell reports for a tool whose reader went away


def version() -> str:
    try:
        return metadata.version("mentat")
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mentat",
        description="Mentat: a Dune Shipment & Movement moderator.",
        epilog="`mentat COMMAND --help` describes each command, its defaults and settings.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    commands = parser.add_subparsers(dest="command", required=True)
    for feature in (scenario_cli, render_cli, demo, run):  # run: the Discord bot
        feature.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code: int = args.handler(args)
        sys.stdout.flush()
    except BrokenPipeError:
        return _reader_gone()
    return code


def _reader_gone() -> int:
    """The output's reader has gone (``mentat scenario FILE | head``): stop quietly."""
    # Point stdout at /dev/null so the interpreter's last flush does not complain again.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return SIGPIPE_EXIT
