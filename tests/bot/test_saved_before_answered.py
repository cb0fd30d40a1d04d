"""A move is saved before it is answered, a stale click is refused, and the table's lock keeps two
clicks from both counting: the tests the mutation run over the bot's persistence found missing
(docs/TESTING.md, "Mutation testing")."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.model import MOVED_ON, Table
from bot.storage import Storage
from bot.table.play import apply_action
from bot.table.service import TableService
from tests.bot.test_tables import ALICE, BOB, CAROL, CHANNEL, DAVE, make_service, wait_until


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    storage = await Storage.open(tmp_path / "spades.db")
    svc = make_service(storage)
    try:
        yield svc
    finally:
        await svc.close()
        await storage.close()


async def _dealt(service: TableService) -> Table:
    """Four people at a table, the game started (long timers: no timeout plays for them)."""
    res = await service.lifecycle.create(guild_id=1000, channel_id=CHANNEL, host_id=ALICE,
                                         host_name="alice", play_seconds=600, bid_seconds=600)
    assert res.ok and res.table is not None, res.message
    for uid, name in ((BOB, "bob"), (CAROL, "carol"), (DAVE, "dave")):
        assert (await service.seating.join(CHANNEL, uid, name)).ok
    tid = res.table.id
    assert (await service.lifecycle.start(tid, ALICE)).ok
    # the live message posted (its id saved): nothing else writes the table until someone acts
    await wait_until(lambda: service.posts.idle(tid), "the live message to be posted")
    return service.tables[tid]


def _to_act(t: Table) -> tuple[int, int]:
    """The seat whose turn it is and its player."""
    assert t.game is not None and t.game.to_act is not None
    seat = t.game.to_act
    player = t.seats[seat]
    assert player is not None and player.user_id is not None
    return seat, player.user_id


async def test_a_click_waits_for_the_tables_lock_and_then_sees_the_hand_moved_on(
    service: TableService,
) -> None:
    """While the table is busy (the turn clock bidding for a player who ran out of time holds its
    lock), the player's own click waits; then it sees that its turn was played and counts nothing."""
    t = await _dealt(service)
    seat, user = _to_act(t)
    me = t.seats[seat]
    assert me is not None
    stamp = me.acts
    store = service.store
    async with store.lock(t.id):
        click = asyncio.create_task(service.play.act(t.id, user, "bid", "4", stamp=stamp))
        await asyncio.sleep(0)  # the click runs up to the lock
        # the clock's move for the seat, through the one write path, under the lock
        new = t.copy()
        assert new.game is not None
        events = apply_action(new.game, seat, "bid", "2")
        assert await store.commit(t, new, events=events, touched=[seat]) is None
    res = await click
    assert not res.ok and res.message == MOVED_ON
    row = await service.store.storage.get_table(t.id)
    assert row is not None and row.data["stamp"] == t.stamp + 1  # one move saved: the clock's
    game = service.tables[t.id].game
    assert game is not None and game.view(seat).bids[seat] is not None
    assert str(game.view(seat).bids[seat]) == "2"


async def test_a_click_at_an_abandoned_table_is_refused_and_saves_nothing(service: TableService) -> None:
    t = await _dealt(service)
    _seat, user = _to_act(t)
    assert (await service.lifecycle.abandon(CHANNEL, ALICE, confirmed=True, table_id=t.id)).ok
    row = await service.store.storage.get_table(t.id)
    assert row is not None and row.status == "abandoned"
    res = await service.play.act(t.id, user, "bid", "3")
    assert not res.ok
    assert res.message == "This game is over."
    again = await service.store.storage.get_table(t.id)
    assert again is not None and again.data["game"] == row.data["game"]
    assert again.data["stamp"] == row.data["stamp"]


async def test_a_player_who_bids_out_of_turn_is_told_whose_turn_it_is(service: TableService) -> None:
    t = await _dealt(service)
    seat, user = _to_act(t)
    other = t.seats[(seat + 1) % t.num_seats]
    assert other is not None and other.user_id is not None and other.user_id != user
    before = await service.store.storage.get_table(t.id)
    res = await service.play.act(t.id, other.user_id, "bid", "3")
    assert not res.ok
    assert res.message == f"It's <@{user}>'s turn, not yours."
    after = await service.store.storage.get_table(t.id)
    assert before is not None and after is not None and after.data == before.data
