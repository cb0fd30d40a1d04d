"""TableService unit tests: real Storage on a temp SQLite file, a recording publisher instead of
Discord. The end-to-end behaviour through the fake Discord lives in tests/e2e/."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import engine
from bot import render
from bot.model import MOVED_ON, Seat, Table, humans_to_act
from bot.storage import Storage
from bot.table.service import TableService
from bot.views import hand_panel
from engine.bots import get_bot
from tests.bot.table.factories import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    ERIN,
    GUILD,
    Post,
    RecordingPublisher,
    make_service,
    open_table,
    wait_until,
)


@pytest.fixture
async def service(storage: Storage) -> AsyncIterator[TableService]:
    svc = make_service(storage)
    yield svc
    await svc.close()


# ---- seating ------------------------------------------------------------------------------------


async def test_create_persists_an_open_table_with_the_host_seated(
    service: TableService, storage: Storage
) -> None:
    t = await open_table(service)
    row = await storage.tables.live_in(CHANNEL)
    assert row is not None and row.id == t.id and row.status == "open"
    restored = Table.from_row(row)
    assert restored.seats[0] == Seat(ALICE, "alice")
    assert restored.seats[1:] == [None, None, None]
    assert restored.settings["play_seconds"] == 60 and restored.settings["bid_seconds"] == 90


async def test_second_table_in_a_channel_is_refused(service: TableService) -> None:
    t = await open_table(service)
    res = await service.lifecycle.create(guild_id=GUILD, channel_id=CHANNEL, host_id=BOB, host_name="bob")
    assert not res.ok and res.code == "channel_busy" and res.fields == {"table": t.id}
    assert res.message == (
        f"This channel already has a live table (table {t.id}). Join it, or finish or "
        "abandon it first (`/spades abandon`)."
    )


async def test_unknown_preset_and_bad_timers_are_refused(service: TableService) -> None:
    res = await service.lifecycle.create(
        guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, host_name="a", preset="nope"
    )
    assert not res.ok and res.code == "unknown_preset" and res.fields["name"] == "`nope`"
    assert "nope" in res.message and "standard" in res.message
    assert res.message.startswith("`nope` is not a preset. Presets: standard, ")
    res = await service.lifecycle.create(
        guild_id=GUILD, channel_id=CHANNEL + 1, host_id=ALICE, host_name="a", preset="Classic Online"
    )
    assert res.ok and res.table is not None and res.table.ruleset.name == "classic-online"
    res = await service.lifecycle.create(
        guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, host_name="a", play_seconds=5
    )
    assert not res.ok and res.code == "timer_range" and res.fields == {"min": 15, "max": 600, "asked": 5}
    assert res.message == "Turn timers must be between 15 and 600 seconds (you asked for 5)."


async def test_join_fills_seats_then_table_full(service: TableService) -> None:
    await open_table(service)
    for uid, name in ((BOB, "bob"), (CAROL, "carol"), (DAVE, "dave")):
        res = await service.seating.join(CHANNEL, uid, name)
        assert res.ok, res.message
    res = await service.seating.join(CHANNEL, ERIN, "erin")
    assert not res.ok and res.code == "table_full" and res.fields == {"n": 4}
    res = await service.seating.join(CHANNEL, BOB, "bob")
    assert not res.ok and res.code == "already_seated" and res.fields == {"n": 2}


async def test_join_by_team_puts_partners_opposite(service: TableService) -> None:
    t = await open_table(service)
    res = await service.seating.join(CHANNEL, BOB, "bob", team=1)
    assert res.ok
    t = service.tables[t.id]
    assert t.seat_of(BOB) == 2  # partner of seat 0
    assert "partner: <@11>" in res.message
    res = await service.seating.join(CHANNEL, CAROL, "carol", team=1)
    assert not res.ok and res.code == "team_full" and res.fields["team"] == 1


async def test_only_the_host_starts_and_empty_seats_are_offered_to_bots(service: TableService) -> None:
    t = await open_table(service)
    await service.seating.join(CHANNEL, BOB, "bob")
    res = await service.lifecycle.start(t.id, BOB)
    assert not res.ok and res.code == "host_only" and res.fields == {"host": "<@11>"}
    res = await service.lifecycle.start(t.id, ALICE)
    assert not res.ok and res.code == "seats_empty" and res.offer is not None and res.offer.kind == "fill"
    assert res.message.startswith("2 seats are empty (3, 4).")
    res = await service.seating.add_bot(CHANNEL, BOB)
    assert not res.ok and res.code == "host_only" and res.fields == {"host": "<@11>"}
    assert res.message == "Only the host (<@11>) can add bots."


async def test_host_leaving_hands_the_table_over(service: TableService) -> None:
    t = await open_table(service)
    await service.seating.join(CHANNEL, BOB, "bob")
    res = await service.seating.leave(CHANNEL, ALICE)
    assert res.ok
    assert service.tables[t.id].host_id == BOB
    res = await service.seating.leave(CHANNEL, CAROL)
    assert not res.ok and res.code == "not_seated"


async def test_actions_without_a_table_or_seat_are_refused(service: TableService) -> None:
    res = await service.play.act(None, ALICE, "play", 0, channel_id=CHANNEL)
    assert not res.ok and res.code == "no_table"
    await open_table(service)
    res = await service.play.act(None, BOB, "play", 0, channel_id=CHANNEL)
    assert not res.ok and res.code == "not_playing"
    res = await service.play.act(None, ALICE, "play", 0, channel_id=CHANNEL)
    assert not res.ok and res.code == "not_started"
    assert res.message == "The game hasn't started yet: the host presses **Start**."


async def test_live_message_is_posted_once_and_edited(service: TableService) -> None:
    t = await open_table(service)
    pub: RecordingPublisher = service.publisher  # type: ignore[assignment]
    for uid, name in ((BOB, "bob"), (CAROL, "carol")):
        await service.seating.join(CHANNEL, uid, name)
    await wait_until(lambda: service.posts.idle(t.id), "the live message to be posted and edited")
    t = service.tables[t.id]
    assert t.message_id is not None
    live = [m for m in pub.order if m not in pub.deleted]
    assert live == [t.message_id]
    assert "<@13>" in pub.posts[t.message_id].content


def test_moved_on_text() -> None:
    assert MOVED_ON == "This hand has moved on: here is your current hand."


async def _four_humans(service: TableService) -> Table:
    t = await open_table(service, play_seconds=600, bid_seconds=600)
    for uid, name in ((BOB, "bob"), (CAROL, "carol"), (DAVE, "dave")):
        await service.seating.join(CHANNEL, uid, name)
    res = await service.lifecycle.start(t.id, ALICE)
    assert res.ok, res.message
    return service.tables[t.id]


async def test_a_failed_save_changes_nothing_and_is_not_acknowledged(
    service: TableService, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    t = await _four_humans(service)
    assert t.game is not None
    seat = t.game.to_act
    assert seat is not None
    user = t.seats[seat].user_id  # type: ignore[union-attr]
    before, stamp = t.game.to_dict(), t.stamp

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("disk full")

    monkeypatch.setattr(storage.tables, "save", broken)
    res = await service.play.act(t.id, user, "bid", "3")
    assert not res.ok and res.code == "save_failed"
    t = service.tables[t.id]
    assert t.game is not None and t.game.to_dict() == before and t.stamp == stamp
    monkeypatch.undo()
    res = await service.play.act(t.id, user, "bid", "3")
    assert res.ok and res.message == "You bid 3."
    row = await storage.tables.get(t.id)
    assert row is not None and row.data["stamp"] == stamp + 1  # persisted before acknowledged


async def test_a_concurrent_writer_is_detected(service: TableService, storage: Storage) -> None:
    t = await _four_humans(service)
    assert t.game is not None and t.row is not None
    seat = t.game.to_act
    user = t.seats[seat].user_id  # type: ignore[index, union-attr]
    # let the live message be posted (it saves its message id)
    await wait_until(lambda: service.posts.idle(t.id), "the live message to be posted")
    other = await storage.tables.get(t.id)
    assert other is not None
    await storage.tables.save(other)  # another process saved the table in between
    res = await service.play.act(t.id, user, "bid", "3")
    assert not res.ok and res.code == "changed_meanwhile"
    res = await service.play.act(t.id, user, "bid", "3")  # reloaded: the retry goes through
    assert res.ok


async def test_concurrent_actions_on_one_table_count_once(service: TableService) -> None:
    t = await _four_humans(service)
    assert t.game is not None
    seat = t.game.to_act
    user = t.seats[seat].user_id  # type: ignore[index, union-attr]
    stamp = t.seats[seat].acts  # type: ignore[index, union-attr]
    results = await asyncio.gather(*(service.play.act(t.id, user, "bid", "4", stamp=stamp) for _ in range(5)))
    assert sum(r.ok for r in results) == 1
    assert all(r.code == "moved_on" and r.message == MOVED_ON for r in results if not r.ok)
    g = service.tables[t.id].game
    assert g is not None and [b for b in g.view(seat).bids if b is not None] == [g.view(seat).bids[seat]]


async def test_restore_brings_back_the_same_tables(storage: Storage) -> None:
    first = make_service(storage)
    t = await _four_humans(first)
    await first.close()
    second = make_service(storage)
    try:
        assert await second.restore() == 1
        again = second.in_channel(CHANNEL)
        assert again is not None and again.id == t.id and again.stamp == t.stamp
        assert again.game is not None and t.game is not None and again.game.to_dict() == t.game.to_dict()
        assert [s.user_id if s else None for s in again.seats] == [ALICE, BOB, CAROL, DAVE]
    finally:
        await second.close()


async def test_live_message_edits_are_coalesced(storage: Storage) -> None:
    svc = make_service(storage, speed=1.0)  # real pacing: at most ~1 edit per second
    try:
        t = await open_table(svc)
        pub: RecordingPublisher = svc.publisher  # type: ignore[assignment]
        await wait_until(lambda: svc.posts.idle(t.id), "the first post")
        assert len(pub.order) == 1  # the first post
        burst_end = time.monotonic() + 1.2
        while time.monotonic() < burst_end:  # a burst of changes, as bots playing quickly would cause
            svc.posts.render_soon(t.id)
            await asyncio.sleep(0.02)
        await wait_until(lambda: svc.posts.idle(t.id), "the burst to be drawn")
        post = pub.posts[pub.order[0]]
        assert 1 <= len(post.edits) <= 3
        gaps = [b - a for a, b in zip(post.edited_at, post.edited_at[1:], strict=False)]
        assert all(g >= 1.1 for g in gaps), gaps  # never faster than one edit per EDIT_INTERVAL
    finally:
        await svc.close()


PANEL_ACTIONS = {
    "Look": "look",
    "BidAction": "bid",
    "PlayAction": "play",
    "PassAction": "pass",
    "DrawAction": "draw",
    "MisdealAction": "misdeal",
}


@pytest.mark.parametrize("preset", [*sorted(engine.PRESETS), "cutthroat+jokers"])
async def test_every_preset_plays_a_hand_through_the_service(storage: Storage, preset: str) -> None:
    """One human (acting as the heuristic bot would) and bots play a whole hand of every preset; the
    hand panel stays within Discord's limits at every step."""
    svc = make_service(storage, speed=1000.0)
    try:
        name, _, extra = preset.partition("+")
        options = {"jokers": True} if extra == "jokers" else None  # 18-card hands
        t = await open_table(svc, preset=name, options=options, play_seconds=600, bid_seconds=600)
        assert (await svc.lifecycle.start(t.id, ALICE, fill=True)).ok
        table_id = t.id

        def alice_or_done() -> bool:
            cur = svc.tables[table_id]
            assert cur.game is not None
            humans = [cur.seats[s].user_id for s in humans_to_act(cur)]  # type: ignore[union-attr]
            return cur.status != "playing" or bool(cur.game.hand_records) or ALICE in humans

        while True:  # until the hand is over: each turn of Alice's, or the bots', in turn
            await wait_until(alice_or_done, f"Alice's turn or the end of the {preset} hand", timeout=60)
            t = svc.tables[t.id]
            assert t.game is not None
            if t.status != "playing" or t.game.hand_records:
                break
            content, view = hand_panel(svc.get(t.id), ALICE)
            assert len(content) <= 2000
            if view is not None:  # discord.py itself refuses a sixth row or a sixth button in a row
                assert len(view.children) <= 25
                assert all(len(getattr(i, "custom_id", "")) <= 100 for i in view.children)
            action = get_bot("heuristic", 1).act(t.game.view(t.seat_of(ALICE)))  # type: ignore[arg-type]
            kind = PANEL_ACTIONS[type(action).__name__]
            arg = {
                "bid": getattr(action, "bid", None),
                "play": getattr(action, "card", None),
                "pass": getattr(action, "cards", None),
                "draw": getattr(action, "keep", None),
            }.get(kind)
            if kind == "bid" and action.bid.kind == "blind_nil":  # type: ignore[attr-defined]
                kind = "blind"
            res = await svc.play.act(t.id, ALICE, kind, arg)
            assert res.ok, res.message
            assert len(render.table_message(svc.tables[t.id])) <= 2000
        t = svc.tables[t.id]
        assert t.game is not None and len(t.game.hand_records) >= 1, "the hand did not finish"
    finally:
        await svc.close()


async def test_whatever_a_player_types_is_answered_and_changes_nothing(storage: Storage) -> None:
    """Typed bids and cards go through the engine's parsers: junk is refused, never raised, and a
    refused bid or card leaves the table as it was. The inputs are built to reach both parsers'
    successes (cards and bids that parse but are not allowed now), not only their refusals.
    (Turn timers at real time: 600 s, not the suite's 6 s, which a loaded machine can reach while
    the inputs are tried, and the bot would then bid for the seat.)"""
    service = make_service(storage, speed=1.0)
    try:
        await _whatever_a_player_types(service)
    finally:
        await service.close()


async def _whatever_a_player_types(service: TableService) -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    t = await _four_humans(service)
    assert t.game is not None
    ranks = ["A", "K", "Q", "J", "10", "T", "9", "5", "2", "1", "11", "0", "x", ""]
    suits = ["S", "h", "D", "c", "♠", "♥", "♦", "♣", "", "Z", "spades"]
    card_like = st.builds(
        lambda r, s, pad: f"{pad}{r}{s}{pad}",
        st.sampled_from(ranks),
        st.sampled_from(suits),
        st.sampled_from(["", " ", "  "]),
    )
    bid_like = st.builds(
        lambda w, n: f"{w}{n}",
        st.sampled_from(["", "blind ", "b", "nil", "-", " "]),
        st.sampled_from(["", "0", "3", "13", "14", "99"]),
    )
    texts: list[str] = []

    @settings(
        max_examples=120,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        database=None,
        derandomize=True,
    )
    @given(st.one_of(card_like, bid_like, st.text(max_size=12)))
    def collect(text: str) -> None:
        texts.append(text)

    collect()
    fixed = ["99", "-1", "blind 99", "nil nil", "♠♠", "10", "AS AS", "0", "AS", "2C", "10♥", "qd", "BJ", "LJ"]
    reached = {"card_refused": 0, "bid_refused": 0}

    async def try_all(seat: int) -> None:
        g0 = service.tables[t.id].game
        assert g0 is not None
        snapshot = g0.to_dict()
        user = t.seats[seat].user_id  # type: ignore[union-attr]
        for text in [*texts, *fixed]:
            try:
                card = engine.parse_card(text)
            except ValueError:
                card = None
            if card is not None and not service.tables[t.id].game.clone().legal_mask(seat) >> card & 1:  # type: ignore[union-attr]
                res = await service.play.act(t.id, user, "play", card)
                assert not res.ok and res.message, text
                reached["card_refused"] += 1
            try:
                bid = engine.Bid.parse(text)
            except ValueError:
                bid = None
            if bid is not None:
                try:
                    service.tables[t.id].game.clone().bid(seat, bid)  # type: ignore[union-attr]
                    bid = None  # a legal bid ("0" is nil, say) would count: keep the table as it is
                except engine.IllegalAction:
                    pass
            if bid is not None:
                res = await service.play.act(t.id, user, "bid", bid)
                assert not res.ok and res.message, text
                reached["bid_refused"] += 1
            g = service.tables[t.id].game
            assert g is not None and g.to_dict() == snapshot, text

    # while bidding: every card is refused (it is not time to play), and bids out of range
    seat = t.game.to_act
    assert seat is not None
    await try_all(seat)
    assert reached["card_refused"] >= 20 and reached["bid_refused"] >= 10, reached
    # while playing: cards not held, or not following suit, are refused; every bid is refused
    while service.tables[t.id].game.phase.name == "BID":  # type: ignore[union-attr]
        g = service.tables[t.id].game
        assert g is not None and g.to_act is not None
        res = await service.play.act(t.id, t.seats[g.to_act].user_id, "bid", "3")  # type: ignore[union-attr]
        assert res.ok, res.message
    g = service.tables[t.id].game
    assert g is not None and g.phase.name == "PLAY" and g.to_act is not None
    leader = g.to_act
    res = await service.play.act(t.id, t.seats[leader].user_id, "play", g.legal_cards(leader)[0])  # type: ignore[union-attr]
    assert res.ok, res.message  # a trick is led: the next seat must follow suit if it can
    before = dict(reached)
    g = service.tables[t.id].game
    assert g is not None and g.to_act is not None
    await try_all(g.to_act)
    assert reached["card_refused"] - before["card_refused"] >= 10, reached


def test_house_rules_round_trip_and_suggestions_fit_discord() -> None:
    from engine.house_rules import (
        HouseRulesError,
        format_rules,
        parse_house_rules,
        rule_kinds,
        rules_suggestions,
    )

    text = "bag_limit=off lose_score=−200 ten_for_200=yes whiz=0 Target_Score=300"
    options = parse_house_rules(text)
    assert options == {
        "bag_limit": None,
        "lose_score": -200,
        "ten_for_200": True,
        "whiz": False,
        "target_score": 300,
    }
    assert parse_house_rules(format_rules(options)) == options
    for bad in ("bag_limit=", "x=1", "ten_for_200", "target_score=1e3"):
        with pytest.raises(HouseRulesError):
            parse_house_rules(bad)
    # every option name is offered somewhere, values fit in 100 characters, at most 25 at a time
    offered = {v.split("=")[0] for k in rule_kinds() for _, v in rules_suggestions(k[:4])}
    assert offered == set(rule_kinds())
    long = " ".join(["bag_limit=5"] * 7)  # 83 characters typed already
    found = rules_suggestions(long + " ")
    assert found and all(len(v) <= 100 and len(n) <= 100 for n, v in found)
    assert f"{long} ten_for_200=" in [v for _, v in found]
    assert not any("blind_nil_min_deficit" in v for _, v in found)  # would pass 100 characters


# ---- memory: closed tables leave the service ------------------------------------------------------


async def test_finished_tables_leave_memory_and_old_posts_still_work(storage: Storage) -> None:
    """Alice times out twice (marked away: the bots play on), the one-hand game ends and the table
    leaves memory; its Score sheet, Rematch and stale hand panels then read it from storage."""
    svc = make_service(storage, speed=1000.0)
    svc.evict_grace = 0.0
    try:
        finished: list[int] = []
        for _ in range(3):
            t = await open_table(svc, options={"max_hands": 1}, play_seconds=15, bid_seconds=15)
            assert (await svc.lifecycle.start(t.id, ALICE, fill=True)).ok
            # (a hand of bot turns: each waits on a search worker at idle priority, which a machine
            # at load 20 starves; the rule bot answers after the budget, so this ends, slowly)
            await wait_until(lambda t=t: t.id not in svc.tables, f"table {t.id} to finish", timeout=90)
            finished.append(t.id)
        assert svc.tables == {} and svc.by_channel == {}
        assert not any(svc.holds(tid) for tid in finished)
        rows = [await storage.tables.get(tid) for tid in finished]
        assert [r.status if r else None for r in rows] == ["finished"] * 3
        for r in rows:  # marked away at her second missed turn (not a third): the bots played on
            assert r is not None
            (alice,) = [s for s in r.data["seats"] if s and s["user_id"] == ALICE]
            assert alice["away"] and alice["timeouts"] == 2, alice
        # the last game's post: its score sheet, /score in the channel, a stale card click
        last = await svc.load(finished[-1])
        assert last is not None and last.game is not None and last.status == "finished"
        assert svc.tables == {}  # loading does not bring it back into memory
        sheet = render.score_sheet(last)
        lines = sheet.splitlines()
        assert lines[0] == f"**Score sheet · table {last.id}**" and len(lines) == 3  # the one hand
        shown = await svc.last_in_channel(CHANNEL)
        assert shown is not None and shown.id == finished[-1]
        res = await svc.play.act(finished[-1], ALICE, "play", 0, stamp=0)
        assert not res.ok and res.code == "game_over"
        assert res.message == "This game is over. Open a new table with `/spades new`."
        # the stale panel is redrawn as just that answer (no cards, no buttons)
        assert hand_panel(svc.get(finished[-1]), ALICE, f"⚠️ {res.message}") == (f"⚠️ {res.message}", None)
        res = await svc.seating.back(finished[0], ALICE)
        assert not res.ok and res.code == "game_over"
        # Rematch on the evicted game: a new live table with the same seats, once
        res = await svc.lifecycle.rematch(finished[-1], ALICE, "alice")
        assert res.ok and res.table is not None, res.message
        again = res.table
        assert [s.name if s else None for s in again.seats] == [s.name if s else None for s in last.seats]
        res = await svc.lifecycle.rematch(finished[-1], ALICE, "alice")
        assert not res.ok and res.code == "rematch_open" and res.fields == {"table": again.id}
        assert not svc.holds(finished[-1])
    finally:
        await svc.close()


# ---- the seams other features build on: seating a table, hearing when games end ----------------


async def test_open_seated_deals_a_table_another_feature_has_seated(storage: Storage) -> None:
    """A league night seats its players in its own thread: the table starts at once, empty seats get
    bots, nothing of the guild's defaults applies, and a second table in that thread is refused."""
    svc = make_service(storage)
    thread = 9000
    try:
        rs = engine.Ruleset.preset("standard", target_score=300)
        seats = [Seat(ALICE, "alice"), None, Seat(BOB, "bob"), None]
        res = await svc.lifecycle.open_seated(
            guild_id=GUILD, channel_id=thread, host_id=ALICE, seats=seats, ruleset=rs
        )
        assert res.ok and res.table is not None, res.message
        t = svc.in_channel(thread)
        assert t is not None and t.id == res.table.id and t.status == "playing" and t.game is not None
        assert [s.user_id if s else None for s in t.seats] == [ALICE, None, BOB, None]
        assert [s.bot if s else None for s in t.seats] == [False, True, False, True]
        assert t.ruleset.target_score == 300
        row = await storage.tables.get(t.id)
        assert row is not None and row.status == "playing" and row.channel_id == thread
        again = await svc.lifecycle.open_seated(
            guild_id=GUILD, channel_id=thread, host_id=BOB, seats=seats, ruleset=rs
        )
        assert not again.ok and again.code == "channel_busy"
        wrong = await svc.lifecycle.open_seated(
            guild_id=GUILD, channel_id=thread + 1, host_id=BOB, seats=seats[:3], ruleset=rs
        )
        assert not wrong.ok and wrong.code == "seats_mismatch" and wrong.fields == {"n": 4, "given": 3}
        assert wrong.message == "This ruleset seats 4 players, not 3."
    finally:
        await svc.close()


async def test_listeners_hear_every_hand_and_the_game_after_they_are_saved(storage: Storage) -> None:
    """Subscribers get each scored hand and the finished game, after storage has them; one that
    raises is logged and changes nothing for the table or the other subscribers."""
    svc = make_service(storage, speed=1000.0)
    hands: list[tuple[int, int]] = []
    games: list[Any] = []

    def broken(table: Table, game: Any) -> None:
        raise RuntimeError("a league bug")

    svc.on_game_finished(broken)
    svc.on_hand_finished(lambda table, hand: hands.append((table.id, hand.hand_no)))
    svc.on_game_finished(lambda table, game: games.append((table.status, game)))
    try:
        bots = [Seat(None, n, bot=True) for n in ("Bea", "Ray", "Kit", "Max")]
        rs = engine.Ruleset.preset("standard", max_hands=2)
        res = await svc.lifecycle.open_seated(
            guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, seats=bots, ruleset=rs
        )
        assert res.ok and res.table is not None
        tid = res.table.id
        await wait_until(lambda: bool(games), "the game to finish")
        assert hands == [(tid, 1), (tid, 2)]
        ((status, game),) = games
        assert status == "finished" and game.table_id == tid and game.hands == 2
        row = await storage.tables.get(tid)
        assert row is not None and row.status == "finished"
        assert len(await storage.games.hand_records(tid)) == 2
        game_id = await storage.history.game_id_of(tid, 1)  # saved with the table: /replay finds it
        assert game_id is not None
        summary = await storage.history.game(game_id)
        assert summary is not None and summary.hands == 2
    finally:
        await svc.close()


async def test_a_failing_publisher_does_not_stop_the_turn_clock(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The publisher and the clock hear each saved change separately: a bug drawing the panels
    is logged, and the bots still play the game to its end."""
    svc = make_service(storage, speed=1000.0)

    def broken(table: Table, actor: int | None) -> None:
        raise RuntimeError("a panel bug")

    monkeypatch.setattr(svc.posts.panels, "changed", broken)
    games: list[Any] = []
    svc.on_game_finished(lambda table, game: games.append(game))
    try:
        bots = [Seat(None, n, bot=True) for n in ("Bea", "Ray", "Kit", "Max")]
        rs = engine.Ruleset.preset("standard", max_hands=1)
        res = await svc.lifecycle.open_seated(
            guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, seats=bots, ruleset=rs
        )
        assert res.ok and res.table is not None
        await wait_until(lambda: bool(games), "the bots to finish the game")
        row = await storage.tables.get(res.table.id)
        assert row is not None and row.status == "finished"
    finally:
        await svc.close()


async def test_a_player_is_marked_away_after_exactly_two_timeouts_in_a_row(storage: Storage) -> None:
    """The first missed turn's reminder is edited to say the bot played; the second marks the seat
    away (the bot plays on until **I'm back**) and its reminder says so; an away seat gets no more
    reminders. As the channel and the stored seat show."""
    svc = make_service(storage, speed=1000.0)
    pub: RecordingPublisher = svc.publisher  # type: ignore[assignment]
    try:
        t = await open_table(svc, play_seconds=15, bid_seconds=15)
        assert (await svc.lifecycle.start(t.id, ALICE, fill=True)).ok

        def reminders() -> list[Post]:  # (the posts that ping her)
            return [pub.posts[m] for m in pub.order if pub.posts[m].mention == ALICE]

        await wait_until(lambda: sum(bool(p.edits) for p in reminders()) >= 2, "two missed turns")
        first, second = reminders()[:2]
        assert len(first.edits) == len(second.edits) == 1  # each edited once, never posted again
        assert re.fullmatch(rf"⏰ <@{ALICE}>: the bot played for you at <t:\d+:t>\.", first.content)
        assert second.content == (
            f"💤 <@{ALICE}> missed two turns in a row and is marked away; the bot plays "
            "for them until they press **I'm back**."
        )
        assert not any(x.startswith("⏱") for x in pub.texts())  # the reminder said it: no post of its own
        row = await storage.tables.get(t.id)
        assert row is not None
        seat = Table.from_row(row).seats[0]
        assert seat is not None and seat.user_id == ALICE and seat.away

        # marked once: later turns are played for the away seat with no reminder and no note
        def hand_over() -> bool:
            cur = svc.tables.get(t.id)
            return cur is None or cur.game is None or bool(cur.game.hand_records)

        await wait_until(hand_over, "the hand to end")
        assert len(reminders()) == 2
        assert [p for p in pub.posts.values() if p.content.startswith("💤")] == [second]
    finally:
        await svc.close()


async def test_huge_house_rule_numbers_are_refused_where_they_are_typed(
    service: TableService, storage: Storage
) -> None:
    """The value that used to stop a game for good at its first save (issue 8 item 4)."""
    res = await service.lifecycle.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=ALICE,
        host_name="alice",
        rules="bag_value=9223372036854775808 bag_limit=off",
    )
    assert not res.ok and res.code == "out_of_range" and res.fields["name"] == "bag_value"
    assert res.message == ("`bag_value=9223372036…` is out of range: it must be from −100 to 100.")
    assert await storage.tables.live_in(CHANNEL) is None  # nothing opened
    res = await service.lifecycle.create(
        guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, host_name="alice", rules="=5"
    )
    assert not res.ok and res.code == "no_name" and res.message.startswith("`=5` names no rule")


async def test_stored_server_defaults_are_checked_again_when_used(
    service: TableService, storage: Storage
) -> None:
    """A default stored before ranges existed is refused with who can fix it, not saved into a game."""
    await storage.settings.set_guild(GUILD, options={"nil_value": 10**20})
    res = await service.lifecycle.create(guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, host_name="alice")
    assert not res.ok and res.code == "server_rules_broken"
    assert res.fields["rules_code"] == "out_of_range" and res.fields["name"] == "nil_value"
    assert res.message.startswith(
        "This server's default house rules can't be used: `nil_value=1000000000…` is out of range"
    )
    assert "/spades config rules:" in res.message
    assert await storage.tables.live_in(CHANNEL) is None
    # a preset named for the table leaves the server's house rules aside, so the table opens
    res = await service.lifecycle.create(
        guild_id=GUILD, channel_id=CHANNEL, host_id=ALICE, host_name="alice", preset="standard"
    )
    assert res.ok, res.message


async def test_a_damaged_settings_row_falls_back_to_the_defaults_and_is_logged(
    service: TableService, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The server's settings row is damaged on disk (written by something else): /spades new still
    opens a standard table, and the log names the server."""
    import sqlite3

    raw = sqlite3.connect(tmp_path / "spades.db")
    try:
        raw.execute(
            "INSERT INTO guild_settings (guild_id, data, updated_at) VALUES (?, ?, ?)",
            (GUILD, "{not json", 0),
        )
        raw.commit()
    finally:
        raw.close()
    t = await open_table(service)
    assert t.ruleset.name == "standard" and t.settings["play_seconds"] == 60
    assert any(
        rec.getMessage() == f"reading settings of guild {GUILD} failed" and rec.exc_info
        for rec in caplog.records
    )
