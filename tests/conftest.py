"""Shared pytest setup: the fake Discord's fixture (``fakediscord.pytest_plugin``), the network
guard, pytester (plugin tests), and a migrated SQLite ``storage``."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Storage

pytest_plugins = [
    "fakediscord.pytest_plugin",
    "tests.netguard",
    "tests.postgres_server",
    "pytester",
    "tests.coverage_floor",
]


# the end-to-end and browser files, and the few long unit files, run longest (10-60 s a file,
# much of it waiting on the bot's timers): collected first, xdist hands them out first, and the
# short files fill in around them, so a run does not end waiting on a long file that started last
_FIRST = (
    "tests/e2e/",
    "tests/bot/sandbox/",
    "tests/fakediscord/",
    "tests/bot/table/test_tables.py",
    "tests/engine/test_properties.py",
    "tests/engine/bots/test_faults.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: not item.nodeid.startswith(_FIRST))  # stable: files keep their order


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    """A migrated SQLite database in the test's own directory, closed after the test."""
    db = await Storage.open(tmp_path / "spades.db")
    yield db
    await db.close()
