"""Stats: attribution of the engine's per-side breakdown to seats, and the leaderboard math."""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.hand_stats import scored_rows
from bot.storage import SORTS, FinishedGame, HandResult, Storage
from engine import Game, HandScored, Ruleset
from engine.bots import get_bot
from engine.record import replay

# --- leaderboard math against a plain Python model (games only: no engine needed) -------------------


USERS = [101, 102, 103, 104, 105, 106]

seatings = st.lists(st.sampled_from([*USERS, None]), min_size=4, max_size=4).filter(
    lambda seats: len([u for u in seats if u is not None]) == len({u for u in seats if u is not None})
)
games_strategy = st.lists(
    st.tuples(st.sampled_from([1, 2]), seatings, st.sampled_from([0, 1, None])), min_size=0, max_size=12
)


async def _store_games(games: list[tuple[int, list[int | None], int | None]]) -> Storage:
    db = await Storage.open(":memory:")
    for n, (guild, seats, winner) in enumerate(games):
        row = await db.tables.create(guild, 1000 + n, 1, {})
        row.status = "finished"
        players = [
            {"seat": s, "side": s % 2, "user_id": u, "is_bot": u is None, "name": str(u)}
            for s, u in enumerate(seats)
        ]
        game = FinishedGame(
            table_id=row.id, guild_id=guild, channel_id=row.channel_id, game_no=1, ruleset="standard",
            hands=1, winner_side=winner, started_at=0, finished_at=n, players=players,
            sides=[{"seats": [0, 2], "score": 0, "bags": 0}, {"seats": [1, 3], "score": 0, "bags": 0}],
        )  # fmt: skip
        await db.tables.save(row, game=game)
    return db


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games_strategy)
def test_leaderboard_matches_a_plain_model(games: list[tuple[int, list[int | None], int | None]]) -> None:
    # (guild, user) -> [games, wins, not counted]: games and wins count only games without bots
    expected: dict[tuple[int, int], list[int]] = {}
    every: dict[tuple[int, int], list[int]] = {}  # the same with humans_only=False: every game
    for guild, seats, winner in games:
        with_bots = None in seats
        for seat, user in enumerate(seats):
            if user is None:
                continue
            won = int(winner is not None and seat % 2 == winner)
            totals = expected.setdefault((guild, user), [0, 0, 0])
            totals[0] += int(not with_bots)
            totals[1] += won * int(not with_bots)
            totals[2] += int(with_bots)
            all_totals = every.setdefault((guild, user), [0, 0, 0])
            all_totals[0] += 1
            all_totals[1] += won
            all_totals[2] += int(with_bots)

    async def check() -> None:
        db = await _store_games(games)
        try:
            for guild in (1, 2):
                mine = {u: t for (g, u), t in expected.items() if g == guild}
                assert await db.stats.count(guild) == len(mine)
                for sort in SORTS:
                    board = await db.stats.leaderboard(guild, sort=sort, limit=100)
                    got = {p.user_id: [p.games, p.wins, p.not_counted] for p in board}
                    assert got == mine
                    whole = await db.stats.leaderboard(guild, sort=sort, limit=100, humans_only=False)
                    got = {p.user_id: [p.games, p.wins, p.not_counted] for p in whole}
                    assert got == {u: t for (g, u), t in every.items() if g == guild}
                    assert [p.rank for p in board] == list(range(1, len(board) + 1))
                    # pages of 3 put together are the whole board, in order, without overlap
                    pages = [
                        await db.stats.leaderboard(guild, sort=sort, limit=3, offset=o)
                        for o in range(0, 9, 3)
                    ]
                    assert [p.user_id for p in itertools.chain(*pages)] == [p.user_id for p in board][:9]
                    for p in board:
                        single = await db.stats.player(guild, p.user_id, sort=sort)
                        assert single == p and single is not None and single.rank == p.rank
                by_wins = await db.stats.leaderboard(guild, sort="wins", limit=100)
                keys = [(-p.wins, -(p.wins / p.games if p.games else -1)) for p in by_wins]
                assert keys == sorted(keys)
                by_pct = await db.stats.leaderboard(guild, sort="win_pct", limit=100)
                pcts = [p.win_pct for p in by_pct]
                assert pcts == sorted(pcts, reverse=True)
                by_games = [p.games for p in await db.stats.leaderboard(guild, sort="games", limit=100)]
                assert by_games == sorted(by_games, reverse=True)
        finally:
            await db.close()

    asyncio.run(check())


# --- stats from real engine games, checked against engine.replay of the stored records ---------------


def _play(preset: str, seed: int) -> tuple[Game, list[HandScored]]:
    """A bots' game and the engine's HandScored of each of its hands."""
    game = Game.new(Ruleset.preset(preset), seed=seed)
    bots = [get_bot("heuristic", seat) for seat in range(game.ruleset.num_seats)]
    scored: list[HandScored] = []
    while game.winner is None:
        seat = game.seats_to_act()[0]
        events = game.apply(bots[seat].act(game.view(seat)))
        scored += [e for e in events if isinstance(e, HandScored)]
    return game, scored


async def _store_game(
    db: Storage, game: Game, scored: list[HandScored], users: list[int | None], guild: int = 1
) -> None:
    """Every hand saved as the table store saves it: rows from the engine's HandScored."""
    players = [{"seat": s, "user_id": u, "is_bot": u is None} for s, u in enumerate(users)]
    row = await db.tables.create(guild, 77, 1, {"state": "playing"})
    row.status = "playing"
    assert len(scored) == len(game.hand_records)
    for n, (record, hand) in enumerate(zip(game.hand_records, scored, strict=True), start=1):
        row.data = {"hand": n}
        rows = scored_rows(hand, players)
        await db.tables.save(row, hand=HandResult(row.id, 1, n, record, rows, record["result"]))
    sides = game.ruleset.sides
    row.status = "finished"
    done = FinishedGame(
        table_id=row.id, guild_id=guild, channel_id=77, game_no=1, ruleset=game.ruleset.to_dict(),
        hands=len(game.hand_records), winner_side=game.winner, started_at=0, finished_at=1,
        sides=[{"seats": list(seats), "score": game.scores[i], "bags": game.bags[i]}
               for i, seats in enumerate(sides)],
        players=[{**p, "side": game.ruleset.side_of(p["seat"]), "name": str(p["user_id"])} for p in players],
    )  # fmt: skip
    await db.tables.save(row, game=done)


def _model(records: list[dict[str, Any]], users: list[int | None]) -> dict[int, dict[str, int]]:
    """Per user: the replay's per-side numbers summed over the hands the user played."""
    out: dict[int, dict[str, int]] = {}
    for record in records:
        result = replay(record)
        for seat, user in enumerate(users):
            if user is None:
                continue
            side = next(b for b in result["breakdown"] if seat in b["seats"])
            nil = next((n for n in side["nils"] if n["seat"] == seat), None)
            totals = out.setdefault(user, dict.fromkeys(("hands", "cb", "cm", "na", "nm", "bags"), 0))
            totals["hands"] += 1
            totals["cb"] += nil is None and side["made"] is not None
            totals["cm"] += nil is None and side["made"] is True
            totals["na"] += nil is not None
            totals["nm"] += bool(nil and nil["made"])
            totals["bags"] += side["bags"]
    return out


def _nil_bids(records: list[dict[str, Any]], seat: int) -> int:
    """Straight from the records' bids: how many nils the seat bid."""
    return sum(1 for r in records for s, bid in r["bids"] if s == seat and bid in ("nil", "blind_nil"))


async def _check_against_replay(db: Storage, preset: str, seed: int, users: list[int | None]) -> None:
    game, scored = _play(preset, seed)
    await _store_game(db, game, scored, users)
    model = _model(game.hand_records, users)
    assert await db.stats.count(1) == len(model)
    for seat, user in enumerate(users):
        if user is None:
            continue
        got = await db.stats.player(1, user)
        want = model[user]
        assert got is not None
        assert (got.hands, got.contracts_bid, got.contracts_made) == (
            want["hands"],
            want["cb"],
            want["cm"],
        )
        assert (got.nils_attempted, got.nils_made, got.bags) == (want["na"], want["nm"], want["bags"])
        assert got.hands == len(game.hand_records)
        assert got.nils_attempted == _nil_bids(game.hand_records, seat)
        assert got.contracts_bid + got.nils_attempted == got.hands  # every hand: a contract or a nil
        counted = int(None not in users)  # a game with a bot seat is not counted
        won = int(game.ruleset.side_of(seat) == game.winner)
        assert (got.games, got.wins) == (counted, won * counted)
        assert got.not_counted == int(None in users)
    assert await db.games.hand_records(1) == game.hand_records


# seeds chosen so that the games include nils (checked, so a change of bots cannot hide them)
@pytest.mark.parametrize("seed", [5, 11])
async def test_partnership_stats_match_the_replayed_records(db: Storage, seed: int) -> None:
    game, _ = _play("standard", seed)
    assert any(_nil_bids(game.hand_records, s) for s in range(4)), seed
    await _check_against_replay(db, "standard", seed, [1, 2, 3, None])


async def test_solo_stats_match_the_replayed_records(db: Storage) -> None:
    await _check_against_replay(db, "cutthroat", 5, [1, 2, 3])


async def test_a_hand_without_stats_keeps_the_save(db: Storage, caplog: Any) -> None:
    """Storage stores what it is given and replays nothing: a record saved without stats rows (and
    without the engine's result) is kept for inspection, counts for no one and logs nothing."""
    game, _ = _play("standard", 5)
    record = json.loads(json.dumps(game.hand_records[0]))
    record["plays"] = record["plays"][:5] + [record["plays"][5]] * 2 + record["plays"][7:]  # a revoke
    row = await db.tables.create(1, 10, 1, {})
    row.data = {"after": "hand"}
    with caplog.at_level(logging.ERROR, logger="bot.storage"):
        await db.tables.save(row, hand=HandResult(row.id, 1, 1, record, []))
    stored = await db.tables.get(row.id)
    assert stored is not None and stored.data == {"after": "hand"} and stored.version == 2
    assert await db.games.hand_records(row.id) == [record]  # kept for inspection
    assert await db.stats.count(1) == 0  # but no stats without rows
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
