"""Bot decisions off the event loop, on a time budget.

The ``normal`` and ``easy`` levels (rules, well under a millisecond) decide inline. The ``strong``
level searches sampled deals for up to its budget, so it runs in a worker thread: the event loop
keeps answering every other table's interactions while it thinks (the search releases the GIL
to the loop at every switch interval). A decision that fails or overruns its budget by far falls
back to the ``normal`` bot, so a table never stalls on a search.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from engine import Game, Look
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


class Thinker:
    """Runs the bots' decisions: inline for the rule-based levels, in worker threads for search."""

    def __init__(self, *, workers: int = 4, max_think: float = MAX_THINK_SECONDS) -> None:
        self.max_think = max_think
        self._workers = workers
        self._pool: ThreadPoolExecutor | None = None
        self.in_flight = 0  # decisions running in a worker now (read by tests and benchmarks)
        self.decisions = 0
        self.durations: deque[float] = deque(maxlen=10_000)  # seconds of the latest worker decisions

    def _executor(self) -> ThreadPoolExecutor:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=self._workers, thread_name_prefix="bot-think")
        return self._pool

    async def plan(self, game: Game, seat: int, level: str, seed: int | None, budget: float) -> list[Any]:
        """`plan` for ``seat``: ``game`` must be a private copy (a worker changes it while the loop
        goes on). ``budget``: seconds the search may take per decision (capped at ``max_think``)."""
        budget = min(budget, self.max_think)
        started = time.perf_counter()
        deadline = started + budget  # from the request: time queued for a worker counts too
        self.decisions += 1
        if level not in SEARCH_LEVELS:
            return plan(game, seat, level, seed, deadline)
        loop = asyncio.get_running_loop()
        self.in_flight += 1
        backup = game.clone()
        try:
            fut = loop.run_in_executor(self._executor(), plan, game, seat, level, seed, deadline)
            # the search checks its clock between sampled deals; allow it a generous overrun
            return await asyncio.wait_for(fut, timeout=2 * budget + 2.0)
        except Exception as exc:  # a search must never stall the table: the rules bot decides
            log.warning("bot search failed or overran (%s); the normal bot decides", type(exc).__name__)
            return plan(backup, seat, "normal", seed, deadline)
        finally:
            self.in_flight -= 1
            self.durations.append(time.perf_counter() - started)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
