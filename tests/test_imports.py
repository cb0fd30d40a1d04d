"""The import contracts in pyproject.toml (``[tool.importlinter]``) hold, and they would catch a
break: ``lint-imports`` runs on this tree, and on a copy with two planted violations."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINT = Path(sys.executable).with_name("lint-imports")


def lint(where: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT), "--config", str(where / "pyproject.toml"), "--no-cache"],
        cwd=where,
        env={"PYTHONPATH": str(where), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_import_contracts_hold() -> None:
    result = lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_a_broken_contract_fails(tmp_path: Path) -> None:
    for package in ("engine", "bot", "cogs"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    with (tmp_path / "engine" / "errors.py").open("a") as f:
        f.write("\nimport asyncio  # noqa\n")
    with (tmp_path / "bot" / "views" / "panel.py").open("a") as f:
        f.write("\nfrom bot.table.service import TableService  # noqa\n")
    result = lint(tmp_path)
    assert result.returncode != 0
    assert "engine is pure: no Discord, no event loop, no database BROKEN" in result.stdout
    inside_bot = "inside bot/: client -> clicks -> table -> views -> render -> model -> storage"
    assert f"{inside_bot} BROKEN" in result.stdout
    assert "cogs -> bot -> engine KEPT" in result.stdout
