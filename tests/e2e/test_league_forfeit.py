"""An organiser forfeits a running league table end to end: ``/league-season forfeit`` stops the
live game with a note at the table, the round (and the one-round night) finishes, and the standings
show the forfeit loss and the other side's win."""

from __future__ import annotations

from datetime import timedelta

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
    the_one_table,
)


@pytest.mark.both_backends
async def test_an_admin_forfeits_a_running_table_and_the_standings_show_it(spades: Spades) -> None:
    players = [spades.fake.add_user(f"ff{i}") for i in range(4)]
    admin = spades.users["admin"]
    async with running(spades):
        assert "is set" in await create(spades, rounds=1, round_minutes=30, weeks=2)
        first = await first_start(spades)
        advance_to(spades, first - timedelta(minutes=30))
        await spades.wait_for(lambda: bool(checkin_posts(spades)), what="the check-in post")
        post = checkin_posts(spades)[0]
        for p in players:
            await said(await spades.fake.click(p, post, label="Check in"))
        night, table = await the_one_table(spades, first)
        assert table.table_id is not None and table.channel_id is not None
        quitter = spades.fake.users[table.players[0]]
        losing = next(side for side in table.sides if quitter.id in side)
        winning = [p for side in table.sides if quitter.id not in side for p in side if p is not None]
        # refusals are coded and ephemeral: not at the table, no such table
        outsider = spades.fake.add_user("outsider")
        assert "not seated at that table" in await ask(
            spades, admin, "league-season forfeit", league=LEAGUE, table=1, loser=outsider, reason="x"
        )
        assert "no table 3" in await ask(
            spades, admin, "league-season forfeit", league=LEAGUE, table=3, loser=quitter, reason="x"
        )
        # a player may not forfeit for the league
        denied = await ask(
            spades, players[1], "league-season forfeit", league=LEAGUE, table=1, loser=quitter, reason="x"
        )
        assert "Only server managers" in denied, denied
        answer = await ask(
            spades, admin, "league-season forfeit", league=LEAGUE, table=1, loser=quitter,
            reason="walked out after a row",
        )  # fmt: skip
        assert "forfeits and the other side gets the win" in answer, answer
        # persisted before the answer: the stored result is the forfeit
        async with stored_leagues(spades) as store:
            (result,) = await store.rounds.night_results(night.id)
        assert result.forfeit_side == table.sides.index(losing) and result.winner_side is not None
        assert result.winner_side != result.forfeit_side
        # the live table closes with a short public post saying why
        where = spades.guild.channels[table.channel_id]
        await spades.wait_for(
            lambda: any(
                "awarded this table by forfeit" in m.content for m in spades.fake.public_messages(where)
            ),
            what="the forfeit note at the table",
        )
        assert (await spades.stored_table(table.table_id)).status == "abandoned"
        await spades.wait_for(lambda: bool(posts_with(spades, "night 1 results")), what="the night's results")
        standings = await ask(spades, spades.users["bob"], "league standings", league=LEAGUE)
        assert "1 forfeit loss" in standings, standings
        lines = standings.splitlines()
        for uid in winning:
            (line,) = [line for line in lines if f"<@{uid}>" in line]
            assert "1W" in line and "forfeit" not in line
        for uid in (p for p in losing if p is not None):
            (line,) = [line for line in lines if f"<@{uid}>" in line]
            assert "1L" in line and "1 forfeit loss" in line
        history = await ask(spades, spades.users["bob"], "league history", league=LEAGUE)
        assert "table forfeited" in history and "walked out after a row" in history
    assert spades.fake.take_violations() == []
