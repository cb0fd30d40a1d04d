"""A fixed-teams league of six-player Spades in teams of three, end to end through the fake Discord
and its clock: invites with two partners (a decline dissolves a team), check-in, one six-seat table
whose seats alternate between the two teams, the result in the standings."""

from __future__ import annotations

from datetime import timedelta

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


async def test_a_fixed_teams_of_three_league_night(spades: Spades) -> None:
    fake = spades.fake
    aces = [fake.add_user(f"ace{i}") for i in range(3)]
    kings = [fake.add_user(f"king{i}") for i in range(3)]
    captain, p1, p2 = aces
    k0, k1, k2 = kings
    async with running(spades), stored_leagues(spades) as store:  # read on a connection of its own
        text = await create(
            spades, format="fixed", preset="six-player-threes", rounds=1, round_minutes=30, target=50,
            hand_limit=1, weeks=2, bid_seconds=15, play_seconds=15,
        )  # fmt: skip
        assert "is set" in text and f"Teams join with {spades.command('league invite')}" in text, text

        # the invite takes two partners in teams of three: one alone is refused, saying what is allowed
        refused = await ask(spades, captain, "league invite", league=LEAGUE, partner=p1, team="Aces")
        assert refused == (
            f"**{LEAGUE}** plays in teams of three: invite both your partners, with `partner` and `partner2`."
        )
        assert "Invite two different partners." in await ask(
            spades, captain, "league invite", league=LEAGUE, partner=p1, partner2=p1, team="Aces"
        )
        assert "bots can't sign up" in await ask(
            spades, captain, "league invite", league=LEAGUE, partner=p1, partner2=fake.bot_user, team="Aces"
        )
        (league,) = await store.rosters.leagues(spades.guild.id)
        assert (
            await store.rosters.members(league.id, include_invited=True) == []
        )  # the refusals wrote nothing

        sent = await ask(
            spades, captain, "league invite", league=LEAGUE, partner=p1, partner2=p2, team="Aces"
        )
        assert sent == (
            f"📨 Invites sent: <@{p1.id}> and <@{p2.id}> join **Aces** with `/league accept league:{LEAGUE}`;"
            " the team plays once both have accepted."
        )
        assert await ask(spades, p1, "league accept", league=LEAGUE) == (
            f"🤝 You accepted: **Aces** plays in **{LEAGUE}** once <@{p2.id}> accepts too."
        )
        me = await ask(spades, captain, "league me", league=LEAGUE)
        assert f"Team **Aces** (invite pending: waiting for <@{p2.id}> to accept)" in me
        assert await store.rosters.teams(league.id) == []  # still pending as stored
        assert (
            await ask(spades, p2, "league accept", league=LEAGUE) == f"🤝 You're on **Aces** in **{LEAGUE}**."
        )
        assert "Team **Aces** (active)" in await ask(spades, p1, "league me", league=LEAGUE)

        # a decline dissolves the pending team: the channel says so, the other invitee has nothing left
        await ask(spades, k0, "league invite", league=LEAGUE, partner=k1, partner2=k2, team="Kings")
        assert (
            await ask(spades, k1, "league decline", league=LEAGUE) == "You declined the invite to **Kings**."
        )
        await spades.wait_for(
            lambda: bool(posts_with(spades, "declined the invite")), what="the decline post"
        )
        (gone,) = posts_with(spades, "declined the invite")
        assert gone.content == (
            f"👋 **Kings** won't play in **{LEAGUE}**: <@{k1.id}> declined the invite."
            f" <@{k0.id}> and <@{k2.id}> can form a new team with `/league invite`."
        )
        assert "no pending team invite" in await ask(spades, k2, "league accept", league=LEAGUE)
        assert "not signed up" in await ask(spades, k2, "league me", league=LEAGUE)
        # the captain tries again; both accept this time
        assert "join **Kings**" in await ask(
            spades, k0, "league invite", league=LEAGUE, partner=k1, partner2=k2, team="Kings"
        )
        for p in (k2, k1):
            await ask(spades, p, "league accept", league=LEAGUE)
        teams = {t.name: sorted(t.members) for t in await store.rosters.teams(league.id)}
        assert teams == {"Aces": sorted(u.id for u in aces), "Kings": sorted(u.id for u in kings)}

        # the bots play every absent human's seat here: the no-show rule (test_league_attendance.py) off
        said_off = await ask(
            spades, spades.users["admin"], "league admin attendance", league=LEAGUE, no_show="off"
        )
        assert "Saved" in said_off, said_off
        # check-in, then the night starts by itself: one six-seat table, the teams facing each other
        first = await first_start(spades)
        advance_to(spades, first - timedelta(minutes=30))
        await spades.wait_for(lambda: bool(checkin_posts(spades)), what="the check-in post")
        (post,) = checkin_posts(spades)
        for p in (*aces, *kings):
            assert "checked in" in await said(await fake.click(p, post, label="Check in"))
        await spades.wait_for(lambda: "Checked in (6)" in post.content, what="the check-in list")
        advance_to(spades, first + timedelta(seconds=1))
        await spades.wait_for(lambda: bool(posts_with(spades, "round 1 of 1")), what="round 1's seating")
        night = await stored_night(spades, 1)
        (table,) = await store.rounds.round_tables(night.id, 1)
        assert sorted(map(sorted, table.sides)) == sorted(  # type: ignore[arg-type]
            [sorted(u.id for u in aces), sorted(u.id for u in kings)]
        )
        (seating,) = posts_with(spades, "round 1 of 1")
        for side in table.sides:
            assert " + ".join(f"<@{u}>" for u in side) in seating.content
        assert table.table_id is not None and table.channel_id not in (None, spades.channel.id)  # a thread
        stored = await spades.stored_table(table.table_id)
        seats = [s["user_id"] if s else None for s in stored.data["seats"]]
        assert len(seats) == 6 and None not in seats
        # the engine's sides with six seats in threes are the even and the odd seats: partners alternate
        assert {frozenset(seats[0::2]), frozenset(seats[1::2])} == {
            frozenset(u.id for u in aces),
            frozenset(u.id for u in kings),
        }

        # the bots play the absent humans' seats; the one-hand game ends and the standings show the teams
        await spades.wait_for(lambda: bool(posts_with(spades, "night 1 results")), timeout=90, what="night 1")
        await spades.wait_for(lambda: bool(posts_with(spades, "season 1 standings")), what="the standings")
        (result,) = await store.rounds.night_results(night.id)
        assert result.complete and len(result.scores) == 2
        standings = posts_with(spades, "season 1 standings")[0].content
        names = {
            "Aces": "**Aces** (" + " + ".join(f"<@{u.id}>" for u in aces) + ")",
            "Kings": "**Kings** (" + " + ".join(f"<@{u.id}>" for u in kings) + ")",
        }
        assert all(n in standings for n in names.values()), standings
        assert result.winner_side is not None, result  # one hand to 50 under the seeded deal: a winner
        won = "Aces" if captain.id in result.sides[result.winner_side] else "Kings"
        lost = "Kings" if won == "Aces" else "Aces"
        assert f"1. {names[won]}: **2** pts (1W 0CL 0L" in standings, standings
        assert f"2. {names[lost]}: " in standings, standings
        assert sorted(map(sorted, result.sides)) == sorted(map(sorted, table.sides))  # type: ignore[arg-type]
        (finished,) = [
            n for n in await store.nights.nights(league.id, league.season) if n.status == "finished"
        ]
        assert finished.number == 1
    assert fake.take_violations() == []
