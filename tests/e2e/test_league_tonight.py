"""Tonight's organiser tools and calls through the fake Discord: the event's "Interested" members
are nudged when check-in opens, a cancelled night gives its week back (and its scheduled event
follows), and a channel where the bot cannot open threads is reported
to the organiser before the night, while the round still plays in the channel."""

from __future__ import annotations

from datetime import datetime, timedelta

import discord
import pytest

from bot.league import schedule
from tests.e2e.harness import Spades, said
from tests.e2e.leagues import (
    LEAGUE,
    advance_to,
    ask,
    checkin_posts,
    create,
    first_start,
    posts_with,
    running,
    stored_leagues,
)

pytestmark = pytest.mark.both_backends


async def test_a_cancelled_night_gives_its_week_back(spades: Spades) -> None:
    admin = spades.users["admin"]
    async with running(spades), stored_leagues(spades) as store:
        await create(spades, weeks=2)
        start = await first_start(spades)
        bob = spades.users["bob"]
        (event,) = spades.guild.scheduled_events.values()
        event.mark_interested(bob)  # read through the API when check-in opens: one nudge
        advance_to(spades, start - timedelta(minutes=30))
        await spades.wait_for(lambda: bool(posts_with(spades, "Interested")), what="the nudge")
        (nudge,) = posts_with(spades, "Interested")
        assert nudge.pinged == [bob.id]
        answer = await ask(spades, admin, "league admin cancel", league=LEAGUE, reason="snow")
        assert "week back" in answer
        (post,) = posts_with(spades, "is cancelled by")
        assert "snow" in post.content and post.pinged == []
        (league,) = await store.rosters.leagues(spades.guild.id)
        nights = schedule.from_dict(league.schedule).nights()
        assert [n.start_utc - start for n in nights] == [timedelta(days=7), timedelta(days=14)]
        # the night's event (still scheduled) now shows the next night: one event, no refusal
        assert len(spades.guild.scheduled_events) == 1
        assert event.data["status"] == 1
        assert datetime.fromisoformat(event.data["scheduled_start_time"]) == nights[0].start_utc
    assert spades.fake.take_violations() == []


async def test_without_thread_permission_the_organiser_is_told_before_the_night(spades: Spades) -> None:
    admin = spades.users["admin"]
    players = [spades.fake.add_user(f"player{i}") for i in range(8)]
    spades.channel.set_permissions(
        spades.fake.bot_user, deny=discord.Permissions(create_public_threads=True).value
    )
    async with running(spades):
        await create(spades, rounds=1, round_minutes=30, hand_limit=1, late_minutes=0)
        for p in players:
            await ask(spades, p, "league signup", league=LEAGUE)
        start = await first_start(spades)
        advance_to(spades, start - timedelta(minutes=30))
        await spades.wait_for(lambda: bool(posts_with(spades, "thread per table")), what="the note")
        (note,) = posts_with(spades, "thread per table")
        assert "Create Public Threads" in note.content and note.pinged == [admin.id]
        (post,) = checkin_posts(spades)
        for p in players:
            await said(await spades.fake.click(p, post, label="Check in"))
        advance_to(spades, start + timedelta(seconds=1))
        await spades.wait_for(lambda: bool(posts_with(spades, "round 1 of 1")), what="the seating")
        (seating,) = posts_with(spades, "round 1 of 1")
        assert sorted(seating.pinged) == sorted(p.id for p in players)  # everyone called
        assert spades.guild.threads == []  # the round plays in the channel itself
    assert spades.fake.take_violations() == []
