"""The tests' clock for the bot (``bot.clock.Clock``): the game's world ``speed`` times faster than
the time this process was given a CPU, and moved forward at will.

A turn's 90 seconds take 1.8 s at speed 50 on a quiet machine. On a loaded one the bot's timers
stretch with the load exactly as the fake Discord's own deadlines do (the fake's ``Stopwatch``: real
time less the time this process waited for a CPU, at most ``MAX_STRETCH`` times), so a bot that was
not given the CPU is not timed out by its own clock. ``advance(seconds)`` jumps the world ahead
(league nights) and wakes every sleeper to look again.
"""

from __future__ import annotations

import asyncio
import time

from fakediscord.clock import MAX_STRETCH, cpu_waits


class TestClock:
    """Epoch seconds that run ``speed`` times faster than this process's lived time (see above)."""

    __test__ = False  # (not a test class for pytest)

    def __init__(self, speed: float = 50.0) -> None:
        if not speed > 0:
            raise ValueError(f"a clock's speed must be positive, got {speed!r}")
        self.speed = speed
        self._wall = time.time()
        self._mono = time.monotonic()
        self._waited = cpu_waits()
        self._offset = 0.0
        self._lived = 0.0  # the most seen: the waits of several threads may add up past real time
        self._moved: set[asyncio.Future[None]] = set()

    def lived(self) -> float:
        """Real seconds since the start, less the seconds this process waited for a CPU."""
        wall = time.monotonic() - self._mono
        starved = min(max(0.0, cpu_waits() - self._waited), wall * (1 - 1 / MAX_STRETCH))
        self._lived = max(self._lived, wall - starved)  # never backwards
        return self._lived

    def now(self) -> float:
        return self._wall + self.lived() * self.speed + self._offset

    async def sleep(self, seconds: float) -> None:
        """Until the clock is ``seconds`` further (an ``advance`` may end it early)."""
        until = self.now() + max(0.0, seconds)
        if seconds <= 0:
            await asyncio.sleep(0)
        loop = asyncio.get_running_loop()
        while (left := until - self.now()) > 0:
            moved: asyncio.Future[None] = loop.create_future()
            timer = loop.call_later(left / self.speed, _wake, moved)
            self._moved.add(moved)
            try:
                await moved
            finally:
                timer.cancel()
                self._moved.discard(moved)

    def real_seconds(self, seconds: float) -> float:
        """On a quiet machine; a loaded one stretches the sleep, not the search's budget."""
        return seconds / self.speed

    def advance(self, seconds: float) -> None:
        """Move the world ``seconds`` ahead; every sleeper looks at the time again."""
        if seconds < 0:
            raise ValueError("the clock only moves forward")
        self._offset += seconds
        for moved in list(self._moved):
            _wake(moved)


def _wake(moved: asyncio.Future[None]) -> None:
    if not moved.done():
        moved.set_result(None)
