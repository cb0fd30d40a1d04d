"""Shared pytest setup: the fake Discord's fixture (``fakediscord.pytest_plugin``), the network
guard, and pytester (plugin tests)."""

import pytest

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
