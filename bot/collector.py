"""Python's cyclic garbage collector, scheduled so it does not stall the event loop every few seconds.

With hundreds of live tables the process holds ~300,000 objects the collector tracks: every action
replaces its table (copy, save, swap), and every click leaves discord.py's objects (the interaction,
the clicked message and its components, the panel's view: full of reference cycles) for the
collector. CPython then ran a full collection every ~3 s at 500 tables, each one pause of the loop
of 100-400 ms (no click answered meanwhile): the largest cause of the loop's lag (bench/README.md).

So, once the bot has started (its modules, commands and restored tables loaded), everything alive is
frozen (``gc.freeze``: never scanned again; still freed by reference counting when it dies), the
young generations are collected as usual (a few ms each), and the full collection runs on a timer,
every ``full_seconds`` (one such pause a minute instead of twenty). The price is memory: cycles that
reach the oldest generation wait for the timer.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

log = logging.getLogger(__name__)

# the oldest generation's automatic trigger, effectively never: the timer does it
NEVER = 1 << 30


class Collector:
    """``start()`` after start-up, ``close()`` at shutdown (gives the process its settings back)."""

    def __init__(self, full_seconds: float) -> None:
        self.full_seconds = full_seconds
        self.full_collections = 0
        self.last_pause = 0.0  # seconds, the last timed full collection
        self._saved: tuple[int, int, int] | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def active(self) -> bool:
        return self._saved is not None

    def start(self) -> None:
        if self.full_seconds <= 0 or self._saved is not None:
            return  # 0: Python's own policy
        young, middle, _old = self._saved = gc.get_threshold()
        gc.collect()  # what start-up left behind goes before the rest is frozen
        gc.freeze()
        gc.set_threshold(young, middle, NEVER)
        self._task = asyncio.get_running_loop().create_task(self._timer(), name="gc-full")

    def collect(self) -> float:
        """One full collection of what is not frozen; its pause in seconds."""
        t0 = time.perf_counter()
        found = gc.collect()
        pause = time.perf_counter() - t0
        self.full_collections += 1
        self.last_pause = pause
        log.debug("full collection: %d unreachable objects, %.0f ms", found, pause * 1000)
        return pause

    async def _timer(self) -> None:
        while True:
            await asyncio.sleep(self.full_seconds)
            self.collect()

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
        if self._saved is not None:
            gc.set_threshold(*self._saved)
            gc.unfreeze()
            self._saved = None
