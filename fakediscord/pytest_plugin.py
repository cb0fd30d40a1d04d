"""pytest plugin: the ``fake_discord`` fixture, a started :class:`FakeDiscord` per test.

Load it with ``pytest_plugins = ["fakediscord.pytest_plugin"]`` in a ``conftest.py`` (this project's
``tests/conftest.py`` does) or ``-p fakediscord.pytest_plugin``; it needs pytest-asyncio.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from fakediscord import FakeDiscord


def _report(fake: FakeDiscord) -> str:
    lines: list[str] = []
    if fake.violations:
        lines.append(f"{len(fake.violations)} unexpected Discord violation(s):")
        lines += [f"  {v}" for v in fake.violations]
    thinking = fake.thinking()
    if thinking:
        lines.append(
            f"{len(thinking)} deferred interaction(s) never answered (users still see 'thinking...'):"
        )
        lines += [
            f"  interaction {r.id} from {r.user.username} ({r.payload['data'].get('name', '')})"
            for r in thinking
        ]
    if fake.bot_errors:
        lines.append(f"{len(fake.bot_errors)} error(s) logged by discord.py (exceptions in the bot):")
        formatter = logging.Formatter("%(name)s: %(message)s")
        for record in fake.bot_errors:
            text = formatter.format(record)  # includes the traceback
            lines.append("  " + text.replace("\n", "\n  "))
    return "\n".join(lines)


@pytest_asyncio.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started :class:`FakeDiscord`; the test fails at teardown if violations (invalid requests,
    unknown routes, late or double answers), deferred responses never completed, or
    discord.py-logged exceptions were left unexamined.
    Tests that provoke them on purpose take them with ``fake.take_violations()`` or clear
    ``fake.bot_errors``.
    """
    fake = FakeDiscord()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.close()
    report = _report(fake)
    if report:
        pytest.fail(report, pytrace=False)
