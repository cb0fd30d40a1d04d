"""League attendance end to end through the fake Discord, on SQLite and PostgreSQL: a no-show (the
bot played the seat) earns no points and is not seated again; a check-out during the night, and a
standby taking the seat with the "Take this seat" button."""

from __future__ import annotations

from datetime import timedelta

import pytest

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

pytestmark = pytest.mark.both_backends


async def test_no_shows_earn_no_points_and_are_not_seated_again(spades: Spades) -> None:
    """Nobody plays: a minute into round 1 every seated player is a no-show, the bots finish the
    one-hand game, nobody earns league points and round 2 seats nobody."""
    admin = spades.users["admin"]
    players = [spades.fake.add_user(f"absent{i}") for i in range(4)]
    async with running(spades):
        assert "is set" in await create(spades, rounds=2, round_minutes=20, target=50, hand_limit=1, weeks=2)
        said_rule = await ask(spades, admin, "league admin attendance", league=LEAGUE, miss_minutes=1)
        assert "first 1 min of a round" in said_rule, said_rule
        first = await first_start(spades)
        advance_to(spades, first - timedelta(minutes=30))
        await spades.wait_for(lambda: bool(checkin_posts(spades)), what="the check-in post")
        (post,) = checkin_posts(spades)
        for p in players:
            assert "checked in" in await said(await spades.fake.click(p, post, label="Check in"))
        advance_to(spades, first + timedelta(seconds=1))
        await spades.wait_for(lambda: bool(posts_with(spades, "round 1 of 2")), what="round 1's seating")
        advance(spades, minutes=1.5)
        await spades.wait_for(lambda: bool(posts_with(spades, "night 1 results")), timeout=60, what="night 1")
        await spades.wait_for(lambda: bool(posts_with(spades, "season 1 standings")), what="the standings")
        assert posts_with(spades, "round 2 of 2") == []  # nobody is seated again
        standings = posts_with(spades, "season 1 standings")[0].content
        for p in players:
            line = next(line for line in standings.splitlines() if f"<@{p.id}>" in line)
            assert "**0** pts" in line and "1 no-show" in line, line
        night = await stored_night(spades, 1)
        async with stored_leagues(spades) as store:
            assert sorted(await store.attendance.absences(night.id)) == sorted(p.id for p in players)
        counts = await ask(spades, admin, "league admin noshows", league=LEAGUE)
        assert all(f"<@{p.id}>: 1 no-show" in counts for p in players), counts
        assert "Only server managers" in await ask(spades, players[0], "league admin noshows", league=LEAGUE)
    assert spades.fake.take_violations() == []


async def test_a_check_out_and_a_standby_taking_the_seat(spades: Spades) -> None:
    fake = spades.fake
    players = [fake.add_user(f"player{i}") for i in range(4)]
    standby, other = fake.add_user("standby"), fake.add_user("other")
    async with running(spades):
        assert "is set" in await create(spades, rounds=1, round_minutes=30, target=500, weeks=2)
        first = await first_start(spades)
        advance_to(spades, first - timedelta(minutes=30))
        await spades.wait_for(lambda: bool(checkin_posts(spades)), what="the check-in post")
        (post,) = checkin_posts(spades)
        for p in players:
            await said(await fake.click(p, post, label="Check in"))
        assert "standby list" in await said(await fake.click(standby, post, label="I'll sub"))
        await spades.wait_for(lambda: "Standby (1)" in post.content, what="the standby list")
        _night, table = await the_one_table(spades, first)
        leaving = fake.users[table.players[0]]
        # the check-in post keeps its buttons for the night: the player checks out
        out = await said(await fake.click(leaving, post, label="I'm out for tonight"))
        assert "out for tonight" in out, out
        await spades.wait_for(lambda: bool(fake.pings(standby)), what="the standby's ping")
        (offer,) = fake.pings(standby)
        assert offer.channel.id == table.channel_id and offer.pinged == [standby.id]  # only the standby
        assert "Take this seat" in offer.content
        assert "Only tonight's standby" in await said(await fake.click(other, offer, label="Take this seat"))
        took = await said(await fake.click(standby, offer, label="Take this seat"))
        assert "You took the seat" in took, took
        seated = {s["user_id"] for s in (await spades.stored_table(table.table_id)).data["seats"] if s}
        assert standby.id in seated and leaving.id not in seated  # as stored before the answer
        assert "already playing" in await said(await fake.click(standby, offer, label="Take this seat"))
        assert "out for tonight" in await said(await fake.click(leaving, post, label="Check in"))
    assert spades.fake.take_violations() == []
