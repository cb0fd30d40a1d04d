"""A season as leagues run it, end to end through the fake Discord and its clock: fixed teams meet
new opponents every night (a round robin), seven players make a table of four and a cutthroat
table of three, the standings rank as the league chose, and `/league export` gives CSV files that
say what the standings say."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta

from fakediscord import Message, User
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


async def night_starts(spades: Spades) -> list[datetime]:
    schedule = await ask(spades, spades.users["bob"], "league schedule", league=LEAGUE)
    return [datetime.fromtimestamp(int(s.split(":")[0]), UTC) for s in schedule.split("<t:")[1:]]


async def play_night(spades: Spades, number: int, start: datetime, players: list[User]) -> None:
    """Everyone checks in; the night's one round starts, is played or called, and its results come."""
    advance_to(spades, start - timedelta(minutes=30))
    await spades.wait_for(lambda: len(checkin_posts(spades)) >= number, what=f"night {number}'s check-in")
    post = checkin_posts(spades)[-1]
    for p in players:
        r = await spades.fake.click(p, post, label="Check in")
        await r.answered()
    advance_to(spades, start + timedelta(seconds=1))
    await spades.wait_for(
        lambda: bool(posts_with(spades, f"night {number},")), what=f"night {number}'s seating"
    )
    advance(spades, minutes=6)
    await spades.wait_for(
        lambda: bool(posts_with(spades, f"night {number} results")), timeout=60, what=f"night {number}"
    )


async def test_fixed_teams_meet_new_opponents_every_night_and_the_export_matches(spades: Spades) -> None:
    fake = spades.fake
    admin = spades.users["admin"]
    players = [fake.add_user(f"p{i}") for i in range(8)]
    names = ["Aces", "Kings", "Queens", "Jacks"]
    async with running(spades), stored_leagues(spades) as store:
        assert "is set" in await create(
            spades,
            format="fixed",
            rounds=1,
            round_minutes=5,
            target=50,
            hand_limit=1,
            weeks=3,
            bid_seconds=15,
            play_seconds=15,
        )
        # the bots play every absent human's seat to the end of the hand the time call finishes:
        # the no-show rule (test_league_attendance.py) off, so each night counts for everyone
        off = await ask(spades, admin, "league admin attendance", league=LEAGUE, no_show="off")
        assert "Saved" in off, off
        for i, team in enumerate(names):
            captain, partner = players[2 * i], players[2 * i + 1]
            await ask(spades, captain, "league invite", league=LEAGUE, partner=partner, team=team)
            assert "You're on" in await ask(spades, partner, "league accept", league=LEAGUE)
        # a table of three is for individuals: a fixed-teams league refuses it, saying what it may choose
        refused = await ask(spades, admin, "league-season rules", league=LEAGUE, leftover="threes")
        assert refused.startswith("**A table of three (cutthroat), else a bye** needs individual players")
        assert "League points are 0 to 10 per game" in await ask(
            spades, admin, "league-season rules", league=LEAGUE, bye_points=11
        )
        said_rules = await ask(spades, admin, "league-season rules", league=LEAGUE, ranking="game_points")
        assert "ranked by game points" in said_rules, said_rules

        starts = await night_starts(spades)
        assert len(starts) == 3
        met: list[frozenset[frozenset[int]]] = []
        for number, start in enumerate(starts, 1):
            await play_night(spades, number, start, players)
            night = await stored_night(spades, number)
            tables = await store.rounds.round_tables(night.id, 1)
            assert len(tables) == 2
            met += [frozenset(frozenset(p for p in side if p) for side in t.sides) for t in tables]
        # four teams, three nights: a round robin, every pairing once
        assert len(met) == 6 and len(set(met)) == 6

        await spades.wait_for(lambda: bool(posts_with(spades, "season 1 final standings")), what="the final")
        final = posts_with(spades, "season 1 final standings")[0].content
        assert "game points" in final and "Champions:" in final

        # the export: three CSV files, the standings as the standings command ranks them
        r = await fake.slash(players[0], spades.channel, "league export", options={"league": LEAGUE})
        answer = await r.answered()
        assert r.ephemeral and "standings, nights and results as CSV files" in answer
        message: Message | None = r.followups[-1] if r.followups else r.message
        assert message is not None
        files = {a["filename"]: fake.attachment_bytes(a).decode() for a in message.attachments}
        assert sorted(files) == ["season1-nights.csv", "season1-results.csv", "season1-standings.csv"]
        table = list(csv.DictReader(io.StringIO(files["season1-standings.csv"])))
        shown = await ask(spades, players[0], "league standings", league=LEAGUE)
        lines = [line for line in shown.splitlines() if line[:1].isdigit() or line.startswith("=")]
        assert len(table) == len(lines) == 4
        for row, line in zip(table, lines, strict=True):
            assert f"**{row['name']}**" in line  # the same order
            assert line.split(".")[0].lstrip("=") == row["rank"]
            assert f"**{int(row['game_points']):,}** game points".replace("-", "−") in line
            assert f"**{row['league_points']}** pts" in line
            assert row["nights"] == "3" and row["games"] == "3"
        nights = list(csv.DictReader(io.StringIO(files["season1-nights.csv"])))
        assert [(n["night"], n["status"], n["tables"]) for n in nights] == [
            (str(i), "finished", "2") for i in (1, 2, 3)
        ]
        results = list(csv.DictReader(io.StringIO(files["season1-results.csv"])))
        assert len(results) == 12  # 6 games, two sides each
        by_team = {row["players"]: int(row["game_points"]) for row in table}
        for team, total in by_team.items():
            assert total == sum(int(x["score"]) for x in results if x["players"] == team)
        assert "seasons 1 to 1" in await ask(spades, players[0], "league export", league=LEAGUE, season=2)
    assert fake.take_violations() == []


async def test_seven_players_make_a_table_of_four_and_a_cutthroat_table_of_three(spades: Spades) -> None:
    fake = spades.fake
    admin = spades.users["admin"]
    players = [fake.add_user(f"odd{i}") for i in range(7)]
    async with running(spades), stored_leagues(spades) as store:
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
        for p in players:
            assert "signed up" in await ask(spades, p, "league signup", league=LEAGUE)
        said_rules = await ask(
            spades, admin, "league-season rules", league=LEAGUE, leftover="threes", min_nights=1, bye_points=1
        )
        assert "a table of three (cutthroat), else a bye" in said_rules, said_rules
        assert "Only server managers" in await ask(
            spades, players[0], "league-season rules", league=LEAGUE, min_nights=2
        )
        assert "The nights needed to be ranked are 0 to 52 (you gave 60)." in await ask(
            spades, admin, "league-season rules", league=LEAGUE, min_nights=60
        )
        (start,) = await night_starts(spades)
        await play_night(spades, 1, start, players)
        night = await stored_night(spades, 1)
        tables = await store.rounds.round_tables(night.id, 1)
        assert sorted(len(t.players) for t in tables) == [3, 4]
        three = next(t for t in tables if len(t.players) == 3)
        assert three.table_id is not None
        stored = await spades.stored_table(three.table_id)
        assert stored.data["ruleset"] in (
            "cutthroat",
            {"preset": "cutthroat", "target_score": 50, "max_hands": 1},
        )
        seated = sorted(p for t in tables for p in t.players)
        assert seated == sorted(p.id for p in players)  # nobody sits out
        # the cutthroat game's result has three sides, each player for themselves, in the standings
        results = await store.rounds.night_results(night.id)
        assert sorted(len(r.sides) for r in results) == [2, 3]
        await spades.wait_for(lambda: bool(posts_with(spades, "season 1 final standings")), what="the final")
        final = posts_with(spades, "season 1 final standings")[0].content
        assert all(f"<@{p.id}>" in final for p in players)
        # a forfeit (the bots played the seat) is no night attended: below the minimum, no rank
        for line in (line for line in final.splitlines() if "<@" in line and "pts" in line):
            assert ("not ranked yet (0 of 1 nights)" in line) == ("nights 0/1" in line), line
            assert line.startswith("–.") == ("nights 0/1" in line), line
    assert fake.take_violations() == []
