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

On a budget under load: the workers run at a lower priority (``SEARCH_NICE``), so the event loop's
process always wins a core from them, and a decision is *degraded* (the ``normal`` bot decides it
inline, counted in ``degraded``) when the worker could not search it in time: when the decisions
already queued would keep it waiting longer than its budget allows (``_admit``), when it reaches a
worker too late to search (`plan_in_worker`), or when its answer is not back ``GRACE_SECONDS``
after its budget. Between an idle worker and that bound the search's share shrinks with the queue
(``budget / (1 + queued per worker)``): fewer sampled deals each, so the queue drains within a
budget. So a strong decision never takes much more than ``MAX_THINK_SECONDS + GRACE_SECONDS``
whatever the load, and the bot is never late for its turn (it acts after its 1-1.5 s pause).

Hand reviews (Review my hand, `Thinker.review`: `engine.review` over a stored hand record) run in
a worker process of their own, started at the first review at the same lower priority, one review
at a time, each search capped at ``REVIEW_SEARCH_SECONDS`` of CPU time: a review searches for a
second or more, and the tables' decisions never queue behind it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from engine import Game, Look, RecordError
from engine.actions import action_from_dict
from engine.bots import LEVELS, get_bot
from engine.review import HandReview, review_hand

log = logging.getLogger(__name__)

#: The level a table's bots play at unless the table or the server says otherwise: the strongest
#: level whose decisions meet the time budget (p99 well under 1 s on a 2-core machine:
#: bench/README.md).
DEFAULT_LEVEL = "strong"
#: Seconds the strong bot may think per turn at most (its search stops there; the check comes
#: between sampled deals, so a decision overruns it by one deal's roll-outs at most).
MAX_THINK_SECONDS = 0.6
SEARCH_LEVELS = frozenset({"strong"})
#: Seconds past its budget the loop waits for a worker's answer before the normal bot decides.
GRACE_SECONDS = 0.25
#: The least search worth sending to a worker (the strong bot's two sampled deals take ~10-25 ms):
#: a decision that would get less (queued too long) is decided by the normal bot instead. (With a
#: budget under twice this, as in the sped-up sandbox, half the budget.)
MIN_SEARCH_SECONDS = 0.03
#: Added to the search workers' niceness (Unix), which also run in the idle scheduling class on
#: Linux (`lower_priority`): the bot's event loop gets a core first. 0: the bot's own priority.
SEARCH_NICE = 10
#: Seconds the first decision waits for a worker process that is still starting, past its budget
START_WAIT_SECONDS = 5.0
#: Seconds a clean stop waits for killed workers to exit (`Thinker.aclose`)
KILLED_EXIT_SECONDS = 10.0
#: how often a worker checks that its bot is still alive (seconds)
ORPHAN_CHECK_SECONDS = 1.0


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
    data: dict[str, Any],
    seat: int,
    level: str,
    seed: int | None,
    requested: float,
    budget: float,
    share: float | None = None,
) -> tuple[list[dict[str, Any]] | None, float]:
    """`plan` in a worker process: the game from its dict, the deadline ``budget`` seconds after
    ``requested`` (wall-clock seconds: the time spent queued for the worker counts) and at most
    ``share`` seconds of search. Returns the actions and the seconds this worker spent; no actions
    (None) when less than `least_search` was left when the decision reached the worker: the loop
    then decides by rule, and the worker moves on to the next decision at once."""
    started = time.perf_counter()
    left = budget - max(0.0, time.time() - requested)
    if share is not None:
        left = min(left, share)
    if left < least_search(budget):
        return None, time.perf_counter() - started
    actions = plan(Game.from_dict(data), seat, level, seed, started + left)
    return [a.to_dict() for a in actions], time.perf_counter() - started


#: CPU seconds each search of a hand review may take (the bot's decision at one of the player's
#: turns, then its estimate of a difference): 14 turns at most, two searches each.
REVIEW_SEARCH_SECONDS = 0.1
#: Wall-clock seconds the loop waits for a hand review before it answers that it could not.
REVIEW_TIMEOUT = 30.0


def review_in_worker(record: dict[str, Any], seat: int, seed: int, search: float) -> dict[str, Any]:
    """`engine.review.review_hand` in a worker process, each search capped at ``search`` CPU
    seconds (``time.process_time``: a loaded machine gets the same review, only later); the
    review as its dict (``HandReview.to_dict``), or ``{"refused": why}`` for a record that does not
    replay (the error's position and rule, no card: the loop raises it again)."""
    try:
        return review_hand(record, seat, seed=seed, time_limit=search, clock=time.process_time).to_dict()
    except RecordError as e:
        return {"refused": e.position}


def least_search(budget: float) -> float:
    """The least search worth a worker's time for a decision with ``budget`` seconds."""
    return min(MIN_SEARCH_SECONDS, budget / 2)


def _result_not_wanted(fut: asyncio.Future[Any]) -> None:
    """Done callback of a search given up on: its outcome (an error included) is read and dropped."""
    if not fut.cancelled():
        fut.exception()


def lower_priority(nice: int) -> None:
    """The worker process's initializer: ``nice`` more niceness where the OS allows it, and on Linux
    the idle scheduling class (``SCHED_IDLE``).

    Niceness alone leaves the bot's answers waiting behind the worker: the kernel lets a running
    task finish its slice before a woken one of higher priority takes the core. A ``SCHED_IDLE``
    task is preempted as soon as any normal task wakes, and a core running only such tasks counts
    as idle when the kernel places a woken task, so the event loop gets a core the moment an
    interaction arrives (measured at 500 tables: bench/README.md). ``nice`` 0: neither."""
    if nice <= 0:
        return
    if hasattr(os, "nice"):
        with contextlib.suppress(OSError):  # (not allowed here: the worker keeps the bot's priority)
            os.nice(nice)
    idle = getattr(os, "SCHED_IDLE", None)
    if idle is not None and hasattr(os, "sched_setscheduler"):
        with contextlib.suppress(OSError):  # (no such class here: niceness alone)
            os.sched_setscheduler(0, idle, os.sched_param(0))


def init_worker(nice: int) -> None:
    """The worker process's initializer: a lower priority, and an end with the bot: a worker whose
    bot died (killed, crashed) exits within a second instead of idling on as an orphan.

    A worker ignores SIGINT: Ctrl-C in a terminal reaches the whole process group, and the bot ends
    its workers itself when it stops (`Thinker.aclose`); a worker interrupted in its queue would
    only print a KeyboardInterrupt traceback."""
    with contextlib.suppress(ValueError, OSError):  # (not the main thread, or no such signal here)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    lower_priority(nice)
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(ORPHAN_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def warm_up() -> tuple[int, int]:
    """Run once in each new worker: import the bots and build their cached tables; its process id
    and its niceness."""
    game = Game.new("standard", seed=0)
    seat = game.seats_to_act()[0]
    plan(game, seat, "strong", 0, time.perf_counter() + 0.01)
    return os.getpid(), os.nice(0) if hasattr(os, "nice") else 0


def scheduling_class(pid: int) -> str:
    """The OS scheduling class of process ``pid`` ("idle", "other", ...; "" where not told)."""
    if not hasattr(os, "sched_getscheduler"):
        return ""
    try:
        policy = os.sched_getscheduler(pid)
    except OSError:
        return ""
    names = {getattr(os, f"SCHED_{n.upper()}", None): n for n in ("other", "batch", "idle", "fifo", "rr")}
    return names.get(policy, str(policy))


def default_workers() -> int:
    """One worker per core but one (the event loop keeps a core), at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


class Thinker:
    """Runs the bots' decisions: inline for the rule-based levels, in worker processes for search."""

    def __init__(
        self,
        *,
        workers: int | None = None,
        max_think: float = MAX_THINK_SECONDS,
        grace: float = GRACE_SECONDS,
        start_wait: float = START_WAIT_SECONDS,
        nice: int = SEARCH_NICE,
    ) -> None:
        self.max_think = max_think
        self.grace = grace
        self.start_wait = start_wait
        self.nice = nice
        self._workers = workers if workers is not None else default_workers()
        self._pool: Executor | None = None
        self.in_flight = 0  # decisions running in a worker now (read by tests and benchmarks)
        self.reviewing = 0  # hand reviews running in their worker now (`review`)
        self._start_waited = False  # a decision waited for a starting worker and timed out
        self._outstanding = 0  # searches sent to a worker and not finished there (`outstanding`)
        self._outstanding_lock = threading.Lock()
        self._review_pool: ProcessPoolExecutor | None = None
        self.decisions = 0
        self.fallbacks = 0
        #: search decisions the normal bot decided because the workers could not in time (`_admit`)
        self.degraded = 0
        self.degraded_by: dict[str, int] = {"queue": 0, "late": 0, "timeout": 0}
        #: seconds a worker spends on one search decision (moving average), for `_admit`
        self.service = 0.05
        self._asked: deque[float] = deque(maxlen=32)  # when the latest search decisions were asked
        self.durations: deque[float] = deque(maxlen=10_000)  # seconds of the latest worker decisions
        self.searched: deque[float] = deque(maxlen=10_000)  # of those the worker searched
        #: the worker processes `start` started and warmed (their ids), their niceness, and whether
        #: each search decision found them ready when it was asked for (read by tests and benchmarks)
        self.warm_pids: set[int] = set()
        self.worker_nice: list[int] = []
        self.ready_at_decision: deque[bool] = deque(maxlen=10_000)  # (the latest decisions')
        self.ready_durations: deque[float] = deque(maxlen=10_000)  # those asked with workers ready
        self._starting: asyncio.Task[None] | None = None

    def _executor(self) -> Executor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self._workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=init_worker,
                initargs=(self.nice,),
            )
        return self._pool

    def _admit(self, budget: float) -> float | None:
        """The seconds of search a new decision gets (its share of the workers), or None when the
        decisions already queued would keep it waiting past its budget: the normal bot decides."""
        now = time.perf_counter()
        self._asked.append(now)
        least = least_search(budget)
        # ahead of it, per worker: the decisions waiting, and those given up on that a worker has
        # not finished yet (a busy or starved worker still owes them)
        queued = max(self.in_flight, self.outstanding) / self._workers
        if queued * self.service + least > budget:
            return None
        share = budget / (1.0 + queued)
        if len(self._asked) >= 8 and now > self._asked[0]:
            # no more than the workers' time per decision at the rate decisions are asked for
            # (80 % of it), so the next ones find a worker free: at most budget, at least the minimum
            rate = (len(self._asked) - 1) / (now - self._asked[0])
            share = min(share, max(least, 0.8 * self._workers / rate))
        return share if share >= least else None

    @property
    def outstanding(self) -> int:
        """Searches sent to a worker and not finished there (answered, given up on, or not)."""
        return self._outstanding

    def _count_outstanding(self, job: Future[Any]) -> None:
        with self._outstanding_lock:
            self._outstanding += 1

        def finished(_: Future[Any]) -> None:  # (in the pool's thread, or at once if done)
            with self._outstanding_lock:
                self._outstanding -= 1

        job.add_done_callback(finished)

    def _degrade(self, why: str, game: Game, seat: int, seed: int | None) -> list[Any]:
        self.degraded += 1
        self.degraded_by[why] = self.degraded_by.get(why, 0) + 1
        log.debug("bot search degraded (%s, %d in flight): the normal bot decides", why, self.in_flight)
        return plan(game.clone(), seat, "normal", seed, 0.0)

    async def plan(self, game: Game, seat: int, level: str, seed: int | None, budget: float) -> list[Any]:
        """`plan` for ``seat`` of ``game`` (not changed). ``budget``: seconds from now the turn's
        search may take (capped at ``max_think``); the answer comes within ``budget + grace``
        (the normal bot's when the search could not be done in time)."""
        budget = min(budget, self.max_think)
        started = time.perf_counter()
        self.decisions += 1
        if level not in SEARCH_LEVELS:
            return plan(game.clone(), seat, level, seed, started + budget)
        loop = asyncio.get_running_loop()
        ready = self.ready
        self.ready_at_decision.append(ready)
        if ready:
            share = self._admit(budget)
        elif self._start_waited and self.outstanding:
            share = None  # still starting, still on the decision it timed out on: no wait again
        else:
            share = budget
        if share is None:
            try:
                return self._degrade("queue", game, seat, seed)
            finally:
                self.durations.append(time.perf_counter() - started)
                self.ready_durations.append(self.durations[-1])
        self.in_flight += 1
        try:
            data = game.to_dict()
            data["hand_records"] = []  # (the past hands' records: the search never reads them)
            job = self._executor().submit(plan_in_worker, data, seat, level, seed, time.time(), budget, share)
            self._count_outstanding(job)
            fut = asyncio.wrap_future(job, loop=loop)
            # the search checks its clock between sampled deals; a worker's first decision also
            # starts its process (not ready yet: wait for it, as the warm-up would), but only once:
            # a worker that did not start in that time is starved of CPU, and the turns after it
            # must not each wait seconds for it
            waits_for_start = not ready and not self._start_waited
            timeout = 2 * budget + self.start_wait if waits_for_start else budget + self.grace
            # (not wait_for: a timeout would cancel the job, and a job cancelled before a worker
            # took it would no longer count as the worker's backlog: the next turns would each
            # wait again for a worker that cannot keep up; a late job ends as soon as it starts)
            finished, _ = await asyncio.wait({fut}, timeout=timeout)
            if not finished:  # the worker is busy (or starved of CPU): not broken
                fut.add_done_callback(_result_not_wanted)
                self._start_waited = self._start_waited or waits_for_start
                return self._degrade("timeout", game, seat, seed)
            done, spent = fut.result()
            if done is None:
                return self._degrade("late", game, seat, seed)
            self.service += 0.2 * (spent - self.service)  # (of searches: a late one costs nothing)
            self.searched.append(time.perf_counter() - started)
            return [action_from_dict(d) for d in done]
        except Exception as exc:  # a search must never stall the table: the rules bot decides
            self.fallbacks += 1
            log.warning("bot search failed (%s); the normal bot decides", type(exc).__name__)
            if isinstance(exc, OSError) or "Broken" in type(exc).__name__:
                self._reset()
            return plan(game.clone(), seat, "normal", seed, started + budget)
        finally:
            self.in_flight -= 1
            self.durations.append(time.perf_counter() - started)
            if ready:
                self.ready_durations.append(self.durations[-1])

    def _review_executor(self) -> ProcessPoolExecutor:
        """The hand reviews' own worker process (started at the first review, at the workers'
        lower priority): a review searches for seconds, and the tables' bots never queue behind it
        (on a machine with one search worker they would all fall back to the normal bot)."""
        if self._review_pool is None:
            self._review_pool = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=init_worker,
                initargs=(self.nice,),
            )
        return self._review_pool

    def _stop_reviews(self) -> None:
        """End the review worker now (a review in progress is not wanted at a stop)."""
        pool, self._review_pool = self._review_pool, None
        if pool is None:
            return
        processes = list(getattr(pool, "_processes", {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            with contextlib.suppress(Exception):
                process.terminate()

    async def review(
        self,
        record: dict[str, Any],
        seat: int,
        seed: int = 0,
        *,
        search: float = REVIEW_SEARCH_SECONDS,
        timeout: float = REVIEW_TIMEOUT,
    ) -> HandReview | None:
        """``seat``'s hand of ``record`` reviewed by the strong bot (`engine.review`), searched in
        the review worker process so the event loop stays free; one review at a time. None when
        another review is running, the review did not come back within ``timeout`` seconds or the
        worker broke. Raises ``RecordError`` when the record does not replay."""
        if self.reviewing:
            return None
        loop = asyncio.get_running_loop()
        self.reviewing += 1
        try:
            fut = loop.run_in_executor(self._review_executor(), review_in_worker, record, seat, seed, search)
            try:
                done = await asyncio.wait_for(fut, timeout=timeout)
            except TimeoutError:
                log.warning("a hand review did not finish in %.0f s", timeout)
                self._stop_reviews()  # (its search would hold the worker on: a new one next time)
                return None
            except BrokenProcessPool:
                log.warning("the hand review worker ended; the next review starts a new one")
                self._review_pool = None
                return None
            if "refused" in done:
                raise RecordError(str(done["refused"]), "the record does not replay")
            return HandReview.from_dict(done)
        finally:
            self.reviewing -= 1

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
                pid, nice = await asyncio.wrap_future(fut, loop=loop)
                self.warm_pids.add(pid)
                self.worker_nice.append(nice)
            log.debug("bot search workers ready: %d", len(self.warm_pids))
        except Exception as exc:  # the first decisions start the pool instead
            log.warning("the bot search workers did not start (%s)", type(exc).__name__)

    def _detach(self) -> Executor | None:
        """Forget the pool and its workers (the next decision starts a new one); the old pool."""
        pool, self._pool = self._pool, None
        self._start_waited = False
        self.warm_pids.clear()
        self.worker_nice.clear()
        return pool

    def _reset(self) -> None:
        pool = self._detach()
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop at once: the worker processes end by themselves shortly after (a review's is
        ended)."""
        if self._starting is not None and not self._starting.done():
            self._starting.cancel()
        self._stop_reviews()
        self._reset()

    async def aclose(self, timeout: float = 1.5) -> None:
        """Stop, and wait (off the event loop, ``timeout`` seconds at most) until the worker
        processes have ended: a clean stop of the bot leaves no process behind, not even one
        finishing its last search (at most a budget's worth, under a second). A worker still busy
        after ``timeout`` (a machine so loaded that its last search crawls) is terminated, then
        killed, and waited for until it has exited: its result is not wanted."""
        if self._starting is not None and not self._starting.done():
            self._starting.cancel()
        self._stop_reviews()
        pids = list(self.warm_pids)
        pool = self._detach()
        if pool is None:
            return
        shutdown = asyncio.ensure_future(asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True))
        done, _ = await asyncio.wait({shutdown}, timeout=timeout)
        if done:
            return
        log.warning("the bots' search workers did not stop within %g s: terminating them", timeout)
        # SIGKILL: one that has not ended after SIGTERM. Even a killed process is scheduled once
        # more to exit, which at idle priority on a saturated machine can take seconds: the wait
        # after it is longer (it ends; only when is the machine's)
        for how, wait in ((signal.SIGTERM, timeout), (signal.SIGKILL, max(timeout, KILLED_EXIT_SECONDS))):
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, how)
            done, _ = await asyncio.wait({shutdown}, timeout=wait)
            if done:
                return
