"""Fixtures of the bot's tests: a migrated database on each backend (``db``), and two ``Storage``
objects on one database, standing for two bot processes (``two``). ``storage`` (tests/conftest.py)
is the SQLite-only one."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.storage import Storage


@pytest.fixture
async def db(db_target: str) -> AsyncIterator[Storage]:
    """A migrated database, on SQLite and then on PostgreSQL (``db_target``), closed after the test."""
    storage = await Storage.open(db_target)
    yield storage
    await storage.close()


@pytest.fixture
async def two(db_target: str) -> AsyncIterator[tuple[Storage, Storage]]:
    """Two ``Storage`` objects (two connections, as two bot processes would have) on one database."""
    a = await Storage.open(db_target)
    b = await Storage.open(db_target)
    yield a, b
    await a.close()
    await b.close()
