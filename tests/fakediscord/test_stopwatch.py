"""The fake's Stopwatch: real time while the process sleeps or runs alone, less the time it waited
for a CPU while other processes held every core (Linux), never stretched past ``MAX_STRETCH``."""

from __future__ import annotations

import multiprocessing
import os
import time

import pytest

from fakediscord.clock import MAX_STRETCH, Stopwatch, cpu_waits

linux = pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="needs Linux's schedstat")


def _spin(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


def test_sleeping_is_counted_in_full() -> None:
    watch = Stopwatch()
    time.sleep(0.3)
    assert 0.29 <= watch.elapsed() <= time.monotonic() - watch._start + 1e-6
    assert watch.past(0.25) and not watch.past(5)


@linux
def test_time_spent_waiting_for_a_cpu_is_left_out() -> None:
    hogs = [multiprocessing.Process(target=_spin, args=(1.3,)) for _ in range(2 * (os.cpu_count() or 1))]
    for hog in hogs:
        hog.start()
    try:
        before = cpu_waits()
        watch = Stopwatch()
        _spin(1.0)  # runnable all along, sharing every core with the hogs
        starved, elapsed = watch.starved(), watch.elapsed()
        wall = time.monotonic() - watch._start
    finally:
        for hog in hogs:
            hog.join()
    assert cpu_waits() - before >= starved > 0.3 * wall  # with 2 hogs a core it waits most of the time
    assert wall / MAX_STRETCH <= elapsed < 0.7 * wall
