"""Shared pytest setup: the fake Discord's fixture and the network guard."""

pytest_plugins = ["tests.fakediscord.plugin", "tests.fakediscord.netguard"]
