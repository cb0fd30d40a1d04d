"""League nights end to end through the fake Discord and its clock.

The bot is the real SpadesBot with its real cogs and SQLite file; the league scheduler reads the
fake Discord's clock (the world's time), and the tests move that clock forward to reach check-in,
the start, a round's time limit and the next week. Everything happens through slash commands,
button clicks and what the bot posts.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.league.schedule_input import parse_zone
from fakediscord import Message
from tests.e2e.harness import Spades, said
from tests.e2e.leagues import (
    LEAGUE,
    advance,
    advance_to,
    ask,
    checkin_posts,
    create,
    first_start,
    posts_with,
    running,
    stored_leagues,
    stored_night,
    the_one_table,
)

LEASE = 3.0  # the shard test: renewed every second


async def test_create_refusals_and_the_scheduled_event(spades: Spades) -> None:
    alice = spades.users["alice"]
    async with running(spades), stored_leagues(spades) as store:
        # every bad input gets its own ephemeral answer and writes nothing
        assert "Manage Server" in await create(spades, alice)
        assert "not an IANA time zone" in await create(spades, timezone="New York")
        assert "1 to 52 weeks" in await create(spades, weeks=0)
        assert "in the past" in await create(spades, first_date="2020-01-02")
        assert "partnerships" in await create(spades, format="solo")
        assert await store.rosters.leagues(spades.guild.id) == []
        assert spades.guild.scheduled_events == {}
        choices = await spades.fake.autocomplete(alice, spades.channel, "league create", "timezone", "new_y")
        assert choices[0]["value"] == "America/New_York"

        text = await create(spades)
        assert f"**{LEAGUE}** is set" in text and "Thursdays at 20:00 America/New_York" in text
        (event,) = spades.guild.scheduled_events.values()
        assert event.data["name"] == f"{LEAGUE}: night 1"
        start = datetime.fromisoformat(event.data["scheduled_start_time"])
        assert start.astimezone(parse_zone("America/New_York")).hour == 20
        assert "second league" not in text
        assert "already meets in this channel" in await create(spades, name="Other", time="20:30")
        assert "already has a league called" in await create(spades, name=LEAGUE.lower(), time="10am")
        # a schedule change moves the event; ending the season cancels it
        assert "Saved" in await ask(spades, spades.users["admin"], "league edit", league=LEAGUE, time="21:00")
        (event,) = spades.guild.scheduled_events.values()
        moved = datetime.fromisoformat(event.data["scheduled_start_time"])
        assert moved - start == timedelta(hours=1)
        assert "Only server managers" in await ask(spades, alice, "league end", league=LEAGUE)
        assert "season 1 is over" in await ask(spades, spades.users["admin"], "league end", league=LEAGUE)
        assert event.data["status"] == 4  # cancelled
    assert spades.fake.take_violations() == []


async def test_signup_and_check_in_by_button(spades: Spades) -> None:
    admin, alice, bob = spades.users["admin"], spades.users["alice"], spades.users["bob"]
    async with running(spades):
        await create(spades)
        assert "signed up" in await ask(spades, alice, "league signup", league=LEAGUE)
        assert "already signed up" in await ask(spades, alice, "league signup", league=LEAGUE)
        assert "no league called" in await ask(spades, alice, "league signup", league="Nope")
        advance_to(spades, await first_start(spades) - timedelta(minutes=30))
        await spades.wait_for(lambda: bool(checkin_posts(spades)), what="the check-in post")
        (post,) = checkin_posts(spades)
        assert "night 1" in post.content
        r = await spades.fake.click(alice, post, label="Check in")
        assert "checked in" in await said(r)
        r = await spades.fake.click(alice, post, label="Check in")
        assert "already checked in" in await said(r)
        r = await spades.fake.click(bob, post, label="Check in")  # not signed up: signs up on the way
        assert "checked in" in await said(r)
        r = await spades.fake.click(admin, post, label="Can't make it")
        assert "not signed up" in await said(r)
        await spades.wait_for(lambda: "Checked in (2)" in post.content, what="the check-in list")
        me = await ask(spades, alice, "league me", league=LEAGUE)
        assert "signed up" in me and "checked in" in me
    assert spades.fake.take_violations() == []


@pytest.mark.both_backends
async def test_a_league_night_end_to_end(spades: Spades) -> None:
    """Nine players, five-handed solo: two tables and one bot seat; two short rounds played by the
    bots for the absent humans; a restart in the middle of round 2; the next night after the US DST
    change starts by itself at 20:00 New York time."""
    admin = spades.users["admin"]
    players = [spades.fake.add_user(f"player{i}") for i in range(9)]
    ny = parse_zone("America/New_York")
    async with running(spades, speed=200):
        text = await create(
            spades, format="solo", preset="five-player", rounds=2, round_minutes=30, target=50, hand_limit=1,
            leftover="bot", first_date="2027-03-11", weeks=3, late_minutes=0, bid_seconds=15, play_seconds=15,
        )  # fmt: skip
        assert "is set" in text, text
        # the bots play every absent human's seat here: the no-show rule (test_league_attendance.py) off
        off = await ask(spades, admin, "league admin attendance", league=LEAGUE, no_show="off")
        assert "Saved" in off, off
        for p in players:
            assert "signed up" in await ask(spades, p, "league signup", league=LEAGUE)
        (event,) = spades.guild.scheduled_events.values()
        assert event.data["scheduled_start_time"].startswith("2027-03-12T01:00:00")  # 20:00 EST
        first = datetime(2027, 3, 12, 1, 0, tzinfo=UTC)
        advance_to(spades, first - timedelta(minutes=30))
        await spades.wait_for(lambda: bool(checkin_posts(spades)), what="the check-in post")
        (post,) = checkin_posts(spades)
        for p in players:
            r = await spades.fake.click(p, post, label="Check in")
            assert "checked in" in await said(r)
        r = await spades.fake.click(players[0], post, label="Check in")
        assert "already checked in" in await said(r)
        advance_to(spades, first + timedelta(seconds=1))
        await spades.wait_for(lambda: bool(posts_with(spades, "round 1 of 2")), what="round 1's seating")
        r = await spades.fake.click(admin, post, label="Check in") if post.buttons else None
        if r is not None:
            assert "closed" in await said(r)
        night = await stored_night(spades, 1)
        async with stored_leagues(spades) as store:
            r1 = await store.rounds.round_tables(night.id, 1)
        assert len(r1) == 2 and sorted(len(t.players) for t in r1) == [4, 5]
        assert sorted(p for t in r1 for p in t.players) == sorted(p.id for p in players)
        threads = {t.channel_id for t in r1}
        assert len(threads) == 2 and spades.channel.id not in threads  # a thread per table
        # the seating post and each thread's "your table is ready" ping exactly the seated players
        (seating,) = posts_with(spades, "round 1 of 2")
        assert set(seating.pinged) == {p.id for p in players}
        for t in r1:
            thread = spades.guild.channels[t.channel_id]

            def ready(thread: Any = thread) -> list[Message]:
                return [m for m in spades.fake.public_messages(thread) if "your table is ready" in m.content]

            await spades.wait_for(lambda: bool(ready()), what="the table's call")
            assert set(ready()[0].pinged) == set(t.players)
        # the night's event is active from its start
        await spades.wait_for(lambda: event.data["status"] == 2, what="the night's event active")
        await spades.wait_for(lambda: bool(posts_with(spades, "round 1 results")), timeout=90, what="round 1")
        await spades.wait_for(lambda: bool(posts_with(spades, "round 2 of 2")), what="round 2's seating")
    # the bot restarts in the middle of round 2
    async with running(spades, speed=200):
        await spades.wait_for(lambda: bool(posts_with(spades, "night 1 results")), timeout=90, what="night 1")
        await spades.wait_for(lambda: bool(posts_with(spades, "season 1 standings")), what="the standings")
        assert len(posts_with(spades, "round 1 of 2")) == 1 and len(posts_with(spades, "round 2 of 2")) == 1
        assert len(posts_with(spades, "round 2 results")) == 1
        standings = posts_with(spades, "season 1 standings")[0].content
        assert all(f"<@{p.id}>" in standings for p in players)

        # the event moved to night 2, after the DST change: 20:00 EDT is 00:00 UTC
        def event_start() -> datetime | None:
            live = [e for e in spades.guild.scheduled_events.values() if e.data["status"] == 1]
            assert len(live) <= 1, "one scheduled event per league"
            return datetime.fromisoformat(live[0].data["scheduled_start_time"]) if live else None

        start2 = datetime(2027, 3, 19, 0, 0, tzinfo=UTC)
        await spades.wait_for(lambda: event_start() == start2, what="night 2's event")
        assert event.data["status"] == 3  # night 1's event completed; night 2 has a fresh one
        assert len(spades.guild.scheduled_events) == 2
        assert start2.astimezone(ny).hour == 20
        # next week's night starts by itself
        advance_to(spades, start2 - timedelta(minutes=30))
        await spades.wait_for(lambda: len(checkin_posts(spades)) == 2, what="night 2's check-in post")
        post2 = checkin_posts(spades)[-1]
        assert "night 2" in post2.content
        for p in players[:5]:
            await said(await spades.fake.click(p, post2, label="Check in"))
        advance_to(spades, start2 + timedelta(seconds=1))
        await spades.wait_for(
            lambda: bool(posts_with(spades, "night 2, round 1 of 2")), what="night 2 seating"
        )
        r = await ask(spades, players[0], "league me", league=LEAGUE)
        assert "Rank" in r and "nights 1/1" in r
        # the bots played every human's seat tonight: no game was rated for anybody
        async with stored_leagues(spades) as store:
            assert await store.ratings.get(spades.guild.id) == {}
        assert "0 rated games" in r
    assert spades.fake.take_violations() == []


async def test_time_is_called_on_a_round_that_runs_long(spades: Spades) -> None:
    """A round's time limit with ``time_call:as_it_stands``: unfinished games are stopped and scored as
    they stand; the post says so."""
    players = [spades.fake.add_user(f"late{i}") for i in range(4)]
    async with running(spades):
        assert "is set" in await create(
            spades,
            rounds=1,
            round_minutes=5,
            target=500,
            weeks=2,
            time_call="as_it_stands",
            bid_seconds=15,
            play_seconds=15,
        )
        first = await first_start(spades)
        advance_to(spades, first - timedelta(minutes=30))
        await spades.wait_for(lambda: bool(checkin_posts(spades)), what="the check-in post")
        post = checkin_posts(spades)[0]
        for p in players:
            await said(await spades.fake.click(p, post, label="Check in"))
        night, table = await the_one_table(spades, first)
        # an admin substitutes a player mid-game: the newcomer takes the seat at the live table
        sub = spades.fake.add_user("subby")
        leaving = spades.fake.users[table.players[0]]
        said_sub = await ask(
            spades, spades.users["admin"], "league admin sub", league=LEAGUE, out=leaving, player=sub,
            reason="had to leave",
        )  # fmt: skip
        assert "now plays for" in said_sub, said_sub
        seated = {s["user_id"] for s in (await spades.stored_table(table.table_id)).data["seats"] if s}
        assert sub.id in seated and leaving.id not in seated  # as stored (saved before the answer)
        assert "had to leave" in await ask(spades, sub, "league history", league=LEAGUE)
        advance(spades, minutes=6)
        # the night's one round: its results are posted once, as the night's, and say time was called
        await spades.wait_for(lambda: bool(posts_with(spades, "night 1 results")), what="the night's results")
        assert "(time called: scored as it stood)" in posts_with(spades, "night 1 results")[0].content
        assert not posts_with(spades, "round 1 results")
        assert (await spades.stored_table(table.table_id)).status == "abandoned"
        async with stored_leagues(spades) as store:
            results = await store.rounds.night_results(night.id)
        assert len(results) == 1 and not results[0].complete
    assert spades.fake.take_violations() == []


async def test_only_the_process_holding_the_guilds_shard_runs_its_league_nights(
    spades: Spades, caplog: pytest.LogCaptureFixture
) -> None:
    """A process that lost the guild's shard to another process posts no check-in for it; once it
    takes the shard back, the night it skipped opens (one process per night, never two).

    The other process is played by editing the lease table on a connection of the test's own; the
    bot notices on its own renewal timer (every ``LEASE / 3`` s), which its log says."""
    caplog.set_level(logging.INFO)

    def said_in_log(text: str) -> bool:
        return any(text in r.getMessage() for r in caplog.records)

    async with running(spades, shard_lease_seconds=LEASE), spades.stored() as other:
        await create(spades)
        first = await first_start(spades)
        (mine,) = await other.shards.leases()  # this process holds the one shard
        async with other.backend.transaction() as tx:  # another process takes the shard
            await tx.execute(
                "UPDATE shard_leases SET owner = 'thief', expires_at = expires_at + 3600000"
                " WHERE shard_id = 0"
            )
        await spades.wait_for(lambda: said_in_log("lost shard(s) [0]"), what="the loss noticed")
        advance_to(spades, first - timedelta(minutes=30))
        await asyncio.sleep(2.0)  # the scheduler looks every 0.6 s at this time scale
        assert checkin_posts(spades) == []
        async with other.backend.transaction() as tx:  # the other process stops
            await tx.execute("DELETE FROM shard_leases WHERE owner = 'thief'")
        await spades.wait_for(lambda: said_in_log("took over shard(s) [0]"), what="the shard taken back")
        assert [(x.shard_id, x.owner) for x in await other.shards.leases()] == [(0, mine.owner)]
        await spades.wait_for(lambda: bool(checkin_posts(spades)), what="the check-in post")
        assert len(checkin_posts(spades)) == 1


async def test_time_called_plays_the_hand_in_progress_out(spades: Spades) -> None:
    """The default time call: every table is told its hand in progress is the last, plays it out
    (an overtime hand on a tie), and its real result counts; league tables open with the league's
    house rules and turn timers."""
    players = [spades.fake.add_user(f"tc{i}") for i in range(4)]
    async with running(spades):
        answer = await create(
            spades, rounds=1, round_minutes=5, weeks=2, rules="set_limit=2", bid_seconds=40, play_seconds=20
        )
        assert "is set" in answer and "set 2 times loses" in answer and "20 s to play, 40 s to bid" in answer
        first = await first_start(spades)
        advance_to(spades, first - timedelta(minutes=30))
        await spades.wait_for(lambda: bool(checkin_posts(spades)), what="the check-in post")
        post = checkin_posts(spades)[0]
        for p in players:
            await said(await spades.fake.click(p, post, label="Check in"))
        night, table = await the_one_table(spades, first)
        stored = await spades.stored_table(table.table_id)
        assert stored.data["settings"]["play_seconds"] == 20 and stored.data["settings"]["bid_seconds"] == 40
        advance(spades, minutes=6)
        where = spades.guild.channels[table.channel_id]  # the table's thread

        def last_hand() -> bool:
            return any("last hand" in m.content for m in spades.fake.public_messages(where))

        await spades.wait_for(last_hand, what="the last-hand notice")
        # the hand is played out by the bots after the absent players' turn timers: a hand's worth
        await spades.wait_for(
            lambda: bool(posts_with(spades, "night 1 results")), timeout=60, what="the night's results"
        )
        assert "as it stood" not in posts_with(spades, "night 1 results")[0].content
        assert (await spades.stored_table(table.table_id)).status == "finished"
        async with stored_leagues(spades) as store:
            results = await store.rounds.night_results(night.id)
        assert len(results) == 1 and results[0].complete
    assert spades.fake.take_violations() == []
