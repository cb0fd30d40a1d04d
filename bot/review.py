"""Review my hand: a finished hand's decisions of one player beside the strong bot's.

The service behind the hand post's **Review my hand** button: it checks who may see the review
(only a human player of that hand, in the server the hand was played in, once the hand is over,
and for a league table only once its night is over), then has the strong bot review the stored
hand record (`engine.review`) in a search worker (`bot.table.thinker.Thinker.review`, a CPU cap
per search), so the event loop stays free. A review is kept (``storage.reviews``, migration 011):
asking again answers at once, and /stats counts the bids within one trick of the bot's. A
refusal is typed: a ``code`` and its fields (``bot.render.review`` words it). The review shows
the player's own cards, so it is answered to that player only, ephemerally (``cogs.history``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine import RecordError
from engine.review import HandReview, reviewable

if TYPE_CHECKING:
    from bot.storage import Storage
    from bot.storage.leagues import LeagueStore
    from bot.table.thinker import Thinker

log = logging.getLogger(__name__)

#: a league night's statuses while it is still going (its hands are reviewed once it is over)
NIGHT_GOING = frozenset({"scheduled", "checkin", "playing"})


@dataclass(frozen=True)
class ReviewRefusal:
    """Why a review is not shown: ``code`` (``other_server``, ``no_table``, ``not_over``,
    ``night_going``, ``not_at_table``, ``not_reviewed`` (a two-player draw), ``bad_record``,
    ``busy``) and the fields to say it."""

    code: str
    fields: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ReviewAnswer:
    table_id: int
    game_no: int
    hand_no: int
    review: HandReview


class HandReviews:
    """Checks and computes hand reviews (one per process, over the bot's storage and thinker)."""

    def __init__(self, storage: Storage, leagues: LeagueStore | None, thinker: Thinker) -> None:
        self.storage = storage
        self.leagues = leagues
        self.thinker = thinker

    async def allowed(
        self, guild_id: int, user_id: int, table_id: int, game_no: int, hand_no: int
    ) -> tuple[dict[str, Any], int] | ReviewRefusal:
        """The hand's record and the user's seat in it, or why the user may not review it."""
        history = self.storage.history
        owner = await history.table_guild(table_id)
        if owner is None:
            return ReviewRefusal("no_table")
        if owner != guild_id:
            return ReviewRefusal("other_server")
        stored = await history.table_hand(table_id, game_no, hand_no)
        if stored is None:
            return ReviewRefusal("not_over", {"hand": hand_no})
        seat = (await history.hand_seats(table_id, game_no, hand_no)).get(user_id)
        if seat is None:
            return ReviewRefusal("not_at_table", {"hand": hand_no})
        if self.leagues is not None:
            lt = await self.leagues.rounds.league_table_for(table_id)
            if lt is not None:
                night = await self.leagues.nights.get_night(lt.night_id)
                if night is not None and night.status in NIGHT_GOING:
                    return ReviewRefusal("night_going", {"night": night.number})
        return stored.record, seat

    async def review(
        self, guild_id: int, user_id: int, table_id: int, game_no: int, hand_no: int
    ) -> ReviewAnswer | ReviewRefusal:
        """The user's review of that hand, or why it is not shown."""
        allowed = await self.allowed(guild_id, user_id, table_id, game_no, hand_no)
        if isinstance(allowed, ReviewRefusal):
            return allowed
        record, seat = allowed
        kept = await self.storage.reviews.get(table_id, game_no, hand_no, seat)
        if kept is not None:
            return ReviewAnswer(table_id, game_no, hand_no, HandReview.from_dict(kept))
        try:
            if not reviewable(record):
                return ReviewRefusal("not_reviewed")
            review = await self.thinker.review(record, seat, seed=_seed(table_id, game_no, hand_no))
        except RecordError:
            log.error("stored hand %s/%s/%s does not replay for a review", table_id, game_no, hand_no)
            return ReviewRefusal("bad_record")
        if review is None:
            return ReviewRefusal("busy")
        await self.storage.reviews.save(
            guild_id=guild_id,
            table_id=table_id,
            game_no=game_no,
            hand_no=hand_no,
            seat=seat,
            user_id=user_id,
            data=review.to_dict(),
            within_one=review.bid_within_one,
        )
        return ReviewAnswer(table_id, game_no, hand_no, review)


def _seed(table_id: int, game_no: int, hand_no: int) -> int:
    """The review's search seed: the same hand always gets the same review."""
    return (table_id * 1_000_003 + game_no) * 1_009 + hand_no
