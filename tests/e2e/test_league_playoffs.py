"""A season with playoffs, end to end through the fake Discord and its clock: the one regular night
ends, the qualifiers are posted and the finals night gets its own scheduled event; the bot restarts
before the finals; on the night the qualifiers who came check in, a bot takes the empty place, and
the winner of the final is named the champion."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from bot.league import playoffs
from tests.e2e.harness import Spades
from tests.e2e.leagues import (
    LEAGUE,
    advance,
    advance_to,
    ask,
    checkin_posts,
    create,
    posts_with,
    running,
    stored_leagues,
    stored_night,
)
from tests.e2e.test_league_seasons import night_starts, play_night


@pytest.mark.both_backends
async def test_a_short_season_ends_with_a_finals_night_and_a_champion(spades: Spades) -> None:
    fake = spades.fake
    admin = spades.users["admin"]
    players = [fake.add_user(f"final{i}") for i in range(4)]
    by_id = {p.id: p for p in players}
    async with running(spades):
        assert "is set" in await create(
            spades,
            rounds=1,
            round_minutes=5,
            target=50,
            hand_limit=1,
            weeks=1,
            bid_seconds=15,
            play_seconds=15,
        )
        off = await ask(spades, admin, "league admin attendance", league=LEAGUE, no_show="off")
        assert "Saved" in off, off
        for p in players:
            assert "signed up" in await ask(spades, p, "league signup", league=LEAGUE)
        # checked where entered: rotating partners take 4 or 8 qualifiers; only managers set it
        refused = await ask(
            spades, admin, "league-season playoffs", league=LEAGUE, playoffs="on", qualifiers=6
        )
        assert "4 / 8 qualifiers" in refused, refused
        assert "Only server managers" in await ask(
            spades, players[0], "league-season playoffs", league=LEAGUE, playoffs="on"
        )
        said = await ask(spades, admin, "league-season playoffs", league=LEAGUE, playoffs="on", qualifiers=4)
        assert "Playoffs: on, the top 4 players" in said, said
        (start,) = await night_starts(spades)
        await play_night(spades, 1, start, players)
        await spades.wait_for(
            lambda: bool(posts_with(spades, "the regular season is over")), timeout=60, what="the qualifiers"
        )
        (post,) = posts_with(spades, "the regular season is over")
        assert set(post.pinged) == {p.id for p in players}
        assert posts_with(spades, "final standings") == []  # no champion before the finals
        finals_start = start + timedelta(days=7)

        def finals_event() -> list[dict[str, object]]:
            return [
                e.data
                for e in spades.guild.scheduled_events.values()
                if e.data["status"] == 1
                and datetime.fromisoformat(str(e.data["scheduled_start_time"])) == finals_start
            ]

        await spades.wait_for(lambda: len(finals_event()) == 1, what="the finals night's event")
        assert len(spades.guild.scheduled_events) == 2  # night 1's, and the finals' own
        assert finals_event()[0]["name"] == f"{LEAGUE}: finals"
        async with stored_leagues(spades) as store:
            (league,) = await store.rosters.leagues(spades.guild.id)
        state = playoffs.state_of(league)
        assert state is not None and state["night"] == 2
        seeds: list[int] = state["qualifiers"]
        assert sorted(seeds) == sorted(by_id)
    # the bot restarts between the season's end and the finals: nothing is lost
    async with running(spades):
        advance_to(spades, finals_start - timedelta(minutes=30))
        await spades.wait_for(lambda: len(checkin_posts(spades)) >= 2, what="the finals' check-in")
        checkin = checkin_posts(spades)[-1]
        assert "Finals night" in checkin.content and "Finals night" not in checkin_posts(spades)[0].content
        came = [seeds[0], seeds[1], seeds[2]]  # the fourth seed does not come: a bot takes the place
        for uid in came:
            r = await fake.click(by_id[uid], checkin, label="Check in")
            await r.answered()
        advance_to(spades, finals_start + timedelta(seconds=1))
        await spades.wait_for(lambda: bool(posts_with(spades, "night 2, round 1 of 1")), what="the final")
        night = await stored_night(spades, 2)
        async with stored_leagues(spades) as store:
            (table,) = await store.rounds.round_tables(night.id, 1)
        assert {frozenset(side) for side in table.sides} == {
            frozenset({seeds[0], None}),
            frozenset({seeds[1], seeds[2]}),
        }
        advance(spades, minutes=6)
        await spades.wait_for(
            lambda: bool(posts_with(spades, "winner of the final")), timeout=90, what="the champion"
        )
        async with stored_leagues(spades) as store:
            (result,) = await store.rounds.night_results(night.id)
            (league,) = await store.rosters.leagues(spades.guild.id)
        won = result.winner_side
        if won is None:  # called level: more points, then the higher seed
            a, b = result.scores
            won = 0 if a > b else 1 if b > a else (0 if seeds[0] in result.sides[0] else 1)
        champions = {p for p in result.sides[won] if p is not None}
        (champion,) = posts_with(spades, "winner of the final")
        assert all(f"<@{p}>" in champion.content for p in champions)
        assert all(f"<@{p}>" not in champion.content for p in set(by_id) - champions)
        assert set(champion.pinged) == champions
        (final,) = posts_with(spades, "season 1 final standings")
        assert "Champions:" in final.content
        assert league.status == "ended"
        assert not any(e.data["status"] == 1 for e in spades.guild.scheduled_events.values())
    assert fake.take_violations() == []
