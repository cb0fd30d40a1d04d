"""The engine, the bot and the cogs type-check clean under the ``[tool.mypy]`` config in pyproject.toml.

mypy runs in a subprocess (its own process state, the same command a developer types); its
incremental cache in ``.mypy_cache`` keeps repeat runs to a second or two.
"""

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


@pytest.mark.parametrize("package", ["engine", "bot", "cogs"])
def test_package_is_mypy_clean(package: str) -> None:
    pytest.importorskip("mypy", reason="mypy is not installed (pip install -e '.[dev]')")
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", package],
        cwd=ROOT, env=_unmeasured(), capture_output=True, text=True, timeout=300, check=False,
    )
    report = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"mypy {package} found problems:\n{report}"
    assert "Success: no issues found" in report, report
