"""Finished hands and games (``storage.games``): their rows, written inside a table's save, and read
back for the records of a table and a server's recent games. The leaderboard over them is
``stats.py``; paged history and "forget me", ``history.py``."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from .backends import Session
from .base import Repository, _dumps
from .counted import game_counts
from .models import FinishedGame, HandResult, TableRow, Timestamp


def _unix(value: Timestamp) -> int:
    if isinstance(value, datetime):
        return int(value.timestamp())
    return int(value)


class Games(Repository):
    """``storage.games``: finished hands and games (written by ``storage.tables.save``)."""

    async def insert_hand(
        self,
        tx: Session,
        row: TableRow,
        hand: HandResult,
        now: int,
    ) -> None:
        hand_id = await tx.fetchval(
            "INSERT INTO hands (table_id, guild_id, game_no, hand_no, record, result, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                hand.table_id,
                row.guild_id,
                hand.game_no,
                hand.hand_no,
                _dumps(hand.record),
                None if hand.result is None else _dumps(hand.result),
                now,
            ),
        )
        await tx.executemany(
            "INSERT INTO hand_players (hand_id, guild_id, seat, side, user_id, is_bot, with_bots,"
            " tricks, contract_bid, contract_made, nil_attempted, nil_made, blind_nil, bags, points)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    hand_id,
                    row.guild_id,
                    p["seat"],
                    p["side"],
                    p["user_id"],
                    int(p["is_bot"]),
                    int(p["with_bots"]),
                    p["tricks"],
                    int(p["contract_bid"]),
                    int(p["contract_made"]),
                    int(p["nil_attempted"]),
                    int(p["nil_made"]),
                    int(p["blind_nil"]),
                    p["bags"],
                    p["points"],
                )
                for p in hand.rows
            ],
        )

    async def insert_game(self, tx: Session, game: FinishedGame) -> None:
        with_bots = not game_counts(game.players)
        game_id = await tx.fetchval(
            "INSERT INTO games (table_id, guild_id, channel_id, game_no, ruleset, hands, winner_side,"
            " sides, with_bots, started_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " RETURNING id",
            (
                game.table_id,
                game.guild_id,
                game.channel_id,
                game.game_no,
                _dumps(game.ruleset),
                game.hands,
                game.winner_side,
                _dumps(game.sides),
                int(with_bots),
                _unix(game.started_at),
                _unix(game.finished_at),
            ),
        )
        await tx.executemany(
            "INSERT INTO game_players (game_id, guild_id, seat, side, user_id, is_bot, name, won,"
            " with_bots, bot_share) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    game_id,
                    game.guild_id,
                    p["seat"],
                    p["side"],
                    None if p.get("is_bot") else p.get("user_id"),
                    int(bool(p.get("is_bot"))),
                    str(p.get("name", "")),
                    int(game.winner_side is not None and p["side"] == game.winner_side),
                    int(with_bots),
                    float(p.get("bot_share") or 0.0),
                )
                for p in game.players
            ],
        )

    async def hand_records(self, table_id: int, game_no: int | None = None) -> list[dict[str, Any]]:
        """Stored hand records of a table (optionally one game), in play order."""
        sql = "SELECT record FROM hands WHERE table_id = ?"
        params: tuple[int, ...] = (table_id,)
        if game_no is not None:
            sql += " AND game_no = ?"
            params = (table_id, game_no)
        rows = await self._fetchall(sql + " ORDER BY game_no, hand_no", params)
        return [json.loads(r[0]) for r in rows]

    async def finished(self, guild_id: int, *, limit: int = 10) -> list[dict[str, Any]]:
        """The server's most recent finished games, newest first, with their players."""
        rows = await self._fetchall(
            "SELECT id, table_id, channel_id, game_no, ruleset, hands, winner_side, sides, with_bots,"
            " started_at, finished_at FROM games WHERE guild_id = ?"
            " ORDER BY finished_at DESC, id DESC LIMIT ?",
            (guild_id, limit),
        )
        games: list[dict[str, Any]] = []
        for r in rows:
            players = await self._fetchall(
                "SELECT seat, side, user_id, is_bot, name, won FROM game_players WHERE game_id = ?"
                " ORDER BY seat",
                (r[0],),
            )
            games.append(
                {
                    "table_id": r[1],
                    "channel_id": r[2],
                    "game_no": r[3],
                    "ruleset": json.loads(r[4]),
                    "hands": r[5],
                    "winner_side": r[6],
                    "sides": json.loads(r[7]),
                    "with_bots": bool(r[8]),
                    "started_at": r[9],
                    "finished_at": r[10],
                    "counted": not r[8],
                    "players": [
                        {
                            "seat": p[0],
                            "side": p[1],
                            "user_id": p[2],
                            "is_bot": bool(p[3]),
                            "name": p[4],
                            "won": bool(p[5]),
                        }
                        for p in players
                    ],
                }
            )
        return games
