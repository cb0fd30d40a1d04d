"""History storage: paged games by channel, server and player; a game's hands; export; forget me.

Every test runs on SQLite and on a real PostgreSQL server (``db_target``, tests/postgres_server.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.hand_stats import scored_rows
from bot.storage import (
    FORMER_PLAYER,
    FinishedGame,
    HandResult,
    PlayerSeated,
    Storage,
    TableRow,
)
from engine import Game, HandScored
from engine.bots import get_bot
from engine.verify import verify

GUILD, OTHER_GUILD = 1, 2


def seats(users: list[int | None]) -> list[dict[str, Any]]:
    return [
        {"user_id": u, "name": f"user{u}" if u else f"Bot {i}", "bot": u is None} for i, u in enumerate(users)
    ]


def hands_played(*, seed: int, preset: str = "short") -> int:
    """How many hands ``play_game``'s game of ``seed`` has: the same engine game, no storage."""
    g = Game.new(preset, seed=seed, fair=True)
    bot = get_bot("heuristic", seed=seed)
    while not g.over:
        g.apply(bot.act(g.view(g.seats_to_act()[0])))
    return len(g.hand_records)


async def play_game(
    db: Storage,
    guild: int,
    channel: int,
    users: list[int | None],
    *,
    seed: int,
    finished_at: int,
    finish: bool = True,
    preset: str = "short",
) -> TableRow:
    """A real game through the engine, every hand saved as the table service saves it."""
    row = await db.tables.create(guild, channel, users[0] or 99, {"seats": seats(users)})
    row.status = "playing"
    g = Game.new(preset, seed=seed, fair=True)
    bot = get_bot("heuristic", seed=seed)
    players = [{"seat": s, "user_id": u, "is_bot": u is None} for s, u in enumerate(users)]
    saved = 0
    while not g.over:
        events = g.apply(bot.act(g.view(g.seats_to_act()[0])))
        scored = next((e for e in events if isinstance(e, HandScored)), None)
        if len(g.hand_records) > saved:
            assert scored is not None
            rec = g.hand_records[saved]
            saved += 1
            game = None
            if g.over and finish:
                row.status = "finished"
                game = FinishedGame(
                    table_id=row.id,
                    guild_id=guild,
                    channel_id=channel,
                    game_no=1,
                    ruleset=g.rs.to_dict(),
                    hands=len(g.hand_records),
                    winner_side=g.winner,
                    started_at=finished_at - 600,
                    finished_at=finished_at,
                    sides=[
                        {"seats": list(s), "score": g.scores[i], "bags": g.bags[i]}
                        for i, s in enumerate(g.rs.sides)
                    ],
                    players=[
                        {
                            **p,
                            "side": g.rs.side_of(p["seat"]),
                            "name": f"user{p['user_id']}" if p["user_id"] else f"Bot {p['seat']}",
                        }
                        for p in players
                    ],
                )
            hand = HandResult(row.id, 1, rec["hand_no"], rec, scored_rows(scored, players), rec["result"])
            row = await db.tables.save(row, hand=hand, game=game)
            if not finish and saved == 2:
                return row
    return row


async def test_pages_by_server_channel_and_player(db: Storage) -> None:
    tables = []
    for i in range(7):
        users = [10, 11 if i % 2 else None, 12, 13 if i < 3 else None]
        tables.append(await play_game(db, GUILD, 100 + i % 2, users, seed=i, finished_at=1000 + i))
    await play_game(db, OTHER_GUILD, 300, [10, 11, 12, 13], seed=99, finished_at=5000)

    page = await db.history.recent_games(GUILD, limit=3)
    assert page.total == 7 and page.pages == 3 and page.page == 1
    assert [g.table_id for g in page.games] == [tables[6].id, tables[5].id, tables[4].id]  # newest first
    assert page.has_next and not page.has_prev
    last = await db.history.recent_games(GUILD, limit=3, offset=6)
    assert [g.table_id for g in last.games] == [tables[0].id] and not last.has_next and last.has_prev
    seen = []
    for off in range(0, 7, 3):
        seen += [g.id for g in (await db.history.recent_games(GUILD, limit=3, offset=off)).games]
    assert len(seen) == len(set(seen)) == 7  # pages never overlap nor skip

    chan = await db.history.recent_games(GUILD, channel_id=101)
    assert {g.table_id for g in chan.games} == {tables[i].id for i in (1, 3, 5)}
    mine = await db.history.recent_games(GUILD, user_id=13)
    assert {g.table_id for g in mine.games} == {tables[i].id for i in range(3)}
    assert (await db.history.recent_games(GUILD, user_id=4242)).total == 0

    g = page.games[0]
    assert g.guild_id == GUILD and g.preset == "short" and len(g.players) == 4
    assert g.players[0].name == "user10"
    assert g.winner_side in (0, 1)
    assert any(p.won for p in g.players) and g.side_names(0) == ["user10", "user12"]
    assert (await db.history.recent_games(GUILD, limit=500)).limit == 25


async def test_a_game_has_its_hands_which_verify(db: Storage) -> None:
    row = await play_game(db, GUILD, 100, [10, 11, 12, 13], seed=4, finished_at=2000)
    game_id = await db.history.game_id_of(row.id, 1)
    assert game_id is not None
    game = await db.history.game(game_id)
    assert game is not None and game.table_id == row.id
    hands = await db.history.game_hands(game_id)
    assert [h.hand_no for h in hands] == list(range(1, game.hands + 1))
    assert hands[-1].result is not None
    assert hands[-1].result["scores"] == [s["score"] for s in game.sides]
    for h in hands:
        assert verify(h.record).ok
    second = await db.history.game_hand(game_id, 2)
    assert second is not None and second.record == hands[1].record
    assert await db.history.game_hand(game_id, 999) is None
    assert await db.history.game(game_id + 1000) is None
    by_table = await db.history.table_hand(row.id, 1, 2)
    assert by_table is not None and by_table.record == hands[1].record
    assert await db.history.table_hand(row.id, 2, 1) is None
    assert await db.history.table_guild(row.id) == GUILD and await db.history.table_guild(row.id + 50) is None
    assert await db.history.game_hands(game_id + 1000) == []


async def test_export_holds_the_players_games_hands_and_stats(db: Storage) -> None:
    await play_game(db, GUILD, 100, [10, 11, None, 13], seed=1, finished_at=1000)
    await play_game(db, OTHER_GUILD, 200, [11, 10, 12, None], seed=2, finished_at=2000)
    await play_game(db, GUILD, 100, [12, 11, None, 13], seed=3, finished_at=3000)  # without 10
    data = await db.history.export(10)
    json.dumps(data)  # JSON-safe
    assert data["format"] == "spades-mydata/1" and data["user_id"] == 10
    assert [(g["guild_id"], g["seat"]) for g in data["games"]] == [(GUILD, 0), (OTHER_GUILD, 1)]
    assert all(sum(p["you"] for p in g["players"]) == 1 for g in data["games"])
    assert {s["guild_id"] for s in data["stats"]} == {GUILD, OTHER_GUILD}
    # every hand of the two games user 10 played, counted by playing them again without storage
    assert len(data["hands"]) == hands_played(seed=1) + hands_played(seed=2)
    assert [g["hands"] for g in data["games"]] == [hands_played(seed=1), hands_played(seed=2)]
    h = data["hands"][0]
    assert h["seat"] == 0 and len(h["dealt"]) == 13 and h["bid"] is not None
    assert data["games"][0]["game_id"] == h["game_id"]
    assert (await db.history.export(4242))["games"] == []


async def test_forget_me_keeps_the_games_and_everyone_elses_numbers(db: Storage) -> None:
    row = await play_game(db, GUILD, 100, [10, 11, 12, 13], seed=5, finished_at=1000)
    before = {u: await db.stats.player(GUILD, u) for u in (11, 12, 13)}
    board_before = await db.stats.count(GUILD)
    game_id = await db.history.game_id_of(row.id, 1)
    assert game_id is not None
    game_before = await db.history.game(game_id)
    hands_before = await db.history.game_hands(game_id)

    report = await db.history.forget(10)
    assert report.games == 1 and report.hands == len(hands_before) and report.tables == 1

    assert await db.stats.player(GUILD, 10) is None
    assert await db.stats.count(GUILD) == board_before - 1
    for u in (11, 12, 13):
        assert await db.stats.player(GUILD, u) == before[u]
    game = await db.history.game(game_id)
    assert game is not None and game_before is not None
    seat0 = game.players[0]
    assert seat0.name == FORMER_PLAYER and seat0.user_id is None and not seat0.is_bot and seat0.forgotten
    assert seat0.won == game_before.players[0].won and game.sides == game_before.sides
    assert [h.record for h in await db.history.game_hands(game_id)] == [h.record for h in hands_before]
    assert (await db.history.recent_games(GUILD, user_id=10)).total == 0
    export = await db.history.export(10)
    assert export["games"] == [] and export["hands"] == [] and export["stats"] == []
    table = await db.tables.get(row.id)
    assert table is not None and table.host_id == 0
    assert table.data["seats"][0] == {"user_id": None, "name": FORMER_PLAYER, "bot": False}
    assert table.data["seats"][1]["user_id"] == 11
    assert "user10" not in json.dumps(table.data)
    # forgetting again finds nothing
    again = await db.history.forget(10)
    assert (again.games, again.hands, again.tables) == (0, 0, 0)


async def test_forget_me_is_refused_while_seated_at_a_live_table(db: Storage) -> None:
    live = await play_game(db, GUILD, 100, [10, 11, 12, 13], seed=6, finished_at=1000, finish=False)
    assert live.status == "playing"
    assert await db.history.live_tables_with(10) == [live.id]
    assert await db.history.live_tables_with(4242) == []
    with pytest.raises(PlayerSeated) as exc:
        await db.history.forget(10)
    assert exc.value.table_ids == [live.id]
    assert (await db.history.export(10))["hands"]  # nothing was changed
