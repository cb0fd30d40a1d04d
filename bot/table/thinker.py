"""Bot decisions off the event loop, on a time budget.

The ``normal`` and ``easy`` levels (rules, well under a millisecond) decide inline. The ``strong``
level searches sampled deals for up to its budget, so it runs in a worker *process* (a pool
``spawn``ed so no thread of this process is copied) started and warmed when the bot starts (the
table service's first restore calls `Thinker.start`: in the background, the spawning in a thread,
so the bot's readiness does not wait for it and no decision after the warm-up waits for a
worker's start-up; with ``SEARCH_WORKERS_AT_START=off``, at the first strong decision): the search holds no
lock the event loop needs, not even the GIL, so every other table's interactions are answered as
if no bot were thinking. The game goes to the worker as its JSON form (``Game.to_dict``) and the
actions come back as dicts. A decision that fails or overruns its budget by far falls back to
the ``normal`` bot, so a table never stalls on a search.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from collections import deque
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from engine import Game, Look
from engine.actions import action_from_dict
from engine.bots import LEVELS, get_bot

log = logging.getLogger(__name__)

#: The level a table's bots play at unless the table or the server says otherwise: the strongest
#: level whose decisions meet the time budget (p99 well under 1 s on a 2-core machine:
#: bench/README.md).
DEFAULT_LEVEL = "strong"
#: Seconds the strong bot may think per turn at most (its search stops there; the check comes
#: between sampled deals, so a decision overruns it by one deal's roll-outs at most).
MAX_THINK_SECONDS = 0.6
SEARCH_LEVELS = frozenset({"strong"})


def level_or_default(level: Any) -> str:
    """A known level, or the default for anything else (old tables stored without one)."""
    return level if isinstance(level, str) and level in LEVELS else DEFAULT_LEVEL


def decide(game: Game, seat: int, level: str, seed: int | None, deadline: float) -> Any:
    """The bot of ``level``'s action for ``seat`` (an engine Action), its search stopping at
    ``deadline`` (``time.perf_counter()`` seconds). It sees only the seat's own view, like a
    player would."""
    view = game.view(seat)
    if level in SEARCH_LEVELS:
        budget = deadline - time.perf_counter()
        bot = get_bot(level, seed, time_limit=max(0.005, budget), min_worlds=2)
    else:
        bot = get_bot(level, seed)
    return bot.act(view)


def plan(game: Game, seat: int, level: str, seed: int | None, deadline: float) -> list[Any]:
    """The actions ``seat`` takes now on ``game`` (a private copy, changed here): one, or a look
    and then the bid that follows it in the same turn; the searches share the time to
    ``deadline``."""
    actions: list[Any] = []
    for _ in range(3):
        if seat not in game.seats_to_act():
            break
        action = decide(game, seat, level, seed, deadline)
        actions.append(action)
        game.apply(action)
        if not isinstance(action, Look):
            break
    return actions


def plan_in_worker(
    data: dict[str, Any], seat: int, level: str, seed: int | None, requested: float, budget: float
) -> list[dict[str, Any]]:
    """`plan` in a worker process: the game from its dict, the deadline ``budget`` seconds after
    ``requested`` (wall-clock seconds: the time spent queued for the worker counts)."""
    deadline = time.perf_counter() + budget - max(0.0, time.time() - requested)
    return [a.to_dict() for a in plan(Game.from_dict(data), seat, level, seed, deadline)]


def warm_up() -> int:
    """Run once in each new worker: import the bots and build their cached tables; its process id."""
    game = Game.new("standard", seed=0)
    seat = game.seats_to_act()[0]
    plan(game, seat, "strong", 0, time.perf_counter() + 0.01)
    return os.getpid()


def default_workers() -> int:
    """One worker per core but one (the event loop keeps a core), at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


class Thinker:
    """Runs the bots' decisions: inline for the rule-based levels, in worker processes for search."""

    def __init__(self, *, workers: int | None = None, max_think: float = MAX_THINK_SECONDS) -> None:
        self.max_think = max_think
        self._workers = workers if workers is not None else default_workers()
        self._pool: Executor | None = None
        self.in_flight = 0  # decisions running in a worker now (read by tests and benchmarks)
        self.decisions = 0
        self.fallbacks = 0
        self.durations: deque[float] = deque(maxlen=10_000)  # seconds of the latest worker decisions
        #: the worker processes `start` started and warmed (their ids), and whether each search
        #: decision found them ready when it was asked for (read by tests and benchmarks)
        self.warm_pids: set[int] = set()
        self.ready_at_decision: list[bool] = []
        self.ready_durations: deque[float] = deque(maxlen=10_000)  # those asked with workers ready
        self._starting: asyncio.Task[None] | None = None

    def _executor(self) -> Executor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self._workers, mp_context=multiprocessing.get_context("spawn")
            )
        return self._pool

    async def plan(self, game: Game, seat: int, level: str, seed: int | None, budget: float) -> list[Any]:
        """`plan` for ``seat`` of ``game`` (not changed). ``budget``: seconds from now the turn's
        search may take (capped at ``max_think``)."""
        budget = min(budget, self.max_think)
        started = time.perf_counter()
        self.decisions += 1
        if level not in SEARCH_LEVELS:
            return plan(game.clone(), seat, level, seed, started + budget)
        loop = asyncio.get_running_loop()
        ready = self.ready
        self.ready_at_decision.append(ready)
        self.in_flight += 1
        try:
            data = game.to_dict()
            data["hand_records"] = []  # (the past hands' records: the search never reads them)
            fut = loop.run_in_executor(
                self._executor(), plan_in_worker, data, seat, level, seed, time.time(), budget
            )
            # the search checks its clock between sampled deals; allow it a generous overrun (a
            # worker's first decision also starts its process)
            done = await asyncio.wait_for(fut, timeout=2 * budget + 5.0)
            return [action_from_dict(d) for d in done]
        except Exception as exc:  # a search must never stall the table: the rules bot decides
            self.fallbacks += 1
            log.warning("bot search failed or overran (%s); the normal bot decides", type(exc).__name__)
            if isinstance(exc, (TimeoutError, OSError)) or "Broken" in type(exc).__name__:
                self._reset()
            return plan(game.clone(), seat, "normal", seed, started + budget)
        finally:
            self.in_flight -= 1
            self.durations.append(time.perf_counter() - started)
            if ready:
                self.ready_durations.append(self.durations[-1])

    @property
    def ready(self) -> bool:
        """Whether every worker process has started and warmed up (`start`)."""
        return self._pool is not None and len(self.warm_pids) >= self._workers

    def start(self) -> asyncio.Task[None]:
        """Start and warm the worker processes now, in the background (the task is returned; it
        never raises): spawning a process and importing the engine takes ~0.1-2 s of a busy
        machine that the first strong decisions would otherwise queue behind. The spawning runs
        in a thread, off the event loop."""
        if self._starting is None or (self._starting.done() and not self.ready):
            self._starting = asyncio.create_task(self._start(), name="bot-search-workers")
        return self._starting

    async def _start(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            pool = self._executor()  # (no process yet: a submit spawns them)
            # one warm-up per worker, submitted from a thread (a submit may spawn a process)
            futures = await asyncio.to_thread(lambda: [pool.submit(warm_up) for _ in range(self._workers)])
            for fut in futures:
                self.warm_pids.add(await asyncio.wrap_future(fut, loop=loop))
            log.debug("bot search workers ready: %d", len(self.warm_pids))
        except Exception as exc:  # the first decisions start the pool instead
            log.warning("the bot search workers did not start (%s)", type(exc).__name__)

    def _reset(self) -> None:
        pool, self._pool = self._pool, None
        self.warm_pids.clear()
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        if self._starting is not None and not self._starting.done():
            self._starting.cancel()
        self._reset()
