"""The ``fake_discord`` fixture fails a test that leaves violations or bot exceptions unexamined."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

INNER = """
from fakediscord import FakeDiscord
from tests.fakediscord.demo_bot import DemoBot


async def _run(fake: FakeDiscord, command: str) -> None:
    guild = fake.add_guild()
    channel = guild.add_text_channel("c")
    alice = fake.add_user("alice")
    async with fake.run_bot(DemoBot(), sync_commands=True):
        await fake.slash(alice, channel, command)
        await fake.settle()


async def test_leaves_a_violation(fake_discord: FakeDiscord) -> None:
    await _run(fake_discord, "demo long")


async def test_takes_its_violation(fake_discord: FakeDiscord) -> None:
    await _run(fake_discord, "demo long")
    assert [v.code for v in fake_discord.take_violations()] == [50035]


async def test_clean(fake_discord: FakeDiscord) -> None:
    await _run(fake_discord, "demo table")


async def test_bot_exception(fake_discord: FakeDiscord) -> None:
    fake_discord.fail_next("POST", "/channels/{channel_id}/messages", status=403)
    await _run(fake_discord, "demo post")
"""


def test_fixture_reports_unexamined_violations(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    pytester.makepyfile(test_inner=INNER)
    result = pytester.runpytest_subprocess(
        "-p", "fakediscord.pytest_plugin", "-o", "asyncio_mode=auto", "-p", "no:cacheprovider", "-rA"
    )
    result.assert_outcomes(passed=4, errors=2)
    out = result.stdout.str()
    assert "ERROR at teardown of test_leaves_a_violation" in out
    assert "1 unexpected Discord violation(s)" in out and "Must be 2000 or fewer in length" in out
    assert "ERROR at teardown of test_bot_exception" in out and "error(s) logged by discord.py" in out
    assert "ERROR at teardown of test_clean" not in out and "ERROR at teardown of test_takes" not in out
