"""A league night of two tables in a channel where the bot may not create threads, end to end."""

from __future__ import annotations

from datetime import timedelta

import discord
import pytest

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
    stored_night,
)


@pytest.mark.both_backends
async def test_two_tables_without_thread_permission_play_one_after_the_other(spades: Spades) -> None:
    """Eight players (two tables) and a league channel where the bot may not create threads: the
    organiser is told when check-in opens, naming the missing permission; at the start table 1
    opens in the channel itself and table 2, which cannot open beside it (one live table per
    channel), is reported to the organiser and opens in the channel as soon as table 1's game is
    over; both games are played to their end (the bots play the absent humans) and count."""
    admin = spades.users["admin"]
    players = [spades.fake.add_user(f"nt{i}") for i in range(8)]
    spades.channel.set_permissions(
        spades.fake.bot_user, deny=discord.Permissions(create_public_threads=True).value
    )
    async with running(spades):
        answer = await create(
            spades, rounds=1, round_minutes=30, target=50, hand_limit=1, late_minutes=0, weeks=2,
            bid_seconds=15, play_seconds=15,
        )  # fmt: skip
        assert "is set" in answer, answer
        # the bots play every absent human's seat here: the no-show rule (test_league_attendance.py) off
        assert "Saved" in await ask(spades, admin, "league admin attendance", league=LEAGUE, no_show="off")
        for p in players:
            assert "signed up" in await ask(spades, p, "league signup", league=LEAGUE)
        start = await first_start(spades)
        advance_to(spades, start - timedelta(minutes=30))
        # before the night: the organiser is told what is missing
        await spades.wait_for(lambda: bool(posts_with(spades, "thread per table")), what="the note")
        (note,) = posts_with(spades, "thread per table")
        assert "missing: Create Public Threads" in note.content and note.pinged == [admin.id]
        (post,) = checkin_posts(spades)
        for p in players:
            assert "checked in" in await said(await spades.fake.click(p, post, label="Check in"))
        advance_to(spades, start + timedelta(seconds=1))
        await spades.wait_for(lambda: bool(posts_with(spades, "round 1 of 1")), what="the seating")
        (seating,) = posts_with(spades, "round 1 of 1")
        assert sorted(seating.pinged) == sorted(p.id for p in players)  # everyone called
        await spades.wait_for(
            lambda: bool(posts_with(spades, "night 1 results")), timeout=90, what="the night's results"
        )
        (results,) = posts_with(spades, "night 1 results")
        night = await stored_night(spades, 1)
        async with stored_leagues(spades) as store:
            tables = await store.rounds.round_tables(night.id, 1)
            stored_results = await store.rounds.night_results(night.id)
        # no thread: both tables were played in the league channel, every seated player at one
        assert spades.guild.threads == []
        assert len(tables) == 2 and all(t.channel_id == spades.channel.id for t in tables)
        assert sorted(p for t in tables for p in t.players) == sorted(p.id for p in players)
        assert [t.status for t in tables] == ["finished", "finished"]
        assert len(stored_results) == 2 and all(r.complete for r in stored_results)
        for t in tables:
            assert t.table_id is not None
            assert (await spades.stored_table(t.table_id)).status == "finished"
            assert f"R1 table {t.table_no}: 🏆" in results.content
        assert all(f"<@{p.id}>" in results.content for p in players)
        # table 2 could not open beside table 1: the organiser was told; it opened once table 1's
        # game was over (its game post), in the same channel
        (refused,) = posts_with(spades, "couldn't open table 2 of round 1")
        assert refused.pinged == [admin.id]
        first, second = sorted(tables, key=lambda t: t.table_no)
        assert first.table_id is not None and second.table_id is not None
        over = [m for m in posts_with(spades, "🏆 Team") if m.content.startswith("🏆 ")]
        assert len(over) == 2  # the two game posts, in the channel
        second_opened = [
            m for m in posts_with(spades, f"table {second.table_id} ") if m.content.startswith("♠")
        ]
        assert second_opened and refused.id < over[0].id < second_opened[0].id < over[1].id
        # each table's players were called when it opened, in the channel: table 2's too, though
        # it opened long after the seating post
        ready = posts_with(spades, "your table is ready")
        assert [sorted(m.pinged) for m in ready] == [sorted(first.players), sorted(second.players)]
        assert refused.id < ready[1].id < over[1].id
    assert spades.fake.take_violations() == []
