"""Sub-commands of ``mentat``. Each feature module registers its own."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from importlib import metadata

from bot import scenario_cli

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
    scenario_cli.register(commands)
    _register_optional(commands)
    return parser


def _register_optional(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Sub-commands whose modules need the optional parts of the application."""
    from bot import demo
    from bot.render import cli as render_cli

    render_cli.register(commands)
    demo.register(commands)
    importlib.import_module("cogs.runner").register(commands)  # the Discord bot: `mentat run`


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
