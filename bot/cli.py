"""Sub-commands of ``mentat``. Each feature module registers its own."""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Sequence

from bot import scenario_cli


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mentat", description="Mentat: a Dune Shipment & Movement moderator."
    )
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
    code: int = args.handler(args)
    return code
