"""The strong bots' worker pool starts when the bot starts, before any bot decision needs it."""

from __future__ import annotations

import asyncio

from bot.table.thinker import Thinker
from engine import Game


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
        assert thinker.ready_at_decision == [True] and len(thinker.ready_durations) == 1
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
        assert thinker.ready_at_decision == [False]
    finally:
        thinker.close()


async def test_close_while_starting_does_not_raise() -> None:
    thinker = Thinker(workers=1)
    task = thinker.start()
    thinker.close()
    await asyncio.gather(task, return_exceptions=True)
    assert not thinker.ready
