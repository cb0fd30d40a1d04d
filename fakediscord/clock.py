"""The fake's clock and snowflake ids.

The clock follows real (monotonic) time plus an offset that tests can advance, so a test can make an
interaction token expire without waiting 15 minutes. Snowflakes embed the fake clock's time, as
Discord's do, and are strictly increasing. ``Stopwatch`` times the fake's own deadlines in the time the
process was given a CPU, so a loaded machine does not fail a bot that did its part in time.
"""

from __future__ import annotations

import datetime as dt
import os
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


#: a wait is never stretched more than this: a test that hangs on a loaded machine still fails
MAX_STRETCH = 20.0


class _CpuWaits:
    """Seconds the threads of this process have spent ready to run but waiting for a CPU, added up
    since the first call (Linux's ``/proc/self/task/*/schedstat``, second field; 0 elsewhere).

    Per thread, so a thread that ends (a database connection closed) takes nothing back."""

    def __init__(self) -> None:
        self._seen: dict[str, int] = {}
        self._total = 0
        self._read_at = -1.0
        self._available = os.path.isdir("/proc/self/task")

    def __call__(self) -> float:
        if not self._available:
            return 0.0
        now = time.monotonic()
        if now - self._read_at < 0.002:  # read at most every 2 ms (a read is ~60 us)
            return self._total / 1e9
        self._read_at = now
        try:
            tasks = list(os.scandir("/proc/self/task"))
        except OSError:
            return self._total / 1e9
        for task in tasks:
            try:
                with open(f"{task.path}/schedstat", "rb") as fh:
                    waited = int(fh.read().split()[1])
            except (OSError, IndexError, ValueError):
                continue
            self._total += max(0, waited - self._seen.get(task.name, 0))
            self._seen[task.name] = waited
        return self._total / 1e9


cpu_waits = _CpuWaits()


class Stopwatch:
    """Elapsed time as this process lived it: real (monotonic) time less the time its threads waited
    for a CPU that other work on the machine held.

    The fake's deadlines (the bot ready, idle, an interaction answered within Discord's 3 s) are
    about what the bot does. On a quiet machine this is real time; on a loaded one (two cores, load
    8) the bot is not blamed for the seconds it was not given: a wait stretches with the load, at
    most ``MAX_STRETCH`` times, so a real hang still fails. Reading the counters costs ~60 us, so
    ``past`` reads them only once real time is past the deadline."""

    __slots__ = ("_start", "_waited")

    def __init__(self) -> None:
        self._start = time.monotonic()
        self._waited = cpu_waits()

    def starved(self) -> float:
        """Seconds since the start that this process waited for a CPU."""
        wall = time.monotonic() - self._start
        return min(max(0.0, cpu_waits() - self._waited), wall * (1 - 1 / MAX_STRETCH))

    def elapsed(self) -> float:
        return time.monotonic() - self._start - self.starved()

    def past(self, seconds: float) -> bool:
        """Whether more than ``seconds`` have elapsed (cheap while real time is not past them)."""
        if time.monotonic() - self._start <= seconds:
            return False
        return self.elapsed() > seconds
