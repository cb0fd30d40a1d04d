"""The bot's one clock: what time it is in the game's world, and how to wait in it.

Every timer of ours (turn deadlines, reminders, a bot's pause, evictions, the league's nights) reads
and waits on the :class:`Clock` the composition root hands out. Production runs on
:class:`SystemClock`; ``TIME_SCALE`` (a faster sandbox) runs on :class:`ScaledClock`; tests pass a
clock of their own. Discord's own time (rate-limit buckets, interaction-token lifetimes) is not ours
to speed up: that stays on ``time.monotonic``, as discord.py keeps it.
"""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from typing import Protocol


class Clock(Protocol):
    """The time of the game's world (seconds since the Unix epoch) and a sleep in that time."""

    def now(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...

    def real_seconds(self, seconds: float) -> float:
        """About how long a sleep of ``seconds`` on this clock lasts in real time: the budget of
        work done outside the clock's world (a bot's search in a worker process) during a pause."""
        ...


def utcnow(clock: Clock) -> datetime:
    """The clock's time as an aware UTC datetime (the league's schedule reads it so)."""
    return datetime.fromtimestamp(clock.now(), UTC)


class SystemClock:
    """Real time."""

    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))

    def real_seconds(self, seconds: float) -> float:
        return seconds


class ScaledClock:
    """Time that runs ``speed`` times faster than real time, from the moment it is made.

    >>> fast = ScaledClock(speed=5.0)
    >>> abs(fast.now() - time.time()) < 1.0
    True
    """

    def __init__(self, speed: float) -> None:
        if not 0 < speed < float("inf"):
            raise ValueError(f"a clock's speed must be a positive number, got {speed!r}")
        self.speed = speed
        self._wall = time.time()
        self._mono = time.monotonic()

    def now(self) -> float:
        return self._wall + (time.monotonic() - self._mono) * self.speed

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds) / self.speed)

    def real_seconds(self, seconds: float) -> float:
        return seconds / self.speed
