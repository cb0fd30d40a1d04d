"""Numbered SQL migrations (``bot/migrations/NNN_name.sql``), each applied in one transaction.

One file serves both backends (PostgreSQL reads it through ``sql.postgres_ddl``). A migration that
cannot be written for both has per-backend twins instead: ``NNN_name.sqlite.sql`` and
``NNN_name.postgresql.sql``; a twin replaces the shared file of its number on its backend, and a
number with a file for one backend only is recorded as an empty migration on the other, so both
backends always agree on ``schema_version()``.

The runners live with the backends (``backends/sqlite.py``, ``backends/postgresql.py``); this module
finds the files and decides what is pending.
"""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

log = logging.getLogger(__name__)

DIALECTS = ("sqlite", "postgresql")
MIGRATION_NAME = re.compile(r"^(\d{3,})_([a-z0-9_]+)(?:\.(sqlite|postgresql))?\.sql$")

BOOKKEEPING = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    checksum   TEXT NOT NULL,
    applied_at INTEGER NOT NULL
)
"""

RECORD = "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)"


class MigrationError(Exception):
    """A migration file is misnamed, duplicated or failed to apply."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str
    dialect: str | None = None  # None: the shared file (PostgreSQL translates its DDL)

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.sql.encode()).hexdigest()

    @property
    def label(self) -> str:
        return f"{self.version:03d}_{self.name}"


def default_directory() -> Path:
    return Path(str(resources.files("bot") / "migrations"))


def discover(directory: Path | None = None, dialect: str = "sqlite") -> list[Migration]:
    """The migrations of one backend in version order; misnamed files and duplicates are refused."""
    if dialect not in DIALECTS:
        raise ValueError(f"unknown SQL dialect {dialect!r}")
    directory = directory or default_directory()
    shared: dict[int, tuple[str, Path]] = {}
    twins: dict[tuple[int, str], tuple[str, Path]] = {}
    for path in sorted(directory.glob("*.sql")):
        match = MIGRATION_NAME.match(path.name)
        if not match:
            raise MigrationError(
                f"migration file {path.name!r} is not named NNN_lowercase_name.sql"
                " (or NNN_lowercase_name.sqlite.sql / .postgresql.sql)"
            )
        version, name, only = int(match.group(1)), match.group(2), match.group(3)
        if only is None:
            if version in shared:
                raise MigrationError(f"two migrations share version {version}: {path.name}")
            shared[version] = (name, path)
        else:
            if (version, only) in twins:
                raise MigrationError(f"two {only} migrations share version {version}: {path.name}")
            twins[(version, only)] = (name, path)
    versions = sorted(set(shared) | {v for v, _ in twins})
    found: list[Migration] = []
    for version in versions:
        if (version, dialect) in twins:
            name, path = twins[(version, dialect)]
            found.append(Migration(version, name, path.read_text(encoding="utf-8"), dialect))
        elif version in shared:
            name, path = shared[version]
            found.append(Migration(version, name, path.read_text(encoding="utf-8")))
        else:  # a file for the other backend only: nothing to do here
            other = next(twins[(version, d)] for d in DIALECTS if (version, d) in twins)
            found.append(Migration(version, other[0], "", dialect))
    return found


def pending(migrations: list[Migration], done: dict[int, str]) -> list[Migration]:
    """What is left to apply; a changed file that was already applied is only warned about."""
    todo: list[Migration] = []
    for m in migrations:
        if m.version in done:
            if done[m.version] != m.checksum:
                log.warning("migration %s changed after it was applied", m.label)
            continue
        todo.append(m)
    return todo
