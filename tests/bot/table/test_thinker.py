"""The strong bots' worker pool starts when the bot starts, before any bot decision needs it; its
workers run at a lower priority, and decisions stay within their budget under load."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.storage import Storage
from bot.table.thinker import (
    MIN_SEARCH_SECONDS,
    SEARCH_NICE,
    Thinker,
    lower_priority,
    plan_in_worker,
    scheduling_class,
)
from engine import Game, Phase, RecordError
from engine.actions import Action, action_from_dict
from engine.bots import get_bot
from fakediscord.clock import Stopwatch
from tests.bot.table.factories import ALICE, make_service, open_table, wait_until


async def test_the_pool_started_by_start_serves_the_first_decision() -> None:
    thinker = Thinker(workers=1)
    try:
        assert not thinker.ready
        await thinker.start()  # what the bot does at start-up, in the background
        assert thinker.ready and len(thinker.warm_pids) == 1
        pool = thinker._pool
        assert pool is not None
        game = Game.new("standard", seed=3)
        seat = game.seats_to_act()[0]
        actions = await thinker.plan(game, seat, "strong", 3, 0.05)
        assert actions and game.to_dict() == Game.new("standard", seed=3).to_dict()  # not changed
        # the decision found the workers started and ran in one of them (no new process)
        assert list(thinker.ready_at_decision) == [True] and len(thinker.ready_durations) == 1
        assert thinker.fallbacks == 0
        assert set(getattr(pool, "_processes", {})) == thinker.warm_pids
        assert thinker.start() is thinker.start()  # started once
    finally:
        thinker.close()


async def test_without_start_the_first_decision_starts_the_pool() -> None:
    thinker = Thinker(workers=1)
    try:
        game = Game.new("standard", seed=4)
        seat = game.seats_to_act()[0]
        assert await thinker.plan(game, seat, "strong", 4, 0.05)
        assert list(thinker.ready_at_decision) == [False]
    finally:
        thinker.close()


async def test_close_while_starting_does_not_raise() -> None:
    thinker = Thinker(workers=1)
    task = thinker.start()
    thinker.close()
    await asyncio.gather(task, return_exceptions=True)
    assert not thinker.ready


def _legal(game: Game, seat: int, actions: Sequence[Action]) -> bool:
    """Whether ``actions`` (a look and a bid, or one action) can be taken by ``seat`` now."""
    g = game.clone()
    for a in actions:
        if seat not in g.seats_to_act():
            return False
        g.apply(a)  # (raises on an illegal action)
    return bool(actions)


async def test_the_workers_run_at_a_lower_priority_than_the_bot() -> None:
    if not hasattr(os, "nice"):
        pytest.skip("no process priorities on this OS")
    thinker = Thinker(workers=1)
    try:
        await thinker.start()
        assert thinker.ready
        (pid,) = thinker.warm_pids
        mine = os.getpriority(os.PRIO_PROCESS, 0)
        assert thinker.worker_nice == [os.getpriority(os.PRIO_PROCESS, pid)]
        assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, mine + SEARCH_NICE)
        assert os.getpriority(os.PRIO_PROCESS, pid) > mine or mine == 19
        if sys.platform == "linux":  # and preempted by any normal task that wakes (the event loop)
            assert scheduling_class(pid) == "idle"
            assert scheduling_class(os.getpid()) != "idle"
    finally:
        thinker.close()


async def test_a_bot_that_keeps_its_priority_keeps_its_workers_at_it() -> None:
    """``nice`` 0 (a deployment that wants the search at the bot's priority): no idle class."""
    if not hasattr(os, "sched_getscheduler"):
        pytest.skip("no scheduling classes on this OS")
    thinker = Thinker(workers=1, nice=0)
    try:
        await thinker.start()
        (pid,) = thinker.warm_pids
        assert scheduling_class(pid) == scheduling_class(os.getpid())
    finally:
        thinker.close()


async def test_a_clean_stop_waits_until_the_workers_have_ended() -> None:
    """``aclose`` (the bot's clean stop) returns once every worker process is gone: none is left
    finishing a search or writing its exit (coverage data, say) after the bot has stopped."""
    thinker = Thinker(workers=1)
    await thinker.start()
    (pid,) = thinker.warm_pids
    game = Game.new("standard", seed=3)
    seat = game.seats_to_act()[0]
    searching = asyncio.ensure_future(thinker.plan(game, seat, "strong", 1, 0.5))
    await asyncio.sleep(0.05)  # (the search is under way in the worker)
    await thinker.aclose()
    assert not _alive(pid)
    assert thinker.warm_pids == set() and not thinker.ready
    with contextlib.suppress(Exception):  # (cancelled with the pool, or answered by rule)
        await searching


KILLED_BOT = """
import asyncio, os, signal, sys
from bot.table.thinker import Thinker

async def main():
    thinker = Thinker(workers=1)
    await thinker.start()
    (pid,) = thinker.warm_pids
    print(pid, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)  # killed outright: no cleanup runs

asyncio.run(main())
"""


def test_a_worker_ends_when_its_bot_is_killed() -> None:
    """A bot killed with SIGKILL (an OOM kill, ``kill -9``) leaves no search worker idling behind."""
    if not hasattr(signal, "SIGKILL"):
        pytest.skip("no SIGKILL on this OS")
    done = subprocess.run([sys.executable, "-c", KILLED_BOT], capture_output=True, text=True, timeout=60)
    assert done.returncode == -signal.SIGKILL, done.stderr
    worker = int(done.stdout.split()[0])
    end = time.monotonic() + 10
    while _alive(worker):
        assert time.monotonic() < end, f"search worker {worker} outlived its bot"
        time.sleep(0.1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # (a zombie is not running: only its parent could reap it)
    with contextlib.suppress(OSError), open(f"/proc/{pid}/stat") as f:
        return f.read().split(") ", 1)[1][0] != "Z"
    return True


def test_the_initializer_lowers_priority_where_the_os_allows(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def refused(n: int) -> int:
        calls.append(n)
        raise PermissionError("not here")

    monkeypatch.setattr(os, "nice", refused)
    lower_priority(5)  # refused by the OS: the worker keeps going at the bot's priority
    lower_priority(0)  # nothing asked: nothing done
    assert calls == [5]


def test_a_decision_that_reaches_the_worker_too_late_is_not_searched() -> None:
    game = Game.new("standard", seed=5)
    seat = game.seats_to_act()[0]
    data = game.to_dict()
    # asked 2 s ago with a budget of 1 s: nothing left to search, the worker answers at once
    actions, spent = plan_in_worker(data, seat, "strong", 5, time.time() - 2.0, 1.0)
    assert actions is None and spent < MIN_SEARCH_SECONDS
    # with time left it searches and answers with the seat's legal action(s)
    actions, spent = plan_in_worker(data, seat, "strong", 5, time.time(), 0.2, 0.05)
    assert actions is not None and spent > 0
    assert _legal(game, seat, [action_from_dict(a) for a in actions])


async def test_a_deep_queue_gives_degraded_but_legal_decisions_within_the_budget() -> None:
    """Many strong decisions at once (more than one worker can search in a budget): those the worker
    could not search in time are decided by the normal bot at once, every decision is legal, and
    none waits much past its budget."""
    thinker = Thinker(workers=1)
    budget = 0.3
    try:
        await thinker.start()
        games = [Game.new("standard", seed=s) for s in range(40)]
        for g in games[::2]:  # half of them in the card play
            bot = get_bot("normal", 1)
            while g.phase is not Phase.PLAY:
                s = g.seats_to_act()[0]
                g.apply(bot.act(g.view(s)))
        seats = [g.seats_to_act()[0] for g in games]
        pairs = list(zip(games, seats, strict=True))
        asked = (thinker.plan(g, s, "strong", i, budget) for i, (g, s) in enumerate(pairs))
        watch = Stopwatch()  # (the seconds this process waited for a CPU: a loaded machine's)
        results = await asyncio.gather(*asked)
        assert all(_legal(g, s, r) for g, s, r in zip(games, seats, results, strict=True))
        assert thinker.decisions == 40 and thinker.fallbacks == 0
        assert thinker.degraded_by["queue"] > 0  # the deep queue: the normal bot decided those
        # and some were given to the worker (whether its search ends in time depends on the
        # machine's load: a starved worker's decisions are degraded "late" or "timeout", in time)
        assert thinker.degraded_by["queue"] < 40
        assert thinker.degraded_by["queue"] + thinker.degraded_by["late"] + thinker.degraded_by[
            "timeout"
        ] == (thinker.degraded)
        assert thinker.in_flight == 0
        # each answer within its budget and the grace, plus slack and the time this process was
        # not given a CPU (on a loaded machine an answer waits for the event loop to run at all)
        assert max(thinker.durations) < budget + thinker.grace + 1.0 + watch.starved()
    finally:
        thinker.close()


async def test_a_worker_that_does_not_answer_in_time_is_not_waited_for() -> None:
    """The worker is busy (here: with a long job): the decision is the normal bot's once its budget
    and grace are over, and the pool is kept (busy is not broken)."""
    thinker = Thinker(workers=1, grace=0.1)
    try:
        await thinker.start()
        pool = thinker._pool
        assert pool is not None
        busy = pool.submit(time.sleep, 3.0)
        game = Game.new("standard", seed=7)
        seat = game.seats_to_act()[0]
        actions = await thinker.plan(game, seat, "strong", 7, 0.1)
        assert _legal(game, seat, actions)
        assert thinker.degraded_by["timeout"] == 1 and thinker.fallbacks == 0
        assert thinker.durations[-1] < 0.1 + 0.1 + 1.0
        assert thinker._pool is pool  # not reset
        busy.cancel()
    finally:
        thinker.close()


async def test_a_worker_that_never_starts_is_waited_for_once_not_at_every_turn() -> None:
    """A worker starved of CPU before it warmed up (here: busy with a long job from the start): the
    first decision waits ``start_wait`` for it, as for a process starting; while it still owes that
    one, the turns after it are the normal bot's at once, not another wait each."""
    thinker = Thinker(workers=1, grace=0.05, start_wait=0.5)
    try:
        busy = thinker._executor().submit(time.sleep, 5.0)  # (no warm-up: it is not ready)
        game = Game.new("standard", seed=7)
        seat = game.seats_to_act()[0]
        for _ in range(3):
            assert _legal(game, seat, await thinker.plan(game, seat, "strong", 7, 0.05))
        assert not thinker.ready
        assert (thinker.degraded_by["timeout"], thinker.degraded_by["queue"]) == (1, 2)
        assert thinker.outstanding == 1  # (the first one, still queued behind the long job)
        first, *later = list(thinker.durations)[-3:]
        assert first >= 0.5  # it waited for the start once
        assert all(d < 0.05 for d in later), thinker.durations  # no search, no wait
        busy.cancel()
    finally:
        thinker.close()


async def test_searches_given_up_on_still_count_as_the_workers_queue() -> None:
    """A warm worker that falls behind (here: a long job) keeps the decisions given up on: the next
    decisions see them ahead in its queue and are the normal bot's at once instead of each waiting
    its budget and grace; once the worker has caught up, decisions are searched again."""
    thinker = Thinker(workers=1, grace=0.05)
    try:
        await thinker.start()
        assert thinker.ready
        thinker.service = 0.3  # (its searches have taken this long: as measured at a busy table)
        busy = thinker._executor().submit(time.sleep, 2.0)
        game = Game.new("standard", seed=7)
        seat = game.seats_to_act()[0]
        for _ in range(3):
            assert _legal(game, seat, await thinker.plan(game, seat, "strong", 7, 0.5))
        assert thinker.degraded_by["timeout"] >= 1 and thinker.degraded_by["queue"] >= 1
        await asyncio.wrap_future(busy)
        await wait_until(lambda: thinker.outstanding == 0, "the worker to catch up")
        refused = thinker.degraded_by["queue"]
        sent = len(thinker.ready_at_decision)
        assert _legal(game, seat, await thinker.plan(game, seat, "strong", 7, 0.5))
        # sent to the worker again, not refused as queued (whether a slow machine, or coverage,
        # lets it answer within budget and grace is not this test's business)
        assert thinker.degraded_by["queue"] == refused and len(thinker.ready_at_decision) == sent + 1
    finally:
        thinker.close()


async def test_a_bots_search_gets_its_pause_in_the_clocks_real_time(storage: Storage) -> None:
    """The strong bot searches during its 1-1.5 s pause; on a clock 1000 times faster that pause is
    1-1.5 ms of real time, and so is the search's budget (not the 0.6 s cap of a real-time pause)."""
    svc = make_service(storage, speed=1000.0)
    thinker = svc.clock.thinker
    budgets: list[float] = []
    search = thinker.plan

    async def plan(game: Game, seat: int, level: str, seed: int | None, budget: float) -> list[Any]:
        budgets.append(budget)
        return await search(game, seat, level, seed, budget)

    thinker.plan = plan  # type: ignore[method-assign]
    try:
        t = await open_table(svc, options={"max_hands": 1}, play_seconds=15, bid_seconds=15)
        assert (await svc.lifecycle.start(t.id, ALICE, fill=True)).ok
        await wait_until(lambda: t.id not in svc.tables or t.status == "finished", "the one-hand game")
        assert len(budgets) >= 39  # the three bots' bids and cards, at least
        assert all(1.0 / 1000 <= b <= 1.5 / 1000 for b in budgets), sorted(budgets)[-3:]
    finally:
        await svc.close()


async def test_a_hand_review_runs_in_a_worker_while_the_loop_stays_free() -> None:
    record = json.loads(
        (Path(__file__).resolve().parents[3] / "docs/examples/standard-hand.json").read_text()
    )
    # (nice 0: the review's worker at this process's priority, so a machine saturated by other
    # work still gives it a share; an idle-class worker could wait behind that work indefinitely)
    thinker = Thinker(workers=1, nice=0)
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    ticker = asyncio.create_task(tick())
    try:
        started = time.perf_counter()
        review = await thinker.review(record, 2, seed=1, search=0.02)
        spent = time.perf_counter() - started
        assert review is not None and review.seat == 2 and review.plays_reviewed == 13
        assert review.bid.player.to_json() == 3  # type: ignore[union-attr]
        # the loop went on ticking all along (the search held neither it nor the GIL; a search in
        # this process would leave it next to no ticks; a loaded machine delays each tick a little)
        assert ticks >= 0.05 * spent / 0.01
        assert thinker.reviewing == 0
        assert thinker._pool is None  # (the review has its own worker process)
        # the tables' bots have their worker to themselves meanwhile: a decision is searched
        # one review at a time: a second one while it runs is refused
        await thinker.start()  # (the tables' worker, warmed as at the bot's start)
        first = asyncio.create_task(thinker.review(record, 0, seed=1, search=0.1))
        await asyncio.sleep(0)
        assert thinker.reviewing == 1
        game = Game.new("standard", seed=3)
        assert await thinker.plan(game, game.seats_to_act()[0], "strong", 3, 0.3)
        assert thinker.reviewing == 1  # (still reviewing: the decision did not wait for it)
        # sent to the tables' own warm worker, not queued or failed (a saturated machine may still
        # let it run out of time there: "timeout", the machine's doing, not the review's)
        assert thinker.fallbacks == 0 and thinker.degraded_by["queue"] == 0
        review_pids = set(getattr(thinker._review_pool, "_processes", {}))
        assert review_pids and not review_pids & thinker.warm_pids  # two processes, not one shared
        assert await thinker.review(record, 1, seed=1) is None
        assert await first is not None
        # a record that does not replay: the engine's refusal, raised here
        broken = {**record, "plays": record["plays"][1:]}
        with pytest.raises(RecordError):
            await thinker.review(broken, 0, seed=1)
        # too slow for its timeout: None, not an error, and its worker is ended
        pool = thinker._review_pool
        assert pool is not None
        processes = list(getattr(pool, "_processes", {}).values())
        assert await thinker.review(record, 3, seed=1, search=0.05, timeout=0.001) is None
        assert thinker._review_pool is None
        await wait_until(lambda: not any(p.is_alive() for p in processes), "the review worker ended")
        assert await thinker.review(record, 3, seed=1, search=0.02) is not None  # a new worker
    finally:
        ticker.cancel()
        thinker.close()
    assert thinker._review_pool is None
