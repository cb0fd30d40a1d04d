"""Fixtures of the sandbox tests: the sandbox as a user starts it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.bot.sandbox.helpers import Process, start_bot


@pytest.fixture
def sandbox_process(tmp_path: Path) -> Iterator[Process]:
    """The sandbox as a user starts it (no token), on a free port, fast timers, a fixed deal."""
    p = start_bot(tmp_path, "--port", "0", env={"TIME_SCALE": "0.1", "DEAL_SEED": "11"})
    try:
        yield p
    finally:
        code = p.stop()
        assert code == 0, f"Ctrl-C should stop the sandbox cleanly (exit 0), got {code}:\n{p.err}"
        assert "Traceback" not in p.err, p.err
        assert p.out.rstrip().endswith("Sandbox stopped."), p.out
