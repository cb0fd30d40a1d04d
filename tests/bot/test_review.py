"""bot.review: who may see a hand's review (its human players, in its server, once it is over, a
league table's once its night is over), and the review itself, computed once per hand and seat."""

from __future__ import annotations

from typing import Any

from bot.review import HandReviews, ReviewAnswer, ReviewRefusal
from bot.storage import Storage
from bot.storage.leagues import LeagueStore
from engine.review import HandReview, review_hand
from tests.bot.storage.test_storage_history import play_game

GUILD, OTHER_GUILD = 1, 2
ALICE, BOB, CAROL = 10, 11, 12


class InlineReviews:
    """The thinker's ``review``, inline (a fixed, quick search), counting the reviews asked."""

    def __init__(self) -> None:
        self.asked: list[tuple[int, int]] = []

    async def review(self, record: dict[str, Any], seat: int, seed: int = 0) -> HandReview | None:
        self.asked.append((int(record["hand_no"]), seat))
        return review_hand(record, seat, seed=seed, worlds=2, time_limit=None)


async def test_only_the_hands_human_players_see_its_review(db: Storage) -> None:
    # Alice at seat 0, Bob at seat 2, two bots; the game is still going after two hands
    row = await play_game(db, GUILD, 100, [ALICE, None, BOB, None], seed=4, finished_at=2000, finish=False)
    thinker = InlineReviews()
    reviews = HandReviews(db, LeagueStore(db), thinker)  # type: ignore[arg-type]
    answer = await reviews.review(GUILD, ALICE, row.id, 1, 1)
    assert isinstance(answer, ReviewAnswer) and answer.review.seat == 0
    assert (answer.table_id, answer.game_no, answer.hand_no) == (row.id, 1, 1)
    stored = await db.history.table_hand(row.id, 1, 1)
    assert stored is not None
    assert answer.review.bid.player.to_json() == dict(stored.record["bids"])[0]  # type: ignore[union-attr]
    bob = await reviews.review(GUILD, BOB, row.id, 1, 1)
    assert isinstance(bob, ReviewAnswer) and bob.review.seat == 2
    # asked again: the same review, not searched again
    again = await reviews.review(GUILD, ALICE, row.id, 1, 1)
    assert isinstance(again, ReviewAnswer) and again.review == answer.review
    assert thinker.asked == [(1, 0), (1, 2)]
    # kept in storage: after a restart (a new service) too, and counted for /stats
    restarted = await HandReviews(db, None, InlineReviews()).review(GUILD, ALICE, row.id, 1, 1)  # type: ignore[arg-type]
    assert isinstance(restarted, ReviewAnswer) and restarted.review == answer.review
    accuracy = await db.reviews.bid_accuracy(GUILD, ALICE)
    assert accuracy.reviewed == 1 and accuracy.within_one == int(bool(answer.review.bid_within_one))

    # refused: someone not at the table, another server, a hand not played yet, no such table
    assert await reviews.review(GUILD, CAROL, row.id, 1, 1) == ReviewRefusal("not_at_table", {"hand": 1})
    assert await reviews.review(OTHER_GUILD, ALICE, row.id, 1, 1) == ReviewRefusal("other_server")
    assert await reviews.review(GUILD, ALICE, row.id, 1, 9) == ReviewRefusal("not_over", {"hand": 9})
    assert await reviews.review(GUILD, ALICE, row.id + 50, 1, 1) == ReviewRefusal("no_table")
    assert thinker.asked == [(1, 0), (1, 2)]  # nothing searched for a refusal


async def test_a_league_tables_hands_are_reviewed_once_its_night_is_over(db: Storage) -> None:
    store = LeagueStore(db)
    league = await store.rosters.create_league(
        guild_id=GUILD,
        channel_id=100,
        name="Thursday",
        fmt="rotating",
        ruleset={"name": "standard"},
        settings={"rounds": 1},
        schedule={"weekday": 3},
        slot_key="3|20:00|America/New_York",
        created_by=ALICE,
    )
    night = await store.nights.ensure_night(league.id, 1, 4, "2026-10-22", 2000, 1000)
    await store.nights.transition(night.id, ["scheduled"], "checkin")
    await store.rounds.start_round(night.id, 1, tables=[[[ALICE, BOB], [CAROL, None]]], ends_at=5000)
    (lt,) = await store.rounds.round_tables(night.id, 1)
    row = await play_game(db, GUILD, 100, [ALICE, CAROL, BOB, None], seed=4, finished_at=2000, finish=False)
    await store.rounds.link_table(lt.id, channel_id=100, table_id=row.id)
    await store.nights.transition(night.id, ["checkin"], "playing")
    thinker = InlineReviews()
    reviews = HandReviews(db, store, thinker)  # type: ignore[arg-type]
    # the night goes on: refused with the reason, even for a player of the hand
    assert await reviews.review(GUILD, ALICE, row.id, 1, 1) == ReviewRefusal("night_going", {"night": 4})
    assert thinker.asked == []
    # someone not at the table is refused for that first
    assert await reviews.review(GUILD, 99, row.id, 1, 1) == ReviewRefusal("not_at_table", {"hand": 1})
    await store.nights.transition(night.id, ["playing"], "finished")
    answer = await reviews.review(GUILD, ALICE, row.id, 1, 1)
    assert isinstance(answer, ReviewAnswer) and answer.review.seat == 0


async def test_a_busy_thinker_and_a_broken_record_are_refused(db: Storage) -> None:
    row = await play_game(db, GUILD, 100, [ALICE, None, None, None], seed=5, finished_at=2000, finish=False)

    class Busy(InlineReviews):
        async def review(self, record: dict[str, Any], seat: int, seed: int = 0) -> HandReview | None:
            return None

    reviews = HandReviews(db, None, Busy())  # type: ignore[arg-type]
    assert await reviews.review(GUILD, ALICE, row.id, 1, 1) == ReviewRefusal("busy")

    class Broken(InlineReviews):
        async def review(self, record: dict[str, Any], seat: int, seed: int = 0) -> HandReview | None:
            record = {**record, "plays": record["plays"][1:]}  # (as a record that does not replay)
            return review_hand(record, seat, seed=seed, worlds=2, time_limit=None)

    reviews = HandReviews(db, None, Broken())  # type: ignore[arg-type]
    assert await reviews.review(GUILD, ALICE, row.id, 1, 1) == ReviewRefusal("bad_record")


async def test_a_two_player_hand_is_refused_as_not_reviewed(db: Storage) -> None:
    row = await play_game(
        db, GUILD, 100, [ALICE, None], seed=6, finished_at=2000, finish=False, preset="two-player"
    )
    thinker = InlineReviews()
    reviews = HandReviews(db, None, thinker)  # type: ignore[arg-type]
    assert await reviews.review(GUILD, ALICE, row.id, 1, 1) == ReviewRefusal("not_reviewed")
    assert thinker.asked == []
