"""A move is saved before it is answered, a stale click is refused, and the table's lock keeps two
clicks from both counting: the tests the mutation run over the bot's persistence found missing
(docs/TESTING.md, "Mutation testing")."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.config import Faults
from bot.model import MOVED_ON, Table
from bot.storage import Claim, Storage
from bot.table.play import apply_action
from bot.table.service import TableService
from tests.bot.table.factories import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    ERIN,
    make_service,
    wait_until,
)


@pytest.fixture
async def service(storage: Storage) -> AsyncIterator[TableService]:
    svc = make_service(storage)
    try:
        yield svc
    finally:
        await svc.close()


async def _dealt(
    service: TableService, *, show_cards_to: tuple[int, ...] = (), channel: int = CHANNEL
) -> Table:
    """Four people at a table, the game started (long timers: no timeout plays for them);
    ``show_cards_to``: players whose settings turn their cards up at every deal."""
    for uid in show_cards_to:
        await service.players.set(uid, no_blind_nil=True)
    res = await service.lifecycle.create(
        guild_id=1000, channel_id=channel, host_id=ALICE, host_name="alice", play_seconds=600, bid_seconds=600
    )
    assert res.ok and res.table is not None, res.message
    for uid, name in ((BOB, "bob"), (CAROL, "carol"), (DAVE, "dave")):
        assert (await service.seating.join(channel, uid, name)).ok
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
    assert not res.ok and res.code == "moved_on" and res.message == MOVED_ON
    row = await service.store.storage.tables.get(t.id)
    assert row is not None and row.data["stamp"] == t.stamp + 1  # one move saved: the clock's
    game = service.tables[t.id].game
    assert game is not None and game.view(seat).bids[seat] is not None
    assert str(game.view(seat).bids[seat]) == "2"


async def test_a_busy_table_does_not_hold_up_another_table(service: TableService) -> None:
    """Each table has its own lock: while one table is busy, a move at another goes through."""
    busy = await _dealt(service)
    other = await _dealt(service, channel=CHANNEL + 1)
    _seat, user = _to_act(other)
    async with service.store.lock(busy.id):
        res = await asyncio.wait_for(service.play.act(other.id, user, "bid", "3"), timeout=30)
    assert res.ok and res.message == "You bid 3."


async def test_a_click_at_an_abandoned_table_is_refused_and_saves_nothing(service: TableService) -> None:
    t = await _dealt(service)
    _seat, user = _to_act(t)
    assert (await service.lifecycle.abandon(CHANNEL, ALICE, confirmed=True, table_id=t.id)).ok
    row = await service.store.storage.tables.get(t.id)
    assert row is not None and row.status == "abandoned"
    res = await service.play.act(t.id, user, "bid", "3")
    assert not res.ok and res.code == "game_over"
    again = await service.store.storage.tables.get(t.id)
    assert again is not None and again.data["game"] == row.data["game"]
    assert again.data["stamp"] == row.data["stamp"]


async def test_a_player_who_bids_out_of_turn_is_told_whose_turn_it_is(service: TableService) -> None:
    t = await _dealt(service)
    seat, user = _to_act(t)
    other = t.seats[(seat + 1) % t.num_seats]
    assert other is not None and other.user_id is not None and other.user_id != user
    before = await service.store.storage.tables.get(t.id)
    res = await service.play.act(t.id, other.user_id, "bid", "3")
    assert not res.ok and res.code == "not_your_turn"
    assert res.message == f"It's <@{user}>'s turn, not yours."
    after = await service.store.storage.tables.get(t.id)
    assert before is not None and after is not None and after.data == before.data


async def test_a_move_is_answered_after_it_is_saved_with_the_saved_table_and_the_hand(
    service: TableService,
) -> None:
    """A typed bid is answered with the table as saved (the answer finds the table by it) and
    with the player's hand (``show_hand``: the panel the bot shows next)."""
    t = await _dealt(service)
    _seat, user = _to_act(t)
    res = await service.play.act(t.id, user, "bid", "3")
    assert res.ok and res.message == "You bid 3." and res.show_hand
    row = await service.store.storage.tables.get(t.id)
    assert row is not None and res.table is not None
    assert res.table.id == t.id and res.table.stamp == row.data["stamp"] == t.stamp + 1


async def test_a_bid_of_0_is_answered_as_the_nil_it_is_saved_as(service: TableService) -> None:
    t = await _dealt(service)
    seat, user = _to_act(t)
    res = await service.play.act(t.id, user, "bid", "0")
    assert res.ok and res.message == "You bid Nil."
    game = service.tables[t.id].game
    assert game is not None and str(game.view(seat).bids[seat]) == "nil"


async def test_a_click_on_an_old_panel_redraws_the_hand_instead_of_warning(service: TableService) -> None:
    """A stale panel (the hand moved on) and a panel of someone whose turn it is not are answered
    with the current hand (``show_hand``); a typed command out of turn with words only."""
    t = await _dealt(service)
    seat, user = _to_act(t)
    me = t.seats[seat]
    assert me is not None
    res = await service.play.act(t.id, user, "bid", "3", stamp=me.acts - 1)
    assert not res.ok and res.code == "moved_on" and res.show_hand
    nxt = t.seats[(seat + 1) % t.num_seats]
    assert nxt is not None and nxt.user_id is not None
    res = await service.play.act(t.id, nxt.user_id, "bid", "3", stamp=nxt.acts)
    assert not res.ok and res.code == "not_your_turn" and res.show_hand
    assert res.message == f"It's <@{user}>'s turn, not yours."
    res = await service.play.act(t.id, nxt.user_id, "bid", "3")
    assert not res.ok and res.code == "not_your_turn" and not res.show_hand
    assert res.message == f"It's <@{user}>'s turn, not yours."
    row = await service.store.storage.tables.get(t.id)
    assert row is not None and row.data["stamp"] == t.stamp  # nothing saved


async def test_moves_the_game_refuses_are_answered_in_words_and_save_nothing(service: TableService) -> None:
    t = await _dealt(service)
    seat, user = _to_act(t)
    nxt = t.seats[(seat + 1) % t.num_seats]
    assert nxt is not None and nxt.user_id is not None
    answers = {
        (user, "play", "5"): "You can't play a card now: it's time to bid.",
        # out of turn and out of phase: the phase is what is wrong with it
        (nxt.user_id, "play", "5"): "You can't play a card now: it's time to bid.",
        (user, "bid", "99"): "Bids go from 0 (nil) to 13.",
        (user, "bid", "lots"): '"lots" is not a bid; bid a number of tricks (like 4), nil, blind nil or a '
        "blind number (like blind 6)",
    }
    codes = {
        (user, "play", "5"): "wrong_phase",
        (nxt.user_id, "play", "5"): "wrong_phase",
        (user, "bid", "99"): "bid_range",
        (user, "bid", "lots"): "not_a_bid",
    }
    for (who, action, arg), expected in answers.items():
        res = await service.play.act(t.id, who, action, arg)
        assert not res.ok and res.message == expected, (action, arg, res.message)
        # the engine's reason is the code, its fields the answer's
        assert res.code == codes[(who, action, arg)], (action, arg, res.code)
    assert res.fields["why"] == "unknown" and res.fields["text"] == "lots"
    row = await service.store.storage.tables.get(t.id)
    assert row is not None and row.data["stamp"] == t.stamp


async def test_a_player_back_from_being_away_is_saved_as_present(service: TableService) -> None:
    """The turn clock marked the player away after timeouts; their own move brings them back, and
    that is saved with the move (a restart does not mark them away again)."""
    t = await _dealt(service)
    seat, user = _to_act(t)
    new = t.copy()
    away = new.seats[seat]
    assert away is not None
    away.away, away.left, away.timeouts = True, True, 1
    async with service.store.lock(t.id):
        assert await service.store.commit(t, new) is None
    assert (await service.play.act(t.id, user, "bid", "3")).ok
    row = await service.store.storage.tables.get(t.id)
    assert row is not None
    saved = row.data["seats"][seat]
    assert (saved["away"], saved["left"], saved["timeouts"]) == (False, False, 0)


async def test_a_hand_the_players_finish_is_saved_with_its_record(service: TableService) -> None:
    """The last card of a hand, played by a person, stores the hand's record with the table."""
    t = await _dealt(service)
    storage = service.store.storage
    while True:
        live = service.tables[t.id]
        assert live.game is not None
        if live.game.phase.name not in ("BID", "PLAY"):
            break
        seat, user = _to_act(live)
        if live.game.phase.name == "BID":
            res = await service.play.act(t.id, user, "bid", "3")
        else:
            res = await service.play.act(t.id, user, "play", live.game.legal_cards(seat)[0])
        assert res.ok, res.message
        game = service.tables[t.id].game
        if game is not None and game.hand_records:
            break  # the hand is over (in memory)
    assert await storage.history.hand_count(t.id, service.tables[t.id].game_no) == 1
    records = await storage.games.hand_records(t.id)
    assert len(records) == 1 and records[0] == service.tables[t.id].game.hand_records[-1]  # type: ignore[union-attr]
    stored = await storage.history.table_hand(
        t.id, 1, 1
    )  # what /history shows of it: the engine's replay too
    assert stored is not None and stored.record == records[0] and stored.result is not None
    for uid in (ALICE, BOB, CAROL, DAVE):  # and it counts in each player's /stats
        mine = await storage.stats.player(1000, uid)
        assert mine is not None and mine.hands == 1, uid


async def _play_until_turn_of(service: TableService, t: Table, user: int) -> Table:
    """Everyone else moves (bids 3, plays their first legal card) until it is ``user``'s turn."""
    while True:
        live = service.tables[t.id]
        seat, who = _to_act(live)
        if who == user:
            return live
        assert live.game is not None
        if live.game.phase.name == "BID":
            res = await service.play.act(t.id, who, "bid", "3")
        else:
            res = await service.play.act(t.id, who, "play", live.game.legal_cards(seat)[0])
        assert res.ok, res.message


async def test_a_panel_from_before_a_players_last_move_is_refused(service: TableService) -> None:
    """Every move gives the player's panels a new stamp: a panel drawn between two of their moves
    is old after the second one, and a click on it is answered with the current hand."""
    t = await _dealt(service)
    seat, user = _to_act(t)
    assert (await service.play.act(t.id, user, "bid", "3")).ok
    between = service.tables[t.id].seats[seat].acts  # type: ignore[union-attr]
    live = await _play_until_turn_of(service, t, user)
    assert live.game is not None and live.game.phase.name == "PLAY"
    assert (await service.play.act(t.id, user, "play", live.game.legal_cards(seat)[0], stamp=between)).ok
    live = await _play_until_turn_of(service, t, user)
    assert live.game is not None
    stamp = live.stamp
    res = await service.play.act(t.id, user, "play", live.game.legal_cards(seat)[0], stamp=between)
    assert not res.ok and res.code == "moved_on" and res.show_hand
    row = await service.store.storage.tables.get(t.id)
    assert row is not None and row.data["stamp"] == stamp


async def test_cards_turned_up_at_the_deal_make_that_players_old_panels_old(service: TableService) -> None:
    """A player whose settings turn their cards up when a hand is dealt gets a new panel stamp with
    the deal (what their panel shows changed); the others' stamps are untouched."""
    t = await _dealt(service, show_cards_to=(BOB,))
    bob = next(s for s in t.seats if s is not None and s.user_id == BOB)
    carol = next(s for s in t.seats if s is not None and s.user_id == CAROL)
    assert t.game is not None and t.game.has_looked(t.seats.index(bob))
    assert not t.game.has_looked(t.seats.index(carol))
    _seat, user = _to_act(t)
    assert user not in (BOB, CAROL)  # (the deal's seed: neither is first to bid)
    res = await service.play.act(t.id, BOB, "bid", "3", stamp=0)  # a panel from before the deal
    assert not res.ok and res.code == "moved_on" and res.show_hand
    res = await service.play.act(t.id, CAROL, "bid", "3", stamp=0)  # her panel is current
    assert not res.ok and res.code == "not_your_turn" and res.fields["names"] == f"<@{user}>"


def _errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_failing_database_refuses_the_move_and_the_log_names_the_table(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """FAULT_SAVE_ERROR (the product's fault seam): ``storage`` fails every save as a broken disk
    would (the move is refused, nothing is saved, the log names the table and the error);
    ``unexpected`` as a bug would (the error reaches the interaction's handler)."""
    storage = await Storage.open(tmp_path / "spades.db")
    faults = Faults()
    service = make_service(storage, faults=faults)
    try:
        t = await _dealt(service)
        _seat, user = _to_act(t)
        faults.save_error = "storage"
        caplog.clear()
        res = await service.play.act(t.id, user, "bid", "3")
        assert not res.ok and res.code == "save_failed"
        (failed,) = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert failed.getMessage() == f"saving table {t.id} failed"
        assert failed.exc_info is not None
        assert str(failed.exc_info[1]) == "disk I/O error (injected: FAULT_SAVE_ERROR=storage)"
        faults.save_error = "unexpected"
        with pytest.raises(RuntimeError, match=r"^injected fault \(FAULT_SAVE_ERROR=unexpected\)$"):
            await service.play.act(t.id, user, "bid", "3")
        row = await storage.tables.get(t.id)
        assert row is not None and row.data["stamp"] == t.stamp  # neither was saved
        faults.save_error = None
        assert (await service.play.act(t.id, user, "bid", "3")).ok
    finally:
        await service.close()
        await storage.close()


async def test_a_table_changed_by_another_process_is_logged_reloaded_and_redrawn(
    service: TableService, caplog: pytest.LogCaptureFixture
) -> None:
    t = await _dealt(service)
    _seat, user = _to_act(t)
    storage = service.store.storage
    other = await storage.tables.get(t.id)
    assert other is not None
    await storage.tables.save(other)  # another process saved the table in between
    caplog.clear()
    caplog.set_level(logging.INFO)
    res = await service.play.act(t.id, user, "bid", "3")
    assert not res.ok and res.message == "The table changed while you clicked; please try again."
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert f"table {t.id} changed under us; reloading" in warnings
    assert service.tables[t.id].row.version == other.version  # type: ignore[union-attr]
    await wait_until(lambda: service.posts.idle(t.id), "the reloaded table to be redrawn")
    assert _errors(caplog) == []  # (a listener that failed on the reloaded table would log here)


async def test_a_move_saves_the_next_players_deadline_and_logs_no_error(
    service: TableService, caplog: pytest.LogCaptureFixture
) -> None:
    """The saved table carries when the next player times out (a restarted bot keeps it), and the
    listeners (posts, the live message, panels, the clock) take the move without an error."""
    caplog.set_level(logging.INFO)
    t = await _dealt(service)
    started = [r.getMessage() for r in caplog.records if r.name == "bot.table.store"]
    assert f"table {t.id} is playing" in started
    _seat, user = _to_act(t)
    before = service.time.now()
    assert (await service.play.act(t.id, user, "bid", "3")).ok
    row = await service.store.storage.tables.get(t.id)
    assert row is not None
    # bid_seconds=600 on the service's clock from the move (the dealt table's ran from the deal)
    assert t.deadline is not None and row.data["deadline"] > t.deadline
    assert before + 600 <= row.data["deadline"] <= service.time.now() + 600
    await wait_until(lambda: service.posts.idle(t.id), "the move to be posted")
    assert _errors(caplog) == []


async def test_a_new_host_is_saved_and_keeps_the_table_after_a_restart(storage: Storage) -> None:
    first = make_service(storage)
    try:
        res = await first.lifecycle.create(
            guild_id=1000, channel_id=CHANNEL, host_id=ALICE, host_name="alice"
        )
        assert res.ok and res.table is not None
        tid = res.table.id
        for uid, name in ((BOB, "bob"), (CAROL, "carol"), (DAVE, "dave")):
            assert (await first.seating.join(CHANNEL, uid, name)).ok
        assert (await first.seating.leave(CHANNEL, ALICE)).ok  # the table passes to bob
        await wait_until(lambda: first.posts.idle(tid), "the live message")
    finally:
        await first.close()
    second = make_service(storage)
    try:
        assert await second.restore() == 1
        assert (await second.seating.join(CHANNEL, ERIN, "erin")).ok
        res = await second.lifecycle.start(tid, BOB)
        assert res.ok, res.message
    finally:
        await second.close()


async def test_a_process_that_lost_the_tables_shard_answers_moving_and_lets_the_table_go(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """This process stalled past its shard's lease and another took the shard over: a move here is
    refused (nothing written), the player is told the table is moving, and this process forgets
    the table (its new owner runs it)."""
    path = tmp_path / "spades.db"
    mine = await Storage.open(path)
    mine.shards.claim = Claim("A", 1)
    assert await mine.shards.acquire("A", 1, (0,), ttl=0.5) == {0}
    other = await Storage.open(path)
    other.shards.claim = Claim("B", 1)
    service = make_service(mine)
    try:
        t = await _dealt(service)
        _seat, user = _to_act(t)
        before = await mine.tables.get(t.id)

        async def taken_over() -> bool:
            return await other.shards.acquire("B", 1, (0,), ttl=30) == {0}

        while not await taken_over():  # the lease runs out (half a second), then B takes it
            await asyncio.sleep(0.1)
        caplog.clear()
        res = await service.play.act(t.id, user, "bid", "3")
        assert not res.ok and res.code == "moving"
        assert res.message == (
            "This table is being handed over to another of the bot's processes right now; "
            "please try again in a few seconds."
        )
        assert service.store.get(t.id) is None  # let go: the new owner runs it
        warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
        assert (
            f"table {t.id}: table {t.id} is on shard 0, which this process does not hold; letting it go"
        ) in warnings
        after = await other.tables.get(t.id)
        assert before is not None and after is not None and after.data == before.data
    finally:
        await service.close()
        await other.close()
        await mine.close()
