"""Fixtures of the table tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Storage


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    """A migrated SQLite database in the test's own directory."""
    db = await Storage.open(tmp_path / "spades.db")
    yield db
    await db.close()
