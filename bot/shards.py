"""Which process serves which Discord servers: Discord's shard of a server.

Discord sends a server's events to shard ``(guild_id >> 22) % shard_count``. A process
running some of the shards (``SHARD_IDS`` of ``SHARD_COUNT``) loads and serves only the
games of those servers; the others are another process's, over the same database.
"""

from __future__ import annotations

from dataclasses import dataclass


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that receives the events of server ``guild_id`` (Discord's formula)."""
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True, slots=True)
class Shards:
    """The shards ``ids`` of ``count`` that one process runs."""

    ids: tuple[int, ...]
    count: int

    def __post_init__(self) -> None:
        if self.count < 1 or not self.ids or not all(0 <= i < self.count for i in self.ids):
            raise ValueError(f"shards {self.ids} of {self.count} do not exist")

    def owns(self, guild_id: int) -> bool:
        return shard_of(guild_id, self.count) in self.ids

    @property
    def syncs_commands(self) -> bool:
        """Slash commands are synced once for the bot: by the process running shard 0."""
        return 0 in self.ids
