"""The numbered schema migrations of ``bot/migrations``: reading and ordering them.

Files are named ``NNNN_name.sql`` and numbered 1, 2, 3... without gaps: SQLite's in
``bot/migrations``, PostgreSQL's in ``bot/migrations/postgres`` (numbered on their own). A
backend applies the pending ones (:func:`pending`) when it opens, in one transaction
(:mod:`bot.store.sqlite`; :mod:`bot.store.postgres` under an advisory lock).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from importlib import resources

from bot.store.errors import SchemaError

_MIGRATION_FILE = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str

    @property
    def label(self) -> str:
        return f"{self.version:04d}_{self.name}"


DIALECTS = ("sqlite", "postgres")


def read_migrations(dialect: str = "sqlite") -> list[Migration]:
    """The migrations of one database: files ``NNNN_name.sql`` numbered 1, 2, 3... in
    ``bot/migrations`` (``sqlite``) or ``bot/migrations/postgres`` (``postgres``)."""
    if dialect not in DIALECTS:
        raise ValueError(f"no migrations for {dialect!r}: the dialects are {DIALECTS}")
    folder = resources.files("bot").joinpath("migrations")
    if dialect != "sqlite":
        folder = folder.joinpath(dialect)
    found = [
        _migration(entry.name, entry.read_text("utf-8"))
        for entry in folder.iterdir()
        if entry.name.endswith(".sql")
    ]
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise SchemaError(f"migrations must be numbered 1, 2, 3... without gaps, not {versions}")
    return found


def _migration(filename: str, sql: str) -> Migration:
    match = _MIGRATION_FILE.match(filename)
    if match is None:
        raise SchemaError(f"migration file {filename!r} is not named like 0001_name.sql")
    return Migration(int(match[1]), match[2], sql)


def pending(applied: Collection[int], migrations: Sequence[Migration]) -> list[Migration]:
    """The migrations not applied yet; :class:`SchemaError` when the database is newer."""
    unknown = sorted(set(applied) - {m.version for m in migrations})
    if unknown:
        raise SchemaError(
            f"the database has migrations {unknown} that this Mentat does not know:"
            " it was written by a newer version"
        )
    return [m for m in migrations if m.version not in applied]
