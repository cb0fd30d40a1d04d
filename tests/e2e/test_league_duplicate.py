"""Duplicate rounds end to end: a league night with ``/league-season rules duplicate`` on, two tables
of four played by the bots for absent players. Both tables are dealt the same deals (the stored hand
records commit to the same keys and hold the same cards and dealer, hand by hand), and the standings
show matchpoints that an independent count from the stored hand scores gives."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from engine import duplicate, fair
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

LINE = re.compile(r"<@(\d+)>.*· \*\*([0-9.]+)\*\* matchpoints")


def points_by_hand(records: list[dict[str, Any]]) -> list[list[int]]:
    return [
        [a - b for a, b in zip(r["result"]["scores"], r["before"]["scores"], strict=True)]
        for r in sorted(records, key=lambda r: r["hand_no"])
    ]


async def test_a_duplicate_night_deals_the_same_hands_and_ranks_by_matchpoints(spades: Spades) -> None:
    players = [spades.fake.add_user(f"d{i}") for i in range(8)]
    admin = spades.users["admin"]
    async with running(spades, speed=200):
        assert "is set" in await create(
            spades, rounds=1, leftover="bye", round_minutes=60, target=500, hand_limit=2, weeks=1,
            late_minutes=0, bid_seconds=15, play_seconds=15,
        )  # fmt: skip
        assert "Saved" in await ask(spades, admin, "league admin attendance", league=LEAGUE, no_show="off")
        saved = await ask(spades, admin, "league-season rules", league=LEAGUE, duplicate=True)
        assert "Duplicate rounds" in saved, saved  # the league's info post says so
        for p in players:
            assert "signed up" in await ask(spades, p, "league signup", league=LEAGUE)
        start = await first_start(spades)
        advance_to(spades, start - timedelta(minutes=30))
        await spades.wait_for(lambda: bool(checkin_posts(spades)), what="the check-in post")
        post = checkin_posts(spades)[-1]
        for p in players:
            await said(await spades.fake.click(p, post, label="Check in"))
        advance_to(spades, start + timedelta(seconds=1))
        await spades.wait_for(lambda: bool(posts_with(spades, "round 1 of 1")), what="the seating")
        await spades.wait_for(
            lambda: bool(posts_with(spades, "night 1 results")), timeout=180, what="the night's results"
        )
        night = await stored_night(spades, 1)
        async with stored_leagues(spades) as store:
            tables = await store.rounds.round_tables(night.id, 1)
        assert len(tables) == 2 and all(len(t.players) == 4 for t in tables)
        async with spades.stored() as db:
            records = {}
            for t in tables:
                assert t.table_id is not None
                records[t.id] = await db.games.hand_records(t.table_id)
        a, b = (records[t.id] for t in tables)
        n = min(len(a), len(b))
        assert n >= 2  # (a level game may play an overtime hand at one table only)
        # the same deals: the same committed key, the same cards to the same seats, the same dealer
        for ha, hb in zip(a[:n], b[:n], strict=True):
            assert ha["hand_no"] == hb["hand_no"]
            assert ha["fair"]["commitment"] == hb["fair"]["commitment"]
            assert (ha["fair"]["seed"], ha["fair"]["salt"]) == (hb["fair"]["seed"], hb["fair"]["salt"])
            assert ha["deal"] == hb["deal"] and ha["dealer"] == hb["dealer"]
        assert a[0]["deal"] != a[1]["deal"]  # (each hand its own deal)
        # ... and they are the round's deals: keyed from the night's committed seed and the round
        # (``engine.duplicate``), not the table's own, the round's dealer first
        round_seed = duplicate.round_seed(night.data["seating_key"]["seed"], 1)
        for h in a[:n]:
            key = fair.derived_key(round_seed, duplicate.round_salt(1), h["hand_no"])
            assert (h["fair"]["seed"], h["fair"]["salt"]) == (key.seed, key.salt)
        assert a[0]["dealer"] == 0

        # matchpoints, counted here from the stored hand scores
        scored = {t.id: points_by_hand(records[t.id]) for t in tables}
        expected: dict[int, float] = {}
        for t, other in ((tables[0], tables[1]), (tables[1], tables[0])):
            for s, side in enumerate(t.sides):
                mp = 0.0
                for mine, theirs in zip(scored[t.id][:n], scored[other.id][:n], strict=True):
                    mp += 1.0 if mine[s] > theirs[s] else 0.5 if mine[s] == theirs[s] else 0.0
                for p in side:
                    assert p is not None
                    expected[p] = mp
        # each hand hands out one point per side direction (two), to both players of a side
        assert sum(expected.values()) == n * 2 * 2

        standings = await ask(spades, players[0], "league standings", league=LEAGUE)
        shown = {int(u): float(n) for u, n in LINE.findall(standings)}
        assert shown == expected, standings
        ranked = [float(n) for _u, n in LINE.findall(standings)]
        assert ranked == sorted(ranked, reverse=True)  # ranked by matchpoints
        results = posts_with(spades, "night 1 results")[0].content
        assert results.count("matchpoints") == 2, results  # one line per table
    assert spades.fake.take_violations() == []
