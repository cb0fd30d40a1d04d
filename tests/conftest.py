"""Shared pytest setup: the fake Discord's fixture, the network guard, and pytester (plugin tests)."""

pytest_plugins = [
    "tests.fakediscord.plugin",
    "tests.fakediscord.netguard",
    "tests.postgres_server",
    "pytester",
    "tests.coverage_floor",
]
