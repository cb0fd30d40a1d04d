"""The strength benchmark (``bench/strength.py``, run in full by ``.ci/run``) at its smoke size:
valid JSON whose figures agree with each other, and a verdict that fails a bot that loses."""

from __future__ import annotations

import json
import math
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import strength  # noqa: E402


def test_quick_run_prints_consistent_json() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "strength.py"), "--quick"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["quick"] is True and out["judged"] is False and out["deals"] == 2
    assert len(out["per_deal"]) == 2
    assert out["mean_per_hand"] == round(statistics.fmean(out["per_deal"]), 3)
    assert out["cpu_seconds"] > 0


def test_the_verdict_fails_a_bot_that_loses_by_more_than_two_standard_errors() -> None:
    losing = [-40.0, -35.0, -50.0, -20.0]
    se = statistics.stdev(losing) / math.sqrt(len(losing))
    verdict = strength.report(losing, judged=True)
    assert verdict["not_worse"] is False and verdict["bound"] == round(-2 * se, 3)
    # noisy deals whose mean is within two standard errors below zero pass
    assert strength.report([-60.0, 50.0, -40.0, 30.0], judged=True)["not_worse"] is True


def test_the_same_deals_give_the_same_differences() -> None:
    assert strength.deal_differences(1) == strength.deal_differences(1)


def test_fewer_than_two_deals_are_refused() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "strength.py"), "--deals", "1"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert proc.returncode == 2 and "at least 2" in proc.stderr
