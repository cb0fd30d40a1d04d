"""The one clock: TIME_SCALE picks it, a scaled clock waits less real time, and the tests' clock
jumps forward waking whoever waits on it."""

from __future__ import annotations

import asyncio
import time

from bot.client import clock_for
from bot.clock import ScaledClock, SystemClock, utcnow
from bot.config import Config
from tests.clock import TestClock


def test_time_scale_picks_the_clock() -> None:
    assert isinstance(clock_for(Config(token="x")), SystemClock)
    fast = clock_for(Config(token="x", time_scale=0.2))
    assert isinstance(fast, ScaledClock) and fast.speed == 5.0


async def test_a_scaled_clock_sleeps_its_seconds_in_less_real_time() -> None:
    clock = ScaledClock(speed=100.0)
    started, at = time.monotonic(), clock.now()
    await clock.sleep(20.0)  # 0.2 s of real time
    assert 0.15 <= time.monotonic() - started < 5.0
    assert clock.now() - at >= 19.0
    assert abs(utcnow(clock).timestamp() - clock.now()) < 1.0


async def test_the_tests_clock_runs_fast_and_an_advance_wakes_a_sleeper() -> None:
    clock = TestClock(speed=50.0)
    at = clock.now()
    await clock.sleep(5.0)  # 0.1 s lived
    assert clock.now() - at >= 5.0
    sleeper = asyncio.ensure_future(clock.sleep(3600.0))  # an hour: 72 s at speed 50
    await asyncio.sleep(0.05)
    assert not sleeper.done()
    clock.advance(3600.0)
    await asyncio.wait_for(sleeper, timeout=5.0)
    assert clock.now() - at >= 3605.0
