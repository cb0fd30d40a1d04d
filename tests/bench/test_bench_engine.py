"""The engine benchmark runs at a tiny size and prints valid JSON (its numbers are not asserted:
speed targets live in the benchmark's output, never in timed tests)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_bench(*args: str) -> dict:
    env = dict(os.environ, BENCH_QUICK="1")
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "engine.py"), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_quick_benchmark_prints_json() -> None:
    out = run_bench()
    assert out["quick"] is True and out["preset"] == "standard"
    rh = out["random_hands"]
    assert rh["hands"] >= 20 and rh["hands_per_second"] > 0
    assert rh["actions_per_second"] > rh["hands_per_second"]
    assert out["playout_hands"]["hands"] >= 20 and out["playout_hands"]["hands_per_second"] > 0
    assert out["legal_cards"]["calls"] > 0 and out["legal_cards"]["us_per_call"] > 0
    e = out["expert"]
    assert e["card_decisions"] > 10 and 0 < e["median_ms"] <= e["p99_ms"] <= e["max_ms"]
    h = out["heuristic"]
    assert h["decisions"] > 50 and 0 < h["median_us"] <= h["p99_us"] <= h["max_us"]
    if out["openspiel"] is None:
        # open-spiel is an optional extra: its absence is reported, not fatal.
        assert out["openspiel_error"] and out["ratio_vs_openspiel"] is None
    else:
        assert out["openspiel"]["hands_per_second"] > 0
        expected = rh["hands_per_second"] / out["openspiel"]["hands_per_second"]
        assert abs(out["ratio_vs_openspiel"] - expected) < 0.01
        assert out["meets_target"] == (out["ratio_vs_openspiel"] >= 2.0)
        fast = out["playout_hands"]["hands_per_second"] / out["openspiel"]["hands_per_second"]
        assert abs(out["playout_ratio_vs_openspiel"] - fast) < 0.01
        assert out["playout_meets_target"] == (out["playout_ratio_vs_openspiel"] >= 2.0)


def test_openspiel_can_be_skipped() -> None:
    out = run_bench("--no-openspiel", "--hands", "3")
    assert out["openspiel"] is None and "skipped" in out["openspiel_error"]
    assert out["random_hands"]["hands"] == 3 and out["playout_hands"]["hands"] == 3
    assert out["playout_ratio_vs_openspiel"] is None


def test_bad_sizes_exit_2() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "engine.py"), "--hands", "0"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and "sizes must be 1 or more" in proc.stderr


def test_cpu_time_clock_is_reported() -> None:
    wall = run_bench("--no-openspiel", "--hands", "3")
    cpu = run_bench("--no-openspiel", "--hands", "3", "--cpu-time")
    assert wall["clock"] == "wall" and cpu["clock"] == "cpu"
    assert cpu["playout_hands"]["hands"] == 3 and cpu["playout_hands"]["hands_per_second"] > 0
