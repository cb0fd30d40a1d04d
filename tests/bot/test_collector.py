"""bot/collector.py: the full garbage collection on a timer, the start-up heap frozen."""

from __future__ import annotations

import asyncio
import gc
import weakref
from pathlib import Path

from bot.collector import NEVER, Collector
from bot.config import Config


class Node:
    def __init__(self) -> None:
        self.me = self  # a reference cycle: only the cyclic collector frees it


async def test_start_freezes_and_stops_automatic_full_collections_close_gives_them_back() -> None:
    before = gc.get_threshold()
    collector = Collector(60.0)
    collector.start()
    try:
        assert collector.active
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (before[0], before[1], NEVER)
    finally:
        collector.close()
    assert not collector.active
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


async def test_a_cycle_in_the_oldest_generation_waits_for_the_timer() -> None:
    collector = Collector(0.3)
    collector.start()
    try:
        node = Node()
        gone = weakref.ref(node)
        gc.collect(1)  # survives the young collections: now in the oldest generation
        del node
        for _ in range(3):
            gc.collect(1)  # young collections only: the automatic ones never reach it
        assert gone() is not None
        for _ in range(40):
            await asyncio.sleep(0.05)
            if gone() is None:
                break
        assert gone() is None
        assert collector.full_collections >= 1
    finally:
        collector.close()


async def test_zero_leaves_pythons_own_policy() -> None:
    before = gc.get_threshold()
    collector = Collector(0)
    collector.start()
    assert not collector.active
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
    collector.close()


def test_the_timer_is_a_setting(tmp_path: Path) -> None:
    absent = tmp_path / "absent.env"
    assert Config.from_env({"DISCORD_TOKEN": "x"}, dotenv_path=absent).gc_full_seconds == 60.0
    config = Config.from_env({"DISCORD_TOKEN": "x", "GC_FULL_SECONDS": "0"}, dotenv_path=absent)
    assert config.gc_full_seconds == 0.0


async def test_a_released_panel_view_is_freed_without_the_cyclic_collector() -> None:
    """What ``bot.safe._edit_by_token`` does with a view once it is in the request: the view and its
    items point at each other, so a dropped view waited for the collector's full pauses."""
    import engine
    from bot.model import Seat, Table
    from bot.safe import release
    from bot.views import hand_panel

    rs = engine.Ruleset.preset("standard")
    seats: list[Seat | None] = [Seat(10 + i, f"p{i}") for i in range(rs.num_seats)]
    table = Table(
        id=7,
        guild_id=1,
        channel_id=2,
        host_id=10,
        status="playing",
        ruleset=rs,
        preset="standard",
        seats=seats,
        settings={"play_seconds": 60, "bid_seconds": 90},
    )
    table.game = engine.Game.new(rs, seed=3)
    seat = table.game.seats_to_act()[0]

    gc.collect()
    gc.disable()
    try:
        for released, cycles in ((False, True), (True, False)):
            _, view = hand_panel(table, 10 + seat)
            assert view is not None and view.children
            probe = weakref.ref(view)
            if released:
                release(view)
            del view
            assert (probe() is not None) == cycles  # unreleased: alive until a collection
            gc.collect()
    finally:
        gc.enable()
