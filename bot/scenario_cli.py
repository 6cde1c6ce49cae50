"""``mentat scenario FILE.json``: run a scenario file and print one JSON object."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bot.config import NO_ENVIRONMENT_HELP
from rules import scenario2
from rules.scenario import ScenarioError, run_scenario


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    about = "apply a dune-scenario/1 or /2 file's actions and print the results as JSON"
    parser = commands.add_parser(
        "scenario",
        help=about,
        description=f"{about}. Exit 0 (refused actions included), 2 for a malformed file.",
        epilog=NO_ENVIRONMENT_HELP,
    )
    parser.add_argument("file", type=Path, help="the scenario file (JSON, see docs/)")
    parser.add_argument(
        "--indent",
        type=int,
        default=None,
        metavar="N",
        help="pretty-print the JSON, indented by N spaces (default: all on one line)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        data = json.loads(Path(args.file).read_text(encoding="utf-8"))
    except OSError as error:
        print(f"mentat scenario: cannot read {args.file}: {error.strerror}", file=sys.stderr)
        return 2
    except json.JSONDecodeError as error:
        print(f"mentat scenario: {args.file} is not JSON: {error}", file=sys.stderr)
        return 2
    try:
        whole_game = isinstance(data, dict) and data.get("format") == scenario2.FORMAT
        _, output = scenario2.run(data) if whole_game else run_scenario(data)
    except ScenarioError as error:
        print(f"mentat scenario: {args.file}: {error}", file=sys.stderr)
        return 2
    print(json.dumps(output, indent=args.indent, ensure_ascii=False))
    return 0
