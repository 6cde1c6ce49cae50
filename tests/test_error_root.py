"""One error root: every refusal the project defines is a MentatError (issue 12, point 6).

The session and the cogs' central handler answer a MentatError as a refusal and log
anything else as a crash, so an error class outside the root is either a crash by
design or a routine refusal that would be logged as one.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest
from discord import app_commands

from cogs.errors import message_for, refusal_of
from rules.errors import MentatError

PACKAGES = ("rules", "bot", "cogs", "mentat")

NOT_REFUSALS: dict[str, str] = {
    "bot.config.ConfigError": "a setting of the operator's .env, reported by `mentat run` on "
    "stderr with exit code 2 before Discord is reached; never a player's refusal",
    "bot.demo.phase.DemoFolderError": "`mentat demo` refusing to write into a folder; reported on "
    "stderr with exit code 2, never reaches Discord",
    "bot.scenario_cli.UnreadableFileError": "`mentat scenario` or `mentat render` unable to "
    "read a file as UTF-8 JSON; reported on stderr with exit code 2, never reaches Discord",
    "bot.render.cli.RenderUsageError": "`mentat render` refusing a command-line value; "
    "reported on stderr with exit code 2, never reaches Discord",
    "bot.publisher.DeliveryError": "a message Discord did not take; handled inside the "
    "delivery (retried, kept, told to the moderators), never a refusal of a request",
    "bot.publisher.ChannelGoneError": "a game channel the bot cannot post in; handled by the "
    "delivery (moderators told, the game paused without a table), never a refusal",
    "bot.publisher.AttachmentRefusedError": "a map that cannot be attached; the delivery "
    "sends the text instead, never a refusal",
    "bot.publisher.DirectMessagesClosedError": "a digest a user's closed DMs refused; the "
    "pinger sends it to their private channel instead, never a refusal",
}
"""The project's exception classes that are not routine refusals, and why."""


def project_modules() -> list[str]:
    names: list[str] = []
    for package in PACKAGES:
        root = importlib.import_module(package)
        names.append(package)
        names += [m.name for m in pkgutil.walk_packages(root.__path__, f"{package}.")]
    return names


def exception_classes() -> dict[str, type[BaseException]]:
    """Every exception class defined in the project's packages, by dotted name."""
    found: dict[str, type[BaseException]] = {}
    for name in project_modules():
        module = importlib.import_module(name)
        for value in vars(module).values():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__ == name
            ):
                found[f"{name}.{value.__qualname__}"] = value
    return found


def test_the_walk_finds_the_known_refusals() -> None:
    found = exception_classes()
    for name in (
        "rules.errors.RulesError",
        "rules.scenario.ScenarioError",
        "bot.orders.OrderError",
        "rules.errors.CorrectionError",
        "bot.words.refusals.PromptClosedError",
    ):
        assert name in found, f"{name} not found: the walk misses modules"


def test_every_refusal_is_a_mentat_error() -> None:
    outside = {
        name
        for name, cls in exception_classes().items()
        if not issubclass(cls, MentatError) and name not in NOT_REFUSALS
    }
    assert not outside, (
        f"{sorted(outside)} are not MentatErrors: make them subclass it, or list them in "
        "NOT_REFUSALS with the reason they are no refusal"
    )


@pytest.mark.parametrize("name", sorted(NOT_REFUSALS))
def test_each_listed_exception_exists_and_is_outside_the_root(name: str) -> None:
    found = exception_classes()
    assert name in found, f"{name} is listed in NOT_REFUSALS but no longer defined"
    assert not issubclass(found[name], MentatError), f"{name} is a MentatError: unlist it"


def test_discord_refusals_of_an_option_are_answered_as_refusals() -> None:
    failed = app_commands.CheckFailure("you may not use this here.")
    assert message_for(refusal_of(failed)) == "Refused: you may not use this here."
