"""Hand reviews (migration 011): a player's finished hand reviewed by the strong bot (``bot.review``),
and how near their bids were to the bot's, for /stats."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .base import Repository, _now


@dataclass(frozen=True)
class BidAccuracy:
    """A player's reviewed hands in a server: how many, and in how many the bid was within one
    trick of the strong bot's (a nil against a number counts as not within one)."""

    reviewed: int
    within_one: int

    @property
    def share(self) -> float | None:
        return self.within_one / self.reviewed if self.reviewed else None


class Reviews(Repository):
    async def get(self, table_id: int, game_no: int, hand_no: int, seat: int) -> dict[str, Any] | None:
        """A stored review (``HandReview.to_dict()``), or None."""
        row = await self._fetchone(
            "SELECT data FROM hand_reviews WHERE table_id = ? AND game_no = ? AND hand_no = ? AND seat = ?",
            (table_id, game_no, hand_no, seat),
        )
        return None if row is None else dict(json.loads(row[0]))

    async def save(
        self,
        *,
        guild_id: int,
        table_id: int,
        game_no: int,
        hand_no: int,
        seat: int,
        user_id: int,
        data: dict[str, Any],
        within_one: bool | None,
    ) -> None:
        """Keep a review (the first one kept stays: a review of a hand does not change)."""
        flag = None if within_one is None else int(within_one)
        async with self._transaction() as tx:
            await tx.execute(
                "INSERT INTO hand_reviews (table_id, game_no, hand_no, seat, guild_id, user_id, data,"
                " within_one, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (table_id, game_no, hand_no, seat) DO NOTHING",
                (table_id, game_no, hand_no, seat, guild_id, user_id, json.dumps(data), flag, _now()),
            )

    async def bid_accuracy(self, guild_id: int, user_id: int) -> BidAccuracy:
        """The player's reviewed hands in this server, and those bid within one of the bot."""
        row = await self._fetchone(
            "SELECT COUNT(*), COALESCE(SUM(CASE WHEN within_one = 1 THEN 1 ELSE 0 END), 0)"
            " FROM hand_reviews WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        return BidAccuracy(int(row[0]), int(row[1]))
