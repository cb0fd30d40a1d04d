"""Numbered SQL migrations (``bot/migrations/NNN_name.sql``), each applied in one transaction."""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import aiosqlite

log = logging.getLogger(__name__)

MIGRATION_NAME = re.compile(r"^(\d{3,})_([a-z0-9_]+)\.sql$")

_BOOKKEEPING = """
CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    checksum   TEXT NOT NULL,
    applied_at INTEGER NOT NULL
)
"""


class MigrationError(Exception):
    """A migration file is misnamed, duplicated or failed to apply."""


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.sql.encode()).hexdigest()


def default_directory() -> Path:
    return Path(str(resources.files("bot") / "migrations"))


def discover(directory: Path | None = None) -> list[Migration]:
    """Every ``NNN_name.sql`` file in version order; other files are ignored, duplicates refused."""
    directory = directory or default_directory()
    found: dict[int, Migration] = {}
    for path in sorted(directory.glob("*.sql")):
        match = MIGRATION_NAME.match(path.name)
        if not match:
            raise MigrationError(f"migration file {path.name!r} is not named NNN_lowercase_name.sql")
        version = int(match.group(1))
        if version in found:
            raise MigrationError(f"two migrations share version {version}: {path.name}")
        found[version] = Migration(version, match.group(2), path.read_text(encoding="utf-8"))
    return [found[v] for v in sorted(found)]


async def applied(conn: aiosqlite.Connection) -> dict[int, str]:
    """Applied versions and their checksums."""
    await conn.execute(_BOOKKEEPING)
    async with conn.execute("SELECT version, checksum FROM schema_migrations") as cur:
        return {int(v): str(c) async for v, c in cur}


async def migrate(conn: aiosqlite.Connection, directory: Path | None = None, *, now: int) -> list[int]:
    """Apply every pending migration, each in its own transaction; return the versions applied.

    The connection must be in autocommit mode (``isolation_level=None``). A failing migration is
    rolled back completely and raises MigrationError; earlier ones stay applied.
    """
    migrations = discover(directory)
    done = await applied(conn)
    new: list[int] = []
    for m in migrations:
        if m.version in done:
            if done[m.version] != m.checksum:
                log.warning("migration %03d_%s changed after it was applied", m.version, m.name)
            continue
        # executescript runs everything in one go; BEGIN/COMMIT inside it make the file and its
        # bookkeeping row atomic (SQLite DDL is transactional).
        script = (
            "BEGIN IMMEDIATE;\n"
            f"{m.sql}\n;\n"
            "INSERT INTO schema_migrations (version, name, checksum, applied_at) "
            f"VALUES ({m.version:d}, '{m.name}', '{m.checksum}', {int(now):d});\n"
            "COMMIT;"
        )
        try:
            await conn.executescript(script)
        except Exception as exc:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            raise MigrationError(f"migration {m.version:03d}_{m.name} failed: {exc}") from exc
        log.info("applied migration %03d_%s", m.version, m.name)
        new.append(m.version)
    return new
