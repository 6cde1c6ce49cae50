"""The ``mentat`` command and its sub-commands; each feature module registers its own.

A command's module (the renderer, the demo, discord.py) is imported only when that
command runs or its help is asked for: ``mentat --help`` stays quick.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from importlib import metadata

SIGPIPE_EXIT = 141  # 128 + SIGPIPE: what a shell reports for a tool whose reader went away


def version() -> str:
    try:
        return metadata.version("mentat")
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


# Each command: the module that registers it (its ``register``) and its line in the help.
COMMANDS: dict[str, tuple[str, str]] = {
    "scenario": (
        "bot.scenario_cli",
        "apply a dune-scenario/1 or /2 file's actions and print the results as JSON",
    ),
    "render": ("bot.render.cli", "draw a dune-scenario/1 or /2 file's position as a PNG map"),
    "demo": ("bot.demo.cli", "play a bundled six-faction advanced game offline (no Discord)"),
    "run": ("mentat.run", "start the Discord bot (needs DISCORD_TOKEN)"),
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; only ``command``'s module is imported, to register its options."""
    parser = argparse.ArgumentParser(
        prog="mentat",
        description="Mentat: a Discord bot that runs whole games of Dune (GF9 2019) by "
        "itself; offline, it runs scenario files, draws maps and plays a demo game.",
        epilog="`mentat COMMAND --help` describes each command, its defaults and settings.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    commands = parser.add_subparsers(dest="command", required=True)
    for name, (module, about) in COMMANDS.items():
        if name == command:
            importlib.import_module(module).register(commands)
        else:
            commands.add_parser(name, help=about)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    command = next((a for a in given if not a.startswith("-")), None)
    args = build_parser(command).parse_args(given)
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
