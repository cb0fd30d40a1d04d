"""League admin tools and player commands that the league-night tests don't drive: every answer is
ephemeral and says what happened (or why nothing did), and what is stored follows it."""

from __future__ import annotations

from typing import Any

from tests.e2e.conftest import Spades
from tests.e2e.test_league import LEAGUE, ask, create, running
from tests.fakediscord import User

NOT_ADMIN = "Only server managers (Manage Server) or the league's admin role can do that."


async def test_admin_tools_refuse_non_admins_and_the_admin_role_lets_them(spades: Spades) -> None:
    admin, alice, bob, carol = (spades.users[n] for n in ("admin", "alice", "bob", "carol"))
    async with running(spades) as bot:
        await create(spades)
        store = bot.leagues.store  # type: ignore[attr-defined]
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
            assert await ask(spades, alice, command, league=LEAGUE, **options) == NOT_ADMIN, command
        (league,) = await store.leagues(spades.guild.id)
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
        assert "is paused, not running" in await ask(spades, alice, "league pause", league=LEAGUE)
        (league,) = await store.leagues(spades.guild.id)
        assert league.status == "paused"
        # the role is taken away: alice is refused again
        assert await ask(spades, admin, "league admin role") == "League admins: server managers."
        assert await ask(spades, alice, "league resume", league=LEAGUE) == NOT_ADMIN
        resumed = await ask(spades, admin, "league resume", league=LEAGUE)
        assert resumed.startswith("▶️ Resumed.") and f"📅 **{LEAGUE}**: Thursdays at 20:00" in resumed
        assert "is not paused" in await ask(spades, admin, "league resume", league=LEAGUE)
        (league,) = await store.leagues(spades.guild.id)
        assert league.status == "active"
        log = await ask(spades, bob, "league history", league=LEAGUE)
        assert f"<@{alice.id}> pause: holiday" in log and f"<@{admin.id}> resume" in log
    assert spades.fake.take_violations() == []


async def test_schedule_roster_and_season_commands(spades: Spades) -> None:
    admin, bob, carol = (spades.users[n] for n in ("admin", "bob", "carol"))

    async def say(user: User, command: str, **options: Any) -> str:
        return await ask(spades, user, command, league=LEAGUE, **options)

    async with running(spades) as bot:
        await create(spades)
        store = bot.leagues.store  # type: ignore[attr-defined]
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
        (league,) = await store.leagues(spades.guild.id)
        assert (league.season, league.status) == (2, "active")
        assert "season 2 is over" in await say(admin, "league end")
        assert await say(admin, "league archive") == f"🗄️ **{LEAGUE}** is archived; its name is free again."
        assert await store.leagues(spades.guild.id) == []
        assert f"There is no league called `{LEAGUE}`" in await say(bob, "league signup")
    assert spades.fake.take_violations() == []
