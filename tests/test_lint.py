"""The tree is ruff clean under the ``[tool.ruff]`` config in pyproject.toml."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _unmeasured() -> dict[str, str]:
    """The environment without coverage's subprocess switch: the tool's own run is not ours."""
    return {k: v for k, v in os.environ.items() if not k.startswith("COVERAGE_PROCESS_")}


def test_ruff_is_clean() -> None:
    pytest.importorskip("ruff", reason="ruff is not installed (pip install -e '.[dev]')")
    proc = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "."],
        cwd=ROOT, env=_unmeasured(), capture_output=True, text=True, timeout=120, check=False,
    )
    assert proc.returncode == 0, f"ruff check found problems:\n{proc.stdout}{proc.stderr}"
