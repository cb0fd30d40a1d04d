"""Storage backends: SQLite (aiosqlite, the default) and PostgreSQL (asyncpg)."""

from __future__ import annotations

from pathlib import Path

from .base import Backend, Session

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(target: str | Path) -> bool:
    return isinstance(target, str) and target.lower().startswith(POSTGRES_SCHEMES)


def sqlite_path(target: str | Path) -> str:
    """A SQLite file from a path or a ``sqlite:///path`` URL."""
    text = str(target)
    if text.lower().startswith("sqlite:///"):
        return text[len("sqlite:///") :] or ":memory:"
    if text.lower().startswith("sqlite://"):
        return text[len("sqlite://") :] or ":memory:"
    return text


async def open_backend(
    target: str | Path, *, migrations_dir: Path | None = None, now: int, lock_wait: float = 60.0
) -> tuple[Backend, list[int]]:
    """Connect to ``target`` (a SQLite path or URL, or a postgresql:// URL) and migrate it; the
    backend and the migration versions applied now."""
    backend: Backend
    if is_postgres_url(target):
        from .postgresql import PostgresBackend

        backend = await PostgresBackend.connect(str(target))
    else:
        from .sqlite import SqliteBackend

        backend = await SqliteBackend.connect(sqlite_path(target), lock_wait=lock_wait)
    try:
        applied = await backend.migrate(migrations_dir, now=now)
    except BaseException:
        await backend.close()
        raise
    return backend, applied


__all__ = ["Backend", "Session", "is_postgres_url", "open_backend", "sqlite_path"]
