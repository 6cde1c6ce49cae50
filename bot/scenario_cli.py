"""``mentat scenario FILE.json``: run a scenario file and print one JSON object."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bot.config import NO_ENVIRONMENT_HELP
from rules import scenario_file
from rules.scenario import ScenarioError


class UnreadableFileError(ValueError):
    """A scenario file that cannot be read as JSON; the message is one line."""


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    about = "apply a dune-scenario/1 or /2 file's actions and print the results as JSON"
    parser = commands.add_parser(
        "scenario",
        help=about,
        description=f'{about}. A worked example (its input under "scenario") runs as '
        "given. Exit 0 (refused actions included), 2 for a malformed file.",
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


def read_json(path: Path) -> object:
    """The file's JSON; raises UnreadableFileError saying in one line why it cannot be read."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise UnreadableFileError(f"cannot read: {error.strerror}") from error
    except UnicodeDecodeError as error:
        raise UnreadableFileError(
            f"not UTF-8 text (byte {error.start} is {error.object[error.start]:#04x}); "
            "save the file as UTF-8"
        ) from error
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise UnreadableFileError(f"not JSON: {error}") from error


def run(args: argparse.Namespace) -> int:
    try:
        _, output = scenario_file.run(read_json(Path(args.file)))
    except (UnreadableFileError, ScenarioError) as error:
        print(f"mentat scenario: {args.file}: {error}", file=sys.stderr)
        return 2
    print(json.dumps(output, indent=args.indent, ensure_ascii=False))
    return 0
