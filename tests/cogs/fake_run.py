"""``mentat run`` pointed at the loopback fake Discord: a test's child process.

``python -m tests.cogs.fake_run`` reads the fake's addresses from ``FAKE_DISCORD_API`` and
``FAKE_DISCORD_GATEWAY``, points discord.py at them and runs ``mentat run`` with the rest
of the environment (token, database, shards) as the real command would.
"""

from __future__ import annotations

import os
import sys

import discord
import yarl

from mentat.cli import main as mentat


def main() -> int:
    discord.http.Route.BASE = os.environ["FAKE_DISCORD_API"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["FAKE_DISCORD_GATEWAY"])
    return mentat(["run"])


if __name__ == "__main__":
    sys.exit(main())
