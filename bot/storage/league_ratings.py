"""Ratings (OpenSkill numbers per guild): read them, the leaderboard, and rating each finished game
once with a rater from ``bot.league.ratings`` (storage imports no league rule).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .base import _now
from .league_base import LeagueStoreBase
from .league_rows import GameRater, RatingRow, SeatRow, StoredRating


class RatingRows(LeagueStoreBase):
    """Stored ratings and the rating of finished games."""

    async def get(self, guild_id: int, user_ids: Sequence[int] | None = None) -> dict[int, StoredRating]:
        if user_ids is None:
            rows = await self._all(
                "SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ?", (guild_id,)
            )
        else:
            if not user_ids:
                return {}
            marks = ", ".join("?" for _ in user_ids)
            rows = await self._all(
                f"SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND user_id IN ({marks})",
                (guild_id, *user_ids),
            )
        return {u: StoredRating(mu, sigma, games) for u, mu, sigma, games in rows}

    async def leaderboard(self, guild_id: int, *, limit: int = 10, offset: int = 0) -> list[RatingRow]:
        """Players by conservative rating (mu - 3 sigma), best first; ties on games then user id."""
        rows = await self._all(
            "SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ?"
            " ORDER BY mu - 3 * sigma DESC, games DESC, user_id ASC LIMIT ? OFFSET ?",
            (guild_id, limit, offset),
        )
        return [
            RatingRow(u, StoredRating(mu, sigma, games), offset + i + 1)
            for i, (u, mu, sigma, games) in enumerate(rows)
        ]

    async def count(self, guild_id: int) -> int:
        row = await self._one("SELECT COUNT(*) FROM ratings WHERE guild_id = ?", (guild_id,))
        return int(row[0])

    async def rate_pending_games(self, rate: GameRater, *, batch: int = 200) -> int:
        """Rate every finished game not rated yet, oldest first; returns how many games were looked at.

        Each game is rated in its own transaction together with its ``rated_games`` row, so a game is
        rated exactly once even across restarts or two callers. Run at start-up (it rates the games
        stored before ratings existed, in order) and after each finished game.
        """
        done = 0
        while True:
            pending = await self._all(
                "SELECT g.id, g.guild_id, g.sides, g.winner_side FROM games g"
                " LEFT JOIN rated_games r ON r.game_id = g.id WHERE r.game_id IS NULL"
                " ORDER BY g.finished_at, g.id LIMIT ?",
                (batch,),
            )
            if not pending:
                return done
            for game_id, guild_id, sides_json, winner in pending:
                await self._rate_one(rate, game_id, guild_id, json.loads(sides_json), winner)
                done += 1

    async def rerate_from(self, rate: GameRater, game_id: int) -> int:
        """Rate again, in order, a game and every game of its server rated after it (a result was
        corrected): each player's rating goes back to what it was before the game (from the rating
        history), those games' ratings are forgotten, and they are rated afresh. Returns how many
        games were rated; 0 when the game is unknown."""
        row = await self._one("SELECT guild_id, finished_at FROM games WHERE id = ?", (game_id,))
        if row is None:
            return 0
        guild_id, finished_at = row
        async with self._tx() as conn:
            later = [
                g
                for (g,) in await conn.fetchall(
                    "SELECT g.id FROM games g JOIN rated_games r ON r.game_id = g.id"
                    " WHERE g.guild_id = ? AND (g.finished_at > ? OR (g.finished_at = ? AND g.id >= ?))",
                    (guild_id, finished_at, finished_at, game_id),
                )
            ]
            if later:
                marks = ", ".join("?" for _ in later)
                history = await conn.fetchall(
                    "SELECT h.user_id, h.mu_before, h.sigma_before FROM rating_history h"
                    f" JOIN games g ON g.id = h.game_id WHERE h.game_id IN ({marks})"
                    " ORDER BY g.finished_at, g.id",
                    tuple(later),
                )
                first: dict[int, tuple[float | None, float | None]] = {}
                undone: dict[int, int] = {}
                for uid, mu, sigma in history:
                    first.setdefault(uid, (mu, sigma))
                    undone[uid] = undone.get(uid, 0) + 1
                now = _now()
                for uid, (mu, sigma) in first.items():
                    if mu is None or sigma is None:
                        await conn.execute(
                            "DELETE FROM ratings WHERE guild_id = ? AND user_id = ?", (guild_id, uid)
                        )
                    else:
                        await conn.execute(
                            "UPDATE ratings SET mu = ?, sigma = ?, games = games - ?, updated_at = ?"
                            " WHERE guild_id = ? AND user_id = ?",
                            (mu, sigma, undone[uid], now, guild_id, uid),
                        )
                await conn.execute(f"DELETE FROM rating_history WHERE game_id IN ({marks})", tuple(later))
                await conn.execute(f"DELETE FROM rated_games WHERE game_id IN ({marks})", tuple(later))
        return await self.rate_pending_games(rate)

    async def _rate_one(
        self, rate: GameRater, game_id: int, guild_id: int, sides: list[dict[str, Any]], winner: int | None
    ) -> None:
        now = _now()
        async with self._tx() as conn:
            if await conn.fetchone("SELECT 1 FROM rated_games WHERE game_id = ?", (game_id,)):
                return  # someone else rated it between our read and this transaction
            seats = [
                SeatRow(side, uid, bool(is_bot), float(share or 0))
                for side, uid, is_bot, share in await conn.fetchall(
                    "SELECT side, user_id, is_bot, bot_share FROM game_players WHERE game_id = ?"
                    " ORDER BY seat",
                    (game_id,),
                )
            ]
            users = sorted({s.user_id for s in seats if s.user_id is not None and not s.is_bot})
            current: dict[int, StoredRating] = {}
            if users:
                marks = ", ".join("?" for _ in users)
                for u, mu, sigma, games in await conn.fetchall(
                    "SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ?"
                    f" AND user_id IN ({marks})",
                    (guild_id, *users),
                ):
                    current[u] = StoredRating(mu, sigma, games)
            scores = [int(s.get("score", 0)) for s in sides]
            # a league table's corrected (or forfeited) result rates the game as corrected
            fixed = await conn.fetchone(
                "SELECT lr.scores, lr.winner_side, lr.forfeit_side FROM league_results lr"
                " JOIN league_tables t ON t.id = lr.league_table_id"
                " WHERE lr.game_id = ? AND lr.corrected = 1 AND t.status <> 'void'",
                (game_id,),
            )
            if fixed is not None and len(json.loads(fixed[0])) == len(scores):
                scores, winner = [int(x) for x in json.loads(fixed[0])], fixed[1]
                if fixed[2] is not None and 0 <= fixed[2] < len(scores):
                    # a forfeit: the side that forfeited is rated below every other side
                    scores = [-1 if i == fixed[2] else 0 for i in range(len(scores))]
            new = rate(seats, scores, winner, current)
            for uid, r in new.items():
                old = current.get(uid)
                await conn.execute(
                    "INSERT INTO ratings (guild_id, user_id, mu, sigma, games, updated_at) VALUES"
                    " (?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (guild_id, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
                    " games = excluded.games, updated_at = excluded.updated_at",
                    (guild_id, uid, r.mu, r.sigma, r.games, now),
                )
                await conn.execute(
                    "INSERT INTO rating_history (game_id, user_id, mu_before, sigma_before,"
                    " mu_after, sigma_after) VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, uid, old.mu if old else None, old.sigma if old else None, r.mu, r.sigma),
                )
            await conn.execute(
                "INSERT INTO rated_games (game_id, guild_id, rated, at) VALUES (?, ?, ?, ?)",
                (game_id, guild_id, int(bool(new)), now),
            )
