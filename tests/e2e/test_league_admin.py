"""League admin tools and player commands that the league-night tests don't drive: every answer is
ephemeral and says what happened (or why nothing did), and what is stored follows it."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any

from bot.league import schedule
from bot.league.schedule_input import parse_zone
from fakediscord import Stopwatch, User
from tests.e2e.harness import Spades, said
from tests.e2e.leagues import LEAGUE, advance_to, ask, create, running, stored_leagues, stored_night

NOT_ADMIN = "Only server managers (Manage Server) or the league's admin role can do that."


async def test_admin_tools_refuse_non_admins_and_the_admin_role_lets_them(spades: Spades) -> None:
    admin, alice, bob, carol = (spades.users[n] for n in ("admin", "alice", "bob", "carol"))
    async with running(spades), stored_leagues(spades) as store:  # read on a connection of its own
        await create(spades)
        for command, options in [
            ("league pause", {}),
            ("league resume", {}),
            ("league skip", {"date": "2099-01-01"}),
            ("league season", {}),
            ("league archive", {}),
            ("league edit", {"rounds": 3}),
            ("league end", {}),
            ("league admin add", {"player": bob}),
            ("league admin remove", {"player": bob, "reason": "x"}),
            ("league admin start", {}),
            ("league admin postpone", {"minutes": 10}),
            ("league admin reopen", {}),
            ("league admin correct", {"night": 1, "round": 1, "table": 1, "scores": "1 2", "reason": "x"}),
            ("league admin sub", {"out": bob, "player": carol}),
        ]:
            assert await ask(spades, alice, command, league=LEAGUE, **options) == spades.mentioned(
                NOT_ADMIN
            ), command
        (league,) = await store.rosters.leagues(spades.guild.id)
        assert league.status == "active"

        # only a server manager picks the league admin role; a member with it may then run leagues
        assert "Only server managers (Manage Server) can choose" in await ask(
            spades, alice, "league admin role"
        )
        role = spades.guild.add_role("League staff")
        assert await ask(spades, admin, "league admin role", role=role) == (
            f"League admins: <@&{role.id}> and server managers."
        )
        spades.guild.set_roles(alice, [role])
        paused = await ask(spades, alice, "league pause", league=LEAGUE, reason="holiday")
        assert paused.startswith(f"⏸️ **{LEAGUE}** is paused")
        refused = await ask(spades, alice, "league pause", league=LEAGUE)
        assert (
            f"is paused ({spades.command('league resume')}). It can only be paused while it runs." in refused
        )
        (league,) = await store.rosters.leagues(spades.guild.id)
        assert league.status == "paused"
        # the role is taken away: alice is refused again
        assert await ask(spades, admin, "league admin role") == "League admins: server managers."
        assert await ask(spades, alice, "league resume", league=LEAGUE) == spades.mentioned(NOT_ADMIN)
        resumed = await ask(spades, admin, "league resume", league=LEAGUE)
        assert resumed.startswith("▶️ Resumed.") and f"📅 **{LEAGUE}**: Thursdays at 20:00" in resumed
        assert "is not paused" in await ask(spades, admin, "league resume", league=LEAGUE)
        (league,) = await store.rosters.leagues(spades.guild.id)
        assert league.status == "active"
        log = await ask(spades, bob, "league history", league=LEAGUE)
        assert f"<@{alice.id}>: league paused: holiday" in log and f"<@{admin.id}>: league resumed" in log
    assert spades.fake.take_violations() == []


async def test_schedule_roster_and_season_commands(spades: Spades) -> None:
    admin, bob, carol = (spades.users[n] for n in ("admin", "bob", "carol"))

    async def say(user: User, command: str, **options: Any) -> str:
        return await ask(spades, user, command, league=LEAGUE, **options)

    async with running(spades), stored_leagues(spades) as store:  # read on a connection of its own
        await create(spades)
        schedule = await say(bob, "league schedule")
        assert schedule.count("Night ") == 8 and "2 rounds of up to 45 min" in schedule
        assert "is not a date: write it as YYYY-MM-DD" in await say(admin, "league skip", date="not a date")
        assert "is after the end of the season" in await say(admin, "league skip", date="2099-01-01")
        assert "A night has 1 to 8 rounds (you gave 0)" in await say(admin, "league edit", rounds=0)
        saved = await say(admin, "league edit", rounds=3, target=300, win_points=3, drop_worst_week=True)
        assert saved.startswith("✅ Saved.") and "3 rounds of up to 45 min" in saved and "to 300" in saved
        assert "3 rounds" in await say(bob, "league schedule")

        # the roster
        assert (
            await say(admin, "league admin add", player=carol)
            == f"<@{carol.id}> is on **{LEAGUE}**'s roster."
        )
        assert "already on the roster" in await say(admin, "league admin add", player=carol)
        removed = await say(admin, "league admin remove", player=carol, reason="asked to")
        assert removed.startswith(f"<@{carol.id}> is off **{LEAGUE}**'s roster")
        assert "is not on this league's roster" in await say(
            admin, "league admin remove", player=carol, reason="x"
        )
        assert "signed up" in await say(bob, "league signup")
        assert await say(bob, "league leave") == f"You've left **{LEAGUE}**."
        assert await say(bob, "league leave") == f"You're not signed up for **{LEAGUE}**."
        me = await say(bob, "league me")
        assert me.startswith(f"You're not signed up for **{LEAGUE}**.") and "Next night: <t:" in me
        standings = await say(bob, "league standings")
        assert "season 1 standings" in standings and "No results yet." in standings

        # no night is on: the night tools say so; postponing the next night moves it
        assert "Scores are whole numbers" in await say(
            admin, "league admin correct", night=1, round=1, table=1, scores="a b", reason="x"
        )
        assert "Night 1 has no table 1 in round 1." in await say(
            admin, "league admin correct", night=1, round=1, table=1, scores="420 380", reason="x"
        )
        assert "No night is under way" in await say(admin, "league admin reopen")
        assert "Postpone by 5 to 240 minutes." in await say(admin, "league admin postpone", minutes=-5)
        first = schedule.split("Night 1: <t:")[1].split(":")[0]
        moved = await say(admin, "league admin postpone", minutes=15)
        assert moved == f"The night now starts <t:{int(first) + 900}:F>."

        # fixed-team commands in a rotating-partners league
        assert "has no fixed teams" in await say(bob, "league invite", partner=carol, team="Aces")
        assert "no pending team invite" in await say(carol, "league accept")
        assert "no pending team invite" in await say(carol, "league decline")

        # the season's end, a new season, the archive
        assert "End the season first" in await say(admin, "league archive")
        assert "End the current season first" in await say(admin, "league season")
        assert "season 1 is over" in await say(admin, "league end")
        assert "A season is 1 to 52 weeks long (you gave 0)" in await say(admin, "league season", weeks=0)
        second = await say(admin, "league season", weeks=4)
        assert second.startswith(f"🆕 Season 2 of **{LEAGUE}**.") and second.count("Night ") == 4
        (league,) = await store.rosters.leagues(spades.guild.id)
        assert (league.season, league.status) == (2, "active")
        assert "season 2 is over" in await say(admin, "league end")
        assert await say(admin, "league archive") == f"🗄️ **{LEAGUE}** is archived; its name is free again."
        assert await store.rosters.leagues(spades.guild.id) == []
        assert f"There is no league called `{LEAGUE}`" in await say(bob, "league signup")
    assert spades.fake.take_violations() == []


async def test_fixed_teams_skip_and_shared_standings(spades: Spades) -> None:
    fake = spades.fake
    admin, alice, bob, carol, dave = (spades.users[n] for n in ("admin", "alice", "bob", "carol", "dave"))
    async with running(spades):
        assert f"Teams join with {spades.command('league invite')}" in await create(spades, format="fixed")
        choices = await fake.autocomplete(alice, spades.channel, "league signup", "league", "spa")
        assert choices == [{"name": LEAGUE, "value": LEAGUE}]
        assert "plays in fixed teams: invite your partner" in await ask(
            spades, alice, "league signup", league=LEAGUE
        )
        # a league of pairs takes one partner: a second one is refused, saying what is allowed
        assert (
            await ask(spades, alice, "league invite", league=LEAGUE, partner=bob, partner2=carol, team="Aces")
            == f"**{LEAGUE}** plays in pairs: invite one partner with `partner` and leave `partner2` out."
        )
        sent = await ask(spades, alice, "league invite", league=LEAGUE, partner=bob, team="Aces")
        assert sent == f"📨 Invite sent: <@{bob.id}> joins **Aces** with `/league accept league:{LEAGUE}`."
        bot_user = fake.bot_user
        assert "bots can't sign up" in await ask(
            spades, carol, "league invite", league=LEAGUE, partner=bot_user, team="Bots"
        )
        assert "no pending team invite" in await ask(spades, carol, "league accept", league=LEAGUE)
        assert (
            await ask(spades, bob, "league accept", league=LEAGUE)
            == f"🤝 You're on **Aces** in **{LEAGUE}**."
        )
        assert "joins **Kings**" in await ask(
            spades, carol, "league invite", league=LEAGUE, partner=dave, team="Kings"
        )
        assert (
            await ask(spades, dave, "league decline", league=LEAGUE)
            == "You declined the invite to **Kings**."
        )
        me = await ask(spades, bob, "league me", league=LEAGUE)
        assert "you're signed up" in me and "Team **Aces** (active)" in me and "Rank 1 of 1" in me

        # people only: no bot on the roster, no bot as a substitute; no substitution without a night
        assert "Bots can't sign up" in await ask(
            spades, admin, "league admin add", league=LEAGUE, player=bot_user
        )
        assert "Substitute a person" in await ask(
            spades, admin, "league admin sub", league=LEAGUE, out=alice, player=bot_user
        )
        assert (
            await ask(spades, admin, "league admin sub", league=LEAGUE, out=alice, player=carol)
            == "Substitutions are for a night under way."
        )

        # skipping the second night makes the season a week longer
        schedule = await ask(spades, admin, "league schedule", league=LEAGUE)
        stamps = [int(s.split(":")[0]) for s in schedule.split("<t:")[1:]]
        second = datetime.fromtimestamp(stamps[1], parse_zone("America/New_York")).date()
        last = datetime.fromtimestamp(stamps[-1], parse_zone("America/New_York")).date()
        skipped = await ask(
            spades, admin, "league skip", league=LEAGUE, date=second.isoformat(), reason="holiday"
        )
        assert skipped == (
            f"⏭️ {second.isoformat()} is skipped. "
            f"The season now ends on {(last + timedelta(days=7)).isoformat()}."
        )
        assert "is already skipped" in await ask(
            spades, admin, "league skip", league=LEAGUE, date=second.isoformat()
        )
        log = await ask(spades, alice, "league history", league=LEAGUE)
        assert f"night skipped ({second.isoformat()}): holiday" in log

        # standings shared in the channel: public; a refusal stays private and leaves no public trace
        before = len(fake.public_messages(spades.channel))
        r = await fake.slash(
            alice, spades.channel, "league standings", options={"league": "Nope", "share": True}
        )
        assert (await said(r)).startswith("There is no league called `Nope`. Leagues here: ")
        await spades.fake.settle()
        assert len(fake.public_messages(spades.channel)) == before
        r = await fake.slash(
            alice, spades.channel, "league standings", options={"league": LEAGUE, "share": True}
        )
        shared = await said(r)
        assert not r.ephemeral
        assert shared.startswith(f"🏅 **{LEAGUE}: season 1 standings**")
        assert f"1. **Aces** (<@{alice.id}> + <@{bob.id}>): **0** pts" in shared
        assert any(m.content == shared for m in fake.public_messages(spades.channel))
    assert spades.fake.take_violations() == []


async def test_a_league_is_not_created_in_a_thread(spades: Spades) -> None:
    thread = spades.channel.add_thread("side talk")
    async with running(spades), stored_leagues(spades) as store:
        r = await spades.fake.slash(
            spades.users["admin"],
            thread,
            "league create",
            options={"name": LEAGUE, "weekday": "thursday", "time": "8pm", "timezone": "UTC", "weeks": 4},
        )
        assert r.ephemeral
        assert await said(r) == (
            "Create the league in a text channel, not a thread: tables get their own threads."
        )
        assert await store.rosters.leagues(spades.guild.id) == []
    assert spades.fake.take_violations() == []


async def test_league_history_pages_through_every_night_of_the_season(spades: Spades) -> None:
    """``/league history`` opens at the latest nights; ◀ and ▶ page through every earlier one
    in place (it showed only the last 8)."""
    bob = spades.users["bob"]
    # eleven weeks go by on the fake clock: each night opens its check-in, nobody comes, and the bot
    # cancels it at the start (too few players: the week is given back, so each is "night 1" again,
    # a week later); the league's schedule is read from its stored row
    async with running(spades), stored_leagues(spades) as store:
        await create(spades, weeks=11)
        (league,) = await store.rosters.leagues(spades.guild.id)
        planned = list(schedule.from_dict(league.schedule).nights())
        assert len(planned) == 11
        days = [n.key for n in planned]
        for n in planned:
            advance_to(spades, n.start_utc - timedelta(minutes=30))
            await _night_on(spades, n.key, "checkin")
            advance_to(spades, n.start_utc + timedelta(seconds=1))
            await _night_on(spades, n.key, "cancelled")

        r = await spades.fake.slash(bob, spades.channel, "league history", options={"league": LEAGUE})
        latest = await said(r)
        msg = r.followups[-1] if r.followups else r.message
        assert msg is not None and msg.ephemeral
        assert "(page 2 of 2)" in latest and f"({days[10]})" in latest and f"({days[3]})" in latest
        assert f"({days[2]})" not in latest
        older, position, newer = msg.buttons
        assert older["label"] == "◀" and not older.get("disabled")
        assert position["label"] == "2 / 2" and position.get("disabled")
        assert newer["label"] == "▶" and newer.get("disabled")

        c = await spades.fake.click(bob, msg, label="◀")
        assert c.error is None
        first = msg.content
        assert "(page 1 of 2)" in first and f"({days[0]})" in first and f"({days[2]})" in first
        assert f"({days[3]})" not in first
        older, position, newer = msg.buttons
        assert older.get("disabled") and position["label"] == "1 / 2" and not newer.get("disabled")

        c = await spades.fake.click(bob, msg, label="▶")
        assert c.error is None
        assert f"({days[10]})" in msg.content and "(page 2 of 2)" in msg.content
    assert spades.fake.take_violations() == []


async def _night_becomes(spades: Spades, number: int, status: str, timeout: float = 20.0) -> None:
    """Until night ``number`` is stored with ``status`` (read on the test's own connection)."""
    watch = Stopwatch()
    while True:
        try:
            if (await stored_night(spades, number)).status == status:
                return
        except AssertionError:  # not stored yet
            pass
        assert not watch.past(timeout), f"timed out waiting for night {number} to be {status}"
        await asyncio.sleep(0.05)


async def _night_on(spades: Spades, day: str, status: str, timeout: float = 20.0) -> None:
    """Until the night of ``day`` is stored with ``status`` (read on the test's own connection)."""
    watch = Stopwatch()
    while True:
        async with stored_leagues(spades) as store:
            (league,) = await store.rosters.leagues(spades.guild.id)
            rows = [n for n in await store.nights.nights(league.id, league.season) if n.night_date == day]
        if rows and rows[0].status == status:
            return
        assert not watch.past(timeout), f"timed out waiting for the night of {day} to be {status}"
        await asyncio.sleep(0.05)
