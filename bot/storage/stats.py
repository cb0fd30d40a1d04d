"""The leaderboard queries over the stored per-hand and per-game rows.

The per-hand rows are attributed by the table layer from the engine's ``HandScored``
(``bot.hand_stats``); storage only writes and sums them.
"""

from __future__ import annotations

from typing import Any

from .base import Repository
from .counted import COUNTED_SQL
from .models import PlayerStats

SORTS: dict[str, str] = {
    # the sort's code (its words: bot.lexicon.words.SORT_LABELS) -> ORDER BY clause over the
    # aggregated columns (ties end on user_id for stable pages)
    "wins": "wins DESC, win_ratio DESC NULLS LAST, games DESC, user_id ASC",
    "win_pct": "win_ratio DESC NULLS LAST, games DESC, wins DESC, user_id ASC",
    "games": "games DESC, wins DESC, user_id ASC",
    "bid_accuracy": "bid_ratio DESC NULLS LAST, contracts_bid DESC, user_id ASC",
    "nils": "nils_made DESC, nil_ratio DESC NULLS LAST, user_id ASC",
    # fewest bags per hand is best; players without a finished hand go last
    "bags": "bag_ratio ASC NULLS LAST, hands DESC, user_id ASC",
    # the conservative OpenSkill rating (mu - 3 sigma); unrated players last
    "rating": "rating_score DESC NULLS LAST, rated_games DESC, user_id ASC",
}


_AGGREGATE = """
WITH hp AS (
    SELECT user_id, COUNT(*) AS hands, SUM(contract_made) AS contracts_made,
           SUM(contract_bid) AS contracts_bid, SUM(nil_made) AS nils_made,
           SUM(nil_attempted) AS nils_attempted, SUM(bags) AS bags
    FROM hand_players
    WHERE guild_id = :guild AND user_id IS NOT NULL AND is_bot = 0
    GROUP BY user_id
), gp AS (
    SELECT user_id, SUM(CASE WHEN {counted} THEN 1 ELSE 0 END) AS games,
           SUM(CASE WHEN {counted} THEN won ELSE 0 END) AS wins,
           SUM(CASE WHEN {rule} THEN 0 ELSE 1 END) AS not_counted
    FROM game_players
    WHERE guild_id = :guild AND user_id IS NOT NULL AND is_bot = 0
    GROUP BY user_id
), rt AS (
    SELECT user_id, mu, sigma, games AS rated_games FROM ratings WHERE guild_id = :guild
), users AS (
    SELECT user_id FROM hp UNION SELECT user_id FROM gp
), agg AS (
    SELECT u.user_id,
           COALESCE(gp.games, 0) AS games, COALESCE(gp.wins, 0) AS wins,
           COALESCE(gp.not_counted, 0) AS not_counted,
           COALESCE(hp.hands, 0) AS hands,
           COALESCE(hp.contracts_made, 0) AS contracts_made,
           COALESCE(hp.contracts_bid, 0) AS contracts_bid,
           COALESCE(hp.nils_made, 0) AS nils_made,
           COALESCE(hp.nils_attempted, 0) AS nils_attempted,
           COALESCE(hp.bags, 0) AS bags,
           COALESCE(rt.rated_games, 0) AS rated_games, rt.mu AS mu, rt.sigma AS sigma
    FROM users AS u LEFT JOIN hp USING (user_id) LEFT JOIN gp USING (user_id) LEFT JOIN rt USING (user_id)
), ratios AS (
    SELECT *,
           CAST(wins AS DOUBLE PRECISION) / NULLIF(games, 0) AS win_ratio,
           CAST(contracts_made AS DOUBLE PRECISION) / NULLIF(contracts_bid, 0) AS bid_ratio,
           CAST(nils_made AS DOUBLE PRECISION) / NULLIF(nils_attempted, 0) AS nil_ratio,
           CAST(bags AS DOUBLE PRECISION) / NULLIF(hands, 0) AS bag_ratio,
           mu - 3 * sigma AS rating_score
    FROM agg
)
SELECT ROW_NUMBER() OVER (ORDER BY {order}) AS rank, user_id, games, wins, not_counted, hands,
       contracts_made, contracts_bid, nils_made, nils_attempted, bags, rated_games, mu, sigma
FROM ratios
"""

_COLUMNS = (
    "rank",
    "user_id",
    "games",
    "wins",
    "not_counted",
    "hands",
    "contracts_made",
    "contracts_bid",
    "nils_made",
    "nils_attempted",
    "bags",
    "rated_games",
)
_FLOATS = ("rating_mu", "rating_sigma")


def leaderboard_sql(sort: str, *, humans_only: bool = True) -> str:
    """The ranked query for one sort; raises ValueError for an unknown sort.

    ``humans_only`` counts only counted games (``bot.storage.counted``) in ``games`` and ``wins``
    (the public leaderboard's and /stats' default: one human with three bots must not farm wins);
    ``not_counted`` says how many of the player's games were not counted."""
    try:
        order = SORTS[sort]
    except KeyError:
        raise ValueError(f"unknown sort {sort!r}; choose one of {', '.join(SORTS)}") from None
    return _AGGREGATE.format(order=order, counted=COUNTED_SQL if humans_only else "1 = 1", rule=COUNTED_SQL)


def stats_from_row(row: Any) -> PlayerStats:
    # int(): PostgreSQL's SUM over BIGINT is NUMERIC (a Decimal in Python)
    cells = tuple(row)
    values: dict[str, Any] = {k: int(v) for k, v in zip(_COLUMNS, cells[: len(_COLUMNS)], strict=True)}
    for k, v in zip(_FLOATS, cells[len(_COLUMNS) :], strict=True):
        values[k] = None if v is None else float(v)
    return PlayerStats(**values)


class Stats(Repository):
    """``storage.stats``: the leaderboard, over the queries above."""

    async def leaderboard(
        self,
        guild_id: int,
        sort: str = "wins",
        limit: int = 10,
        offset: int = 0,
        *,
        humans_only: bool = True,
    ) -> list[PlayerStats]:
        """One page of the server's humans, ranked by ``sort`` (see ``SORTS``); ``humans_only``
        counts only counted games in games and wins."""
        sql = leaderboard_sql(sort, humans_only=humans_only)
        sql += " ORDER BY rank LIMIT :limit OFFSET :offset"
        rows = await self._fetchall(
            sql, {"guild": guild_id, "limit": max(0, limit), "offset": max(0, offset)}
        )
        return [stats_from_row(r) for r in rows]

    async def count(self, guild_id: int) -> int:
        """How many humans have at least one finished hand or game in this server."""
        row = await self._fetchone(
            "SELECT COUNT(*) FROM (SELECT user_id FROM hand_players WHERE guild_id = :g AND is_bot = 0"
            " AND user_id IS NOT NULL UNION SELECT user_id FROM game_players WHERE guild_id = :g"
            " AND is_bot = 0 AND user_id IS NOT NULL) AS humans",
            {"g": guild_id},
        )
        return int(row[0])

    async def player(
        self, guild_id: int, user_id: int, sort: str = "wins", *, humans_only: bool = True
    ) -> PlayerStats | None:
        """One human's numbers in this server, with their rank under ``sort``; None if never played."""
        inner = leaderboard_sql(sort, humans_only=humans_only)
        sql = f"SELECT * FROM ({inner}) AS ranked WHERE user_id = :user"
        row = await self._fetchone(sql, {"guild": guild_id, "user": user_id})
        return stats_from_row(row) if row else None
