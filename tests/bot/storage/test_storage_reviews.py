"""Hand reviews storage (migration 011): kept once per hand and seat, counted for /stats, in the
player's export, and deleted by forget me. Runs on SQLite and on a real PostgreSQL server."""

from __future__ import annotations

from bot.storage import Storage

GUILD, OTHER_GUILD = 1, 2
ALICE, BOB = 10**17 + 1, 10**17 + 2  # Discord-sized ids (BIGINT on PostgreSQL)


async def keep(
    db: Storage, hand: int, user: int, within: bool | None, *, guild: int = GUILD, seat: int = 0
) -> None:
    await db.reviews.save(
        guild_id=guild,
        table_id=7,
        game_no=1,
        hand_no=hand,
        seat=seat,
        user_id=user,
        data={"seat": seat, "hand_no": hand, "note": f"hand {hand}"},
        within_one=within,
    )


async def test_a_review_is_kept_once_and_counted_for_its_player_and_server(db: Storage) -> None:
    assert await db.reviews.get(7, 1, 1, 0) is None
    await keep(db, 1, ALICE, True)
    await keep(db, 1, ALICE, False)  # the same hand and seat again: the first one stays
    assert await db.reviews.get(7, 1, 1, 0) == {"seat": 0, "hand_no": 1, "note": "hand 1"}
    await keep(db, 2, ALICE, False)
    await keep(db, 3, ALICE, None)  # a nil against a number: reviewed, not within one
    await keep(db, 4, ALICE, True)
    await keep(db, 5, ALICE, True, guild=OTHER_GUILD)
    await keep(db, 1, BOB, True, seat=2)
    got = await db.reviews.bid_accuracy(GUILD, ALICE)
    assert (got.reviewed, got.within_one, got.share) == (4, 2, 0.5)
    other = await db.reviews.bid_accuracy(OTHER_GUILD, ALICE)
    assert (other.reviewed, other.within_one) == (1, 1)
    none = await db.reviews.bid_accuracy(GUILD, 99)
    assert (none.reviewed, none.share) == (0, None)


async def test_the_export_holds_a_players_reviews_and_forget_me_deletes_them(db: Storage) -> None:
    await keep(db, 1, ALICE, True)
    await keep(db, 1, BOB, False, seat=2)
    data = await db.history.export(ALICE)
    assert [(r["hand_no"], r["seat"], r["review"]["note"]) for r in data["hand_reviews"]] == [
        (1, 0, "hand 1")
    ]
    await db.history.forget(ALICE)
    assert await db.reviews.get(7, 1, 1, 0) is None
    assert (await db.reviews.bid_accuracy(GUILD, ALICE)).reviewed == 0
    assert (await db.reviews.bid_accuracy(GUILD, BOB)).reviewed == 1  # nobody else's
    assert (await db.history.export(ALICE))["hand_reviews"] == []
