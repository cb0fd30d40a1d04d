"""The fake's clock and snowflake ids.

The clock follows real (monotonic) time plus an offset that tests can advance, so a test can make an
interaction token expire without waiting 15 minutes. Snowflakes embed the fake clock's time, as
Discord's do, and are strictly increasing.
"""

from __future__ import annotations

import datetime as dt
import time

DISCORD_EPOCH_MS = 1420070400000


class FakeClock:
    """Wall-clock time that tests can move forward (never backward)."""

    def __init__(self) -> None:
        self._start_wall = time.time()
        self._start_mono = time.monotonic()
        self._offset = 0.0

    def now(self) -> float:
        """Seconds since the Unix epoch, on the fake clock."""
        return self._start_wall + (time.monotonic() - self._start_mono) + self._offset

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("the fake clock only moves forward")
        self._offset += seconds

    def iso(self, when: float | None = None) -> str:
        """ISO 8601 timestamp as Discord writes them (UTC, microseconds, +00:00)."""
        value = self.now() if when is None else when
        return dt.datetime.fromtimestamp(value, tz=dt.UTC).isoformat()


class SnowflakeFactory:
    """Discord snowflakes: 42 bits of milliseconds since 2015, then worker, process and increment."""

    def __init__(self, clock: FakeClock, worker: int = 1, process: int = 1) -> None:
        self._clock = clock
        self._worker = worker & 0x1F
        self._process = process & 0x1F
        self._last = 0

    def next(self) -> int:
        ms = int(self._clock.now() * 1000) - DISCORD_EPOCH_MS
        candidate = (ms << 22) | (self._worker << 17) | (self._process << 12)
        if candidate <= self._last:
            candidate = self._last + 1
        self._last = candidate
        return candidate

    def skip_to(self, snowflake: int) -> None:
        """Never hand out ``snowflake`` or anything before it (an id made on purpose)."""
        self._last = max(self._last, snowflake)


def snowflake_time(snowflake: int) -> float:
    """Unix time (seconds) encoded in a snowflake."""
    return ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000.0
